import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import { Readiness } from '../observability/health';
import type { Metrics } from '../observability/metrics';
import { safeEqual } from '../shared/crypto';
import { AppError } from '../shared/errors';
import type { GraphQLOperationObserver } from '../observability/graphql-operations';
import { graphqlOperationPlugin } from './graphql/operation-observer';
import type { Logger } from '../shared/logger';
import { sendSuccess } from './rest/envelope';

export interface Observability {
  /** Apollo plugin: observes each GraphQL operation over HTTP. */
  graphqlPlugin: ApolloServerPlugin<BaseContext>;
  /** For the socket door (attachGraphQLWebSocket): its operations, sockets and subscriptions. */
  graphqlObserver: GraphQLOperationObserver;
  /** /health/ready answers 503 from now on. Call it first in a graceful shutdown, so load balancers stop sending. */
  markNotReady(): void;
}

/** Probes and scrapes are frequent and uneventful: the access log keeps only their warnings and errors. */
const QUIET = { logLevel: 'warn' as const };

/**
 * Metrics and health (the metrics themselves are kept in src/observability). Every request's duration is observed once, when its response has
 * been sent, under its route's pattern (never the URL: a label's values must stay few).
 *
 * - GET /metrics: Prometheus text format. With METRICS_TOKEN set it requires
 *   `Authorization: Bearer <METRICS_TOKEN>`; without it, it is open in the sandbox and
 *   absent (404) in production, which must opt in with a token.
 * - GET /health: the database answers through the ORM (the original liveness check).
 * - GET /health/live: the process answers (no I/O).
 * - GET /health/ready: the database answers `select 1` on the direct pool, Redis answers
 *   PING (when REDIS_URL is set), and the instance is not shutting down; else 503 naming
 *   what failed. `providers` shows each connector's circuit breaker (closed, half_open, open).
 *   Ready but `degraded` (still 200: it serves what it can) when some routes have no connector,
 *   with the reasons (card payments, or the channels nobody serves).
 */
/** What the probes and the scrape read. */
export interface ObservabilityOptions {
  config: Pick<Config, 'env' | 'metricsToken'>;
  logger: Logger;
  metrics: Metrics;
  /** Pings, for /health/ready: the direct pool's `select 1`, and Redis's PING when REDIS_URL is set. */
  checks: { database: () => Promise<unknown>; redis: (() => Promise<unknown>) | null };
  /** GET /health's check: the ORM's connection answers `select 1`. */
  health: () => Promise<unknown>;
  /** Each connector's circuit breaker, shown in /health/ready's detail (an open one does not make the instance unready). */
  providers: () => Record<string, string>;
  /** What the instance cannot take (routes no connector serves): ready, but `degraded`, saying why. */
  degraded: () => string[];
}

export function registerObservability(
  fastify: FastifyInstance,
  { config, logger, metrics, checks, health, providers, degraded }: ObservabilityOptions,
): Observability {
  fastify.addHook('onResponse', (request, reply, done) => {
    metrics.observeHttp(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime);
    done();
  });

  const token = config.metricsToken;
  if (token || config.env === 'sandbox') {
    fastify.get('/metrics', QUIET, async (request, reply) => {
      if (token) {
        const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
        if (!match || !safeEqual(match[1]!, token)) throw AppError.invalidToken('A valid metrics token is required');
      }
      const body = await metrics.registry.metrics();
      return reply.header('cache-control', 'no-store').type(metrics.registry.contentType).send(body);
    });
  }

  const readiness = new Readiness({ checks, logger });
  fastify.get('/health', async (_request, reply) => {
    await health();
    return sendSuccess(reply, 'OK', { status: 'ok', env: config.env });
  });
  fastify.get('/health/live', QUIET, async (_request, reply) => sendSuccess(reply, 'Live', { status: 'ok' }));
  fastify.get('/health/ready', QUIET, async (_request, reply) => {
    const report = await readiness.report();
    reply.header('cache-control', 'no-store');
    if (report.ready) {
      const reasons = degraded();
      if (reasons.length === 0) return sendSuccess(reply, 'Ready', { status: 'ready', checks: report.checks, providers: providers() });
      return sendSuccess(reply, `Ready, degraded: ${reasons.join('; ')}`, {
        status: 'degraded',
        degraded: reasons,
        checks: report.checks,
        providers: providers(),
      });
    }
    const message = report.draining ? 'Not ready: the service is shutting down' : `Not ready: ${report.failed.join(', ')} not answering`;
    return reply.code(503).send({
      status: 'error',
      code: 'SERVICE_UNAVAILABLE',
      message,
      data: { status: report.draining ? 'draining' : 'not_ready', checks: report.checks, providers: providers() },
    });
  });

  return {
    graphqlPlugin: graphqlOperationPlugin(metrics.graphql),
    graphqlObserver: metrics.graphql,
    markNotReady: () => readiness.markNotReady(),
  };
}
