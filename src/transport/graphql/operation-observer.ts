import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import { getOperationAST, type ExecutionResult, type OperationDefinitionNode } from 'graphql';
import type { ConnectionInitMessage, ServerOptions } from 'graphql-ws';

type GraphQLTransport = 'http' | 'ws';
type GraphQLOperationType = 'query' | 'mutation' | 'subscription' | 'unknown';
type GraphQLOutcome = 'ok' | 'error';

/** The operation name of an operation without one. */
export const ANONYMOUS_OPERATION = 'anonymous';
/** The operation name of a document refused before it ran (did not parse or validate, bad token, over a limit). */
export const INVALID_OPERATION = 'invalid';

/**
 * Told of every GraphQL operation once it has an outcome, and of the sockets' comings
 * and goings (the metrics implement it; nothing here knows how they are kept).
 * `name` is the operation's own name only when its document parsed and validated.
 */
export interface GraphQLOperationObserver {
  operation(transport: GraphQLTransport, type: GraphQLOperationType, name: string, outcome: GraphQLOutcome, seconds: number): void;
  socketOpened(): void;
  socketClosed(): void;
  subscriptionStarted(): void;
  subscriptionEnded(): void;
}

function describe(operation: OperationDefinitionNode | null | undefined): { type: GraphQLOperationType; name: string } {
  return operation
    ? { type: operation.operation as GraphQLOperationType, name: operation.name?.value ?? ANONYMOUS_OPERATION }
    : { type: 'unknown', name: INVALID_OPERATION };
}

/**
 * GraphQL over HTTP: one observation per request, when Apollo sends the answer.
 * `operation` is set only once the document parsed, validated and named a runnable
 * operation; the duration starts after the context (authentication) was built.
 */
export function graphqlOperationPlugin(observer: GraphQLOperationObserver): ApolloServerPlugin<BaseContext> {
  return {
    async requestDidStart() {
      const started = performance.now();
      return {
        async willSendResponse({ operation, errors }) {
          const { type, name } = describe(operation);
          observer.operation('http', type, name, errors?.length ? 'error' : 'ok', (performance.now() - started) / 1000);
        },
      };
    },
  };
}

/** Counts the sockets a WebSocket server accepts, until each closes. */
export function observeSockets(
  wss: { on(event: 'connection', listener: (socket: { once(event: 'close', listener: () => void): unknown }) => void): unknown },
  observer: GraphQLOperationObserver | undefined,
): void {
  if (!observer) return;
  wss.on('connection', (socket) => {
    observer.socketOpened();
    socket.once('close', () => observer.socketClosed());
  });
}

const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> => typeof value === 'object' && value !== null && Symbol.asyncIterator in value;

/**
 * graphql-ws: wraps the server's hooks so that each operation is observed once, from
 * its subscribe message to its result (a query or mutation) or to its stream being
 * set up (a subscription, which then counts as active until it completes). graphql-ws
 * hands the same subscribe payload object to every hook of one operation, so it keys
 * the bookkeeping (weakly: an operation abandoned midway leaves nothing behind).
 */
export function observeSocketOperations<P extends ConnectionInitMessage['payload'], E>(
  options: ServerOptions<P, E>,
  observer: GraphQLOperationObserver | undefined,
): ServerOptions<P, E> {
  if (!observer) return options;
  const { onSubscribe, onOperation, onError, onComplete } = options;
  const startedAt = new WeakMap<object, number>();
  const active = new WeakSet<object>();
  const finish = (payload: object, type: GraphQLOperationType, name: string, outcome: GraphQLOutcome) => {
    const started = startedAt.get(payload);
    if (started === undefined) return; // observed already (a stream that fails later is not a second operation)
    startedAt.delete(payload);
    observer.operation('ws', type, name, outcome, (performance.now() - started) / 1000);
  };
  return {
    ...options,
    onSubscribe: (ctx, id, payload) => {
      startedAt.set(payload, performance.now());
      return onSubscribe?.(ctx, id, payload);
    },
    onOperation: (ctx, id, payload, args, result) => {
      const { type, name } = describe(getOperationAST(args.document, args.operationName));
      const stream = isAsyncIterable(result);
      finish(payload, type, name, !stream && (result as ExecutionResult).errors?.length ? 'error' : 'ok');
      if (stream && type === 'subscription') {
        active.add(payload);
        observer.subscriptionStarted();
      }
      return onOperation?.(ctx, id, payload, args, result);
    },
    // Refused before it ran: onSubscribe returned errors (a document that did not parse or validate, a bad token, a limit).
    onError: (ctx, id, payload, errors) => {
      finish(payload, 'unknown', INVALID_OPERATION, 'error');
      return onError?.(ctx, id, payload, errors);
    },
    onComplete: (ctx, id, payload) => {
      if (active.delete(payload)) observer.subscriptionEnded();
      return onComplete?.(ctx, id, payload);
    },
  };
}
