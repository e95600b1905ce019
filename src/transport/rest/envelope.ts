import type { FastifyReply } from 'fastify';
import type { AppError } from '../../shared/errors';

/** The spec's success envelope. List endpoints pass `meta` (paging) beside `data`. */
export function sendSuccess(reply: FastifyReply, message: string, data: unknown, status = 200, meta?: unknown) {
  return reply.code(status).send(meta === undefined ? { status: 'success', message, data } : { status: 'success', message, data, meta });
}

export function errorBody(err: AppError) {
  return {
    status: 'error' as const,
    code: err.code,
    message: err.message,
    ...(err.details ? { details: err.details } : {}),
  };
}
