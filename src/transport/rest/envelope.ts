import type { FastifyReply } from 'fastify';
import type { AppError } from '../../shared/errors';
import { restView } from './field-names';

/** The spec's success envelope. List endpoints pass `meta` (paging) beside `data`. */
export function sendSuccess(reply: FastifyReply, message: string, data: unknown, status = 200, meta?: unknown) {
  return reply.code(status).send(meta === undefined ? { status: 'success', message, data } : { status: 'success', message, data, meta });
}

/** The spec's error envelope, fields named as REST clients know them. */
export function errorBody(err: AppError) {
  const { message, details } = restView(err);
  return { status: 'error' as const, code: err.code, message, ...(details ? { details } : {}) };
}

/** Paging info beside a list: pass `next_cursor` as `after` for the next page. */
export function pageMeta(page: { items: Array<{ cursor: string }>; hasMore: boolean }) {
  const last = page.items.at(-1);
  return { count: page.items.length, has_more: page.hasMore, next_cursor: page.hasMore && last ? last.cursor : null };
}
