import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { useServer } from 'graphql-ws/use/ws';
import type { SubscribePayload } from 'graphql-ws';
import {
  GraphQLError,
  createSourceEventStream,
  execute,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLSchema,
  type ParseOptions,
  type ValidationRule,
} from 'graphql';
import { WebSocketServer } from 'ws';
import type { OAuthService } from '../../modules/auth/oauth.service';
import type { TokenRevocations } from '../../modules/auth/token-revocations';
import type { SubscriptionService } from '../../modules/subscriptions/subscription.service';
import type { AuthContext } from '../../modules/auth/access-tokens';
import type { RequestOrigin } from '../../modules/audit/audit-log';
import { AppError } from '../../shared/errors';
import { mapAsyncIterator } from '../../shared/async-iterator';
import type { Logger } from '../../shared/logger';
import { authenticatedContext, type GraphQLContext } from './context';
import { formatGraphQLError, toGraphQLError } from './errors';
import { withRequestLogger } from '../../shared/request-logger';
import { assertCleanInput } from '../input-hygiene';
import { mayHaveInexactNumber, parseExactNumbers } from '../exact-json';
import { authorizationParam } from '../credentials';
import { RateLimitedError, type RateLimits } from '../rate-limits';
import { chargeOperation, rateLimitedGraphQLError } from './rate-limit';
import { assertDocumentNesting } from './limits';
import type { GraphQLOperationObserver } from '../../observability/graphql-operations';
import { observeSocketOperations, observeSockets } from './operation-observer';
import { PRE_INIT_MAX_FRAME_BYTES, setFrameLimit } from './ws-frame-limits';

/** The services this file calls (the composition root passes them). */
type UsedServices = { oauth: OAuthService; revocations: TokenRevocations; subscriptions: SubscriptionService };

interface ConnectionState {
  auth?: AuthContext;
  /** The socket's opening request: its address and user agent (the audit log's origin of its operations). */
  origin?: RequestOrigin;
  /** Subscribe payloads read exactly (their numbers), by operation id, until onSubscribe takes them. */
  exactPayloads?: Map<string, SubscribePayload>;
}

/** What the session bookkeeping needs of a socket. */
interface WebSocketLike {
  close(code: number, reason: string): void;
}

/**
 * Runs fn in its own database context (an EntityManager fork), as each HTTP request runs.
 * app.ts provides it, so that this door never touches the ORM itself.
 */
/**
 * Subscription events fan out to every subscriber of a merchant with the same record (SubscriptionService hands
 * each stream the one record per event): an operation's result is computed once per event and share key (the
 * operations that would compute the same result), and every such subscriber sends it. Kept only as long as the
 * event's record is reachable (a WeakMap on it). The first subscriber's context executes it: its log carries any
 * error of the shared execution.
 */
const sharedResults = new WeakMap<object, Map<string, Promise<ExecutionResult>>>();

function executeOncePerEvent(event: unknown, shareKey: string | undefined, run: () => Promise<ExecutionResult>): Promise<ExecutionResult> {
  if (shareKey === undefined || event === null || typeof event !== 'object') return run();
  const byKey = sharedResults.get(event) ?? sharedResults.set(event, new Map()).get(event)!;
  let result = byKey.get(shareKey);
  if (!result) {
    result = run();
    byKey.set(shareKey, result);
  }
  return result;
}

export type InDatabaseContext = <T>(fn: () => T) => T;

/**
 * Runs one operation (or one subscription event) on its own EntityManager fork, like
 * an HTTP request, with the operation's logger (its request id) for what it logs.
 */
function withRequestContext<T>(inDatabaseContext: InDatabaseContext, args: ExecutionArgs, fn: () => T): T {
  const { log, reqId } = (args.contextValue as GraphQLContext | undefined) ?? {};
  return log && reqId ? withRequestLogger(reqId, log, () => inDatabaseContext(fn)) : inDatabaseContext(fn);
}

/**
 * graphql-ws (protocol graphql-transport-ws) on the same /graphql path. The token
 * travels in connection_init's payload ({"Authorization": "Bearer …"}); a missing
 * or bad one closes the socket with 4403. Each operation re-checks that the token
 * has not expired or been revoked since. A message is at most maxFrameBytes (the HTTP
 * body limit), and at most PRE_INIT_MAX_FRAME_BYTES until connection_init is accepted:
 * ws refuses a larger one on its frame header, closing with 1009, before buffering it.
 */
export function attachGraphQLWebSocket(
  server: Server,
  schema: GraphQLSchema,
  services: UsedServices,
  inDatabaseContext: InDatabaseContext,
  logger: Logger,
  {
    maxFrameBytes,
    maxSocketsPerMerchant,
    validationRules,
    parseOptions,
    suggestions,
    rateLimits,
    observer,
  }: {
    /** The largest message once the socket is acknowledged (the HTTP body limit). */
    maxFrameBytes: number;
    maxSocketsPerMerchant: number;
    validationRules: ValidationRule[];
    parseOptions: ParseOptions;
    suggestions: boolean;
    rateLimits: RateLimits;
    observer?: GraphQLOperationObserver;
  },
) {
  // ws's default maxPayload is 100 MiB. No permessage-deflate (ws's default, said
  // here): a frame is never inflated, so its length on the wire is its size.
  const wss = new WebSocketServer({ server, path: '/graphql', maxPayload: maxFrameBytes, perMessageDeflate: false });
  const preInitMaxFrameBytes = Math.min(PRE_INIT_MAX_FRAME_BYTES, maxFrameBytes);
  let frameLimitWarned = false;
  // Before any frame is read (ws starts reading after 'connection'): until its connection_init is accepted, a socket sends a token, no more.
  wss.on('connection', (socket) => {
    if (!setFrameLimit(socket, preInitMaxFrameBytes) && !frameLimitWarned) {
      frameLimitWarned = true;
      logger.warn({ maxFrameBytes }, 'ws no longer exposes a per-socket frame limit: unacknowledged sockets are held to maxFrameBytes only');
    }
  });
  // The metrics: open sockets, and each operation's duration and outcome (operation-observer.ts).
  observeSockets(wss, observer);
  const states = new WeakMap<object, ConnectionState>();
  // Open sockets per merchant on this instance; one merchant cannot exhaust the server.
  const openSockets = new Map<string, number>();
  // Sockets by token family: a revocation ends them at once, on this instance and (by pub/sub) on the others.
  const socketsByFamily = new Map<string, Set<WebSocketLike>>();
  const stopListening = services.revocations.onRevoked((familyId) => {
    for (const socket of socketsByFamily.get(familyId) ?? []) socket.close(4403, 'Forbidden: the access token was revoked');
  });
  const stateOf = (socket: object) => states.get(socket) ?? states.set(socket, {}).get(socket)!;
  // graphql-ws reads each message with JSON.parse, which reads 1500.000000000000000000000000000001 as 1500.
  // A subscribe message that may hold such a number is read again, exactly, before graphql-ws sees it (this
  // listener is registered first), and onSubscribe takes that reading's payload (exact-json.ts).
  wss.on('connection', (socket) => {
    socket.on('message', (data: Buffer) => {
      const text = String(data);
      if (!mayHaveInexactNumber(text)) return;
      try {
        const message = parseExactNumbers(text) as { id?: unknown; type?: unknown; payload?: unknown };
        if (message.type === 'subscribe' && typeof message.id === 'string') {
          (stateOf(socket).exactPayloads ??= new Map()).set(message.id, message.payload as SubscribePayload);
        }
      } catch {
        // Not JSON: graphql-ws refuses it.
      }
    });
  });

  const dispose = useServer<Record<string, unknown> | undefined>(
    observeSocketOperations(
      {
        schema,
        onConnect: async (ctx) => {
          const params = ctx.connectionParams ?? {};
          try {
            const { auth } = await authenticatedContext(services, authorizationParam(params));
            const open = openSockets.get(auth.merchantId) ?? 0;
            if (open >= maxSocketsPerMerchant) {
              ctx.extra.socket.close(4429, `Too many open sockets for this merchant (at most ${maxSocketsPerMerchant})`);
              return false;
            }
            openSockets.set(auth.merchantId, open + 1);
            ctx.extra.socket.once('close', () => {
              const left = (openSockets.get(auth.merchantId) ?? 1) - 1;
              if (left > 0) openSockets.set(auth.merchantId, left);
              else openSockets.delete(auth.merchantId);
            });
            stateOf(ctx.extra.socket).auth = auth;
            stateOf(ctx.extra.socket).origin = {
              ip: ctx.extra.request.socket.remoteAddress ?? null,
              userAgent: ctx.extra.request.headers['user-agent'] ?? null,
            };
            // The session ends with its token: at expiry, or at revocation (4403, as for a bad token at the start).
            const socket = ctx.extra.socket;
            const family = socketsByFamily.get(auth.familyId) ?? socketsByFamily.set(auth.familyId, new Set()).get(auth.familyId)!;
            family.add(socket);
            const expiry = setTimeout(
              () => socket.close(4403, 'Forbidden: the access token has expired'),
              Math.min(Math.max(0, services.oauth.msUntilExpiry(auth)), 2 ** 31 - 1),
            );
            expiry.unref();
            socket.once('close', () => {
              clearTimeout(expiry);
              family.delete(socket);
              if (family.size === 0) socketsByFamily.delete(auth.familyId);
            });
            setFrameLimit(socket, maxFrameBytes);
            return true;
          } catch {
            return false; // graphql-ws closes with 4403 Forbidden
          }
        },
        // Parsing and validating here (rather than leaving it to graphql-ws) turns a
        // syntax error into an error for that one operation instead of closing the socket.
        onSubscribe: async (ctx, _id, received) => {
          const { auth, origin, exactPayloads } = stateOf(ctx.extra.socket);
          const payload = exactPayloads?.get(_id) ?? received;
          exactPayloads?.delete(_id);
          if (!auth || !services.oauth.isStillValid(auth)) {
            return [toGraphQLError(AppError.invalidToken('The access token has expired or been revoked; reconnect with a new one'))];
          }
          // The same budget as over HTTP: an operation costs its cost; one that does not parse or validate, a point.
          const charge = async (document?: DocumentNode): Promise<readonly GraphQLError[] | undefined> => {
            try {
              await chargeOperation(rateLimits, auth.merchantId, document, payload.operationName);
              return undefined;
            } catch (err) {
              if (err instanceof RateLimitedError) return [rateLimitedGraphQLError(err)];
              throw err;
            }
          };
          let document: DocumentNode;
          try {
            // The same input hygiene as over HTTP.
            assertCleanInput(payload.variables ?? null, 'variables');
          } catch (err) {
            return (await charge()) ?? [toGraphQLError(err as AppError)];
          }
          try {
            assertDocumentNesting(payload.query);
            document = parse(payload.query, parseOptions);
          } catch (err) {
            if (err instanceof AppError) return (await charge()) ?? [toGraphQLError(err)];
            return (await charge()) ?? [err instanceof GraphQLError ? err : toGraphQLError(AppError.invalidRequest('The query could not be parsed'))];
          }
          // The same rules and limits as over HTTP.
          const errors = validate(schema, document, [...specifiedRules, ...validationRules]);
          if (errors.length > 0) return (await charge()) ?? errors;
          const limited = await charge(document);
          if (limited) return limited;
          // Each operation gets a request id, as an HTTP request does, on every line it logs.
          const reqId = randomUUID();
          const log = logger.child({ reqId, operationId: String(_id).slice(0, 64) });
          // Operations that would give every event the same result share one execution per event: the same merchant, the
          // same caller's rights (role, kind, enrolment: what the fields' checks read), the same text and variables.
          const shareKey = JSON.stringify([
            auth.merchantId,
            auth.kind,
            auth.role,
            auth.enrolmentOnly ?? false,
            payload.query,
            payload.operationName ?? null,
            payload.variables ?? null,
          ]);
          const contextValue: GraphQLContext = { auth, origin, subscriptions: services.subscriptions, log, reqId, shareKey };
          return { schema, document, variableValues: payload.variables, operationName: payload.operationName, contextValue };
        },
        execute: (args: ExecutionArgs) => withRequestContext(inDatabaseContext, args, () => execute(args)),
        // graphql's own subscribe() would run every event's resolvers in the context of
        // whatever delivered the event; each event gets its own context instead.
        subscribe: async (args: ExecutionArgs) => {
          const stream = await withRequestContext(inDatabaseContext, args, () => createSourceEventStream(args));
          if (!(Symbol.asyncIterator in stream)) return stream;
          const { auth } = args.contextValue as GraphQLContext;
          return mapAsyncIterator(stream[Symbol.asyncIterator](), (payload) => {
            // No event after the token has expired or been revoked (the socket is being closed too).
            if (!services.oauth.isStillValid(auth))
              throw toGraphQLError(AppError.invalidToken('The access token has expired or been revoked; reconnect with a new one'));
            return executeOncePerEvent(payload, (args.contextValue as GraphQLContext).shareKey, () =>
              withRequestContext(inDatabaseContext, args, async () => execute({ ...args, rootValue: payload })),
            );
          });
        },
        onNext: (_ctx, _id, _payload, args, result) =>
          result.errors
            ? {
                ...result,
                errors: result.errors.map((e) =>
                  formatGraphQLError(e.toJSON(), e, (args.contextValue as GraphQLContext | undefined)?.log ?? logger, { suggestions }),
                ),
              }
            : undefined,
        onError: (_ctx, _id, _payload, errors) =>
          errors.map((e) => formatGraphQLError(e instanceof GraphQLError ? e.toJSON() : { message: String(e) }, e, logger, { suggestions })),
      },
      observer,
    ),
    wss,
  );
  // graphql-ws takes any socket 'error' for a fault of ours (console.error with a stack,
  // then 1011). ws emits one for a client's protocol violation too (a frame over the
  // limit), after it has already closed the socket with the right code (1009): that is
  // the client's error, logged as such, and cheap to cause, so not printed as a fault.
  wss.on('connection', (socket) => {
    socket.removeAllListeners('error');
    socket.on('error', (err: Error & { code?: string }) => {
      if (socket.readyState !== socket.OPEN) {
        logger.info({ code: err.code }, 'WebSocket closed: the client broke the protocol');
        return;
      }
      logger.error({ err }, 'WebSocket error');
      socket.close(1011, 'Internal server error');
    });
  });

  return {
    async close() {
      stopListening();
      await dispose.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
