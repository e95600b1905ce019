import { randomUUID } from 'node:crypto';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import fastifyApollo, { fastifyApolloDrainPlugin } from '@as-integrations/fastify';
import { RequestContext } from '@mikro-orm/core';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { compose, unservedRoutes, type Infrastructure, type Services } from './container';
import { authenticatedContext, type GraphQLContext } from './transport/graphql/context';
import { formatGraphQLError } from './transport/graphql/errors';
import { buildGraphQLSchema } from './transport/graphql/schema';
import { assertDocumentNesting, graphqlParseOptions, graphqlValidationRules } from './transport/graphql/limits';
import { attachGraphQLWebSocket, type InDatabaseContext } from './transport/graphql/ws-server';
import { restV1 } from './transport/rest';
import { clientErrorHandler, frameworkErrors, registerRestErrorHandling } from './transport/rest/error-handler';
import { describePath } from './transport/rest/request-path';
import { assertCleanInput } from './transport/input-hygiene';
import { registerExactJsonParser } from './transport/exact-json';
import { assertOneAuthorizationHeader } from './transport/credentials';
import { acceptedRequestId, withRequestLogger } from './shared/request-logger';
import { RateLimits } from './transport/rate-limits';
import { graphqlRateLimitPlugin } from './transport/graphql/rate-limit';
import type { Logger } from './shared/logger';
import { Metrics } from './observability/metrics';
import { registerObservability, type Observability } from './transport/observability.routes';
import { dashboardRoutes } from './transport/dashboard/dashboard.routes';
import { dashboardSessionRoutes } from './transport/dashboard/dashboard-session.routes';
import { dashboardAccountRoutes } from './transport/dashboard/dashboard-account.routes';
import { pick } from './transport/pick';
import { invitationRoutes } from './transport/dashboard/invitation.routes';
import { cardOtpRoutes } from './transport/checkout/card-otp.routes';
import { checkoutPageRoutes } from './transport/checkout/checkout-pages.routes';
import { registerHsts, warnOnUntrustedForwarding } from './transport/proxy';

/**
 * One access line per request, written when it completes (method, route, status,
 * time), instead of Fastify's two lines with the whole request and URL. The path
 * is the route's pattern, never the values in it (describePath), so no reference,
 * card number or 3-D Secure handle a client sent in a path is logged.
 */
class AccessLog extends LogController {
  override incomingRequest(): void {}

  override routeNotFound(request: FastifyRequest): void {
    request.log.info({ method: request.method, path: describePath(request) }, 'route not found');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = { method: request.method, path: describePath(request), statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

/** A hop count as proxy-addr reads it: the nearest `hops` addresses are proxies. */
const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

export interface App {
  fastify: FastifyInstance;
  services: Services;
  /** Starts listening; resolves to the base URL. */
  listen(port: number, host: string): Promise<string>;
  close(): Promise<void>;
  /** `markNotReady()`: /health/ready answers 503 from then on (the first step of a graceful shutdown; close() does it too). */
  observability: Pick<Observability, 'markNotReady'>;
}

/**
 * Composes the three doors over one service layer: REST under /v1, GraphQL over
 * HTTP at /graphql and graphql-ws on the same path. No business logic lives here.
 */
export async function createApp(infra: Infrastructure): Promise<App> {
  const { config, logger, orm } = infra;
  const composition = compose(infra);
  const { services } = composition;
  // Each module's start, in order: static reference data read, caches that listen to pub/sub subscribed; before any door can ask.
  await composition.start();
  const rateLimits = new RateLimits({ config: config.rateLimits, redisUrl: config.redisUrl, logger });

  const fastify = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    bodyLimit: config.bodyLimitBytes,
    // A caller's x-request-id is kept when it is well formed (to follow one request across systems), else a new one.
    genReqId: (req) => acceptedRequestId(req.headers['x-request-id']) ?? randomUUID(),
    logController: new AccessLog(),
    return503OnClosing: true,
    // A route plugin that awaits files or its own start on a loaded machine is slow, not stuck (avvio's 10 s default
    // is there to catch a callback plugin that never calls done; every plugin here is async).
    pluginTimeout: 120_000,
    // Slow or stalled clients (config.timeouts): the parser's answers (408, 431, 400) and routing's (bad
    // percent-encoding, an over-long path parameter) in the envelope too.
    requestTimeout: config.timeouts.requestMs,
    keepAliveTimeout: config.timeouts.keepAliveMs,
    http: { headersTimeout: config.timeouts.headersMs, connectionsCheckingInterval: Math.min(1000, config.timeouts.headersMs) },
    clientErrorHandler,
    frameworkErrors,
    // The client's address (per-address rate limits) through the proxies TRUST_PROXY names, and no others.
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
  });

  // JSON only (the OAuth scope adds form bodies); a text/plain body is an unsupported content type.
  fastify.removeContentTypeParser('text/plain');
  // A number a double cannot carry exactly is kept as its text, for its field to refuse by name.
  registerExactJsonParser(fastify);
  // The doors' one way into a database context: each HTTP request here, and each WebSocket
  // operation and subscription event in ws-server.ts (which never imports the ORM itself).
  const inDatabaseContext: InDatabaseContext = (fn) => RequestContext.create(orm.em, fn);
  // One EntityManager fork per request, found by the services through AsyncLocalStorage; and the
  // request's logger, so that lines written deeper down (GraphQL errors) carry its id.
  // Two Authorization headers are refused before anything reads one (credentials.ts).
  fastify.addHook('onRequest', (request, _reply, done) => {
    try {
      assertOneAuthorizationHeader(request.raw.rawHeaders);
    } catch (err) {
      return done(err as Error);
    }
    withRequestLogger(request.id, request.log as Logger, () => inDatabaseContext(done));
  });
  fastify.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // Strict-Transport-Security on every answer served over https (a trusted proxy's X-Forwarded-Proto, or an https PUBLIC_BASE_URL).
  registerHsts(fastify, services.publicAddress);
  // Behind a proxy without TRUST_PROXY, every client shares the proxy's address in the per-address rate limits: said once, in the log.
  warnOnUntrustedForwarding(fastify, config.trustProxy, logger);
  registerRestErrorHandling(fastify, config.bodyLimitBytes);
  // Every door's input, before any handler: a string PostgreSQL cannot store is a 400 naming its field, never a 500.
  fastify.addHook('preValidation', async (request) => {
    assertCleanInput(request.params, '');
    assertCleanInput(request.query, '');
    assertCleanInput(request.body, '');
    // GraphQL over HTTP: a document nested deeper than the parser's stack allows is refused before Apollo parses it.
    if (request.routeOptions.url === '/graphql') {
      assertDocumentNesting((request.body as { query?: unknown } | undefined)?.query ?? (request.query as { query?: unknown } | undefined)?.query);
    }
  });

  // Every request's duration by route pattern, GET /metrics, /health, /health/live and /health/ready (transport/observability.routes.ts).
  const observability = registerObservability(fastify, {
    config,
    logger: infra.logger,
    metrics: infra.metrics ?? new Metrics({ ...infra, poolMax: config.dbPoolMax }),
    checks: { database: () => infra.sql.query('select 1'), redis: config.redisUrl ? () => infra.pubsub.ping() : null },
    health: () => orm.em.getConnection().execute('select 1'),
    providers: () => Object.fromEntries(services.rails.router.all().map((c) => [c.name, c.state])),
    degraded: unservedRoutes(services),
  });
  await fastify.register(restV1, { prefix: '/v1', services, config, rateLimits });
  // The page where a cardholder enters the code a PIN card's bank sent: public (its handle is its key).
  await fastify.register(cardOtpRoutes, { services: pick(services, 'formTokens', 'payments', 'publicAddress'), rateLimits });
  // The hosted checkout's pages (/checkout/{id}, /pay/{slug}) and their assets: public, the session id or slug is the key.
  await fastify.register(checkoutPageRoutes, {
    services: pick(services, 'checkout', 'paymentLinks', 'formTokens', 'publicAddress', 'reference'),
    clock: infra.clock,
    rateLimits,
  });
  // The merchant dashboard's session (its refresh token in an HttpOnly cookie), then its files (a single-page app on the GraphQL API), from memory.
  await fastify.register(dashboardSessionRoutes, { services: pick(services, 'oauth', 'signIn', 'publicAddress'), rateLimits });
  await fastify.register(dashboardAccountRoutes, { services: pick(services, 'accounts', 'passwords', 'oauth', 'publicAddress'), rateLimits });
  await fastify.register(invitationRoutes, { services: { invitations: services.invitations, publicAddress: services.publicAddress }, rateLimits });
  await fastify.register(dashboardRoutes);

  const schema = await buildGraphQLSchema(services, config.env);
  // Production shows no introspection and no "Did you mean …" (both help a prober more than a client there).
  const sandbox = config.env === 'sandbox';
  const limits = { ...config.graphqlLimits, introspection: sandbox };
  const validationRules = graphqlValidationRules(limits);
  const parseOptions = graphqlParseOptions(limits);
  const apollo = new ApolloServer<GraphQLContext>({
    schema,
    introspection: sandbox,
    parseOptions,
    includeStacktraceInErrorResponses: false,
    formatError: (formatted, error) => formatGraphQLError(formatted, error, logger, { suggestions: sandbox }),
    validationRules,
    // No HTTP cache hints are used, so Apollo's default cache-control plugin (which
    // computes a hint on every field of every response) would be pure overhead.
    plugins: [fastifyApolloDrainPlugin(fastify), ApolloServerPluginCacheControlDisabled(), graphqlRateLimitPlugin(rateLimits), observability.graphqlPlugin],
  });
  await apollo.start();
  await fastify.register(fastifyApollo(apollo), {
    path: '/graphql',
    method: ['GET', 'POST', 'OPTIONS'],
    context: async (request) =>
      authenticatedContext({ oauth: services.oauth }, request.headers.authorization, { ip: request.ip, userAgent: request.headers['user-agent'] ?? null }),
  });

  const { oauth, revocations, subscriptions } = services;
  const ws = attachGraphQLWebSocket(fastify.server, schema, { oauth, revocations, subscriptions }, inDatabaseContext, logger, {
    maxFrameBytes: config.bodyLimitBytes,
    maxSocketsPerMerchant: config.maxSocketsPerMerchant,
    validationRules,
    parseOptions,
    suggestions: sandbox,
    rateLimits,
    observer: observability.graphqlObserver,
  });

  return {
    fastify,
    services,
    observability,
    async listen(port, host) {
      await fastify.listen({ port, host });
      const address = fastify.server.address();
      const actualPort = typeof address === 'object' && address ? address.port : port;
      const url = `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`;
      services.publicAddress.learn(url);
      return url;
    },
    async close() {
      observability.markNotReady();
      await ws.close();
      await fastify.close();
      await composition.stop();
      await rateLimits.close();
      for (const connector of services.rails.router.all()) connector.shutdown();
    },
  };
}
