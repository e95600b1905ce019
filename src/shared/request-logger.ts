import { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger } from './logger';

/**
 * The request (or WebSocket operation) being served: its id and its logger,
 * found by any code it calls. The root logger's mixin adds the id to every line
 * written meanwhile (services log through the root logger), so every line of a
 * request carries its id, GraphQL errors included.
 */
interface RequestScope {
  reqId: string;
  /** Fastify's request logger (or the operation's child): it has the id bound already. */
  log: Logger;
}

const current = new AsyncLocalStorage<RequestScope>();

export function withRequestLogger<T>(reqId: string, log: Logger, fn: () => T): T {
  return current.run({ reqId, log }, fn);
}

/** pino's mixin: the current request's id, on lines of loggers that do not carry it already. */
export function requestIdMixin(_merge: object, _level: number, logger: unknown): { reqId?: string } {
  const scope = current.getStore();
  return scope && logger !== scope.log ? { reqId: scope.reqId } : {};
}

/** An incoming request id worth keeping: short, and only characters safe in a log line and a header. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function acceptedRequestId(header: unknown): string | undefined {
  return typeof header === 'string' && REQUEST_ID.test(header) ? header : undefined;
}
