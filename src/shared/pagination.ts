import { z } from 'zod';
import { AppError } from './errors';

const DEFAULT_PAGE_SIZE = 20;
const MAX_PAGE_SIZE = 100;

/** A page of a newest-first list; each item carries the cursor that continues after it. */
export interface Page<T> {
  items: Array<{ node: T; cursor: string }>;
  hasMore: boolean;
}

/** A page of a list: `limit` (GraphQL's `first`), from 1 to 100, and the cursor to continue `after`. Null is absent. */
export const pageRequestSchema = z.object({
  // A query string's limit is digits only: `1e2` or `0x10` is not read as a number.
  limit: z.preprocess(
    (v) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
    z
      .number({ error: 'must be a whole number' })
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(MAX_PAGE_SIZE, `must be at most ${MAX_PAGE_SIZE}`)
      .nullish()
      .transform((v) => v ?? DEFAULT_PAGE_SIZE),
  ),
  after: z.string({ error: 'must be a string' }).min(1, 'must not be empty').max(200, 'must be at most 200 characters').nullish(),
});
/** What a door passes for a page (a query string's text, or GraphQL's Int). */
export type PageQuery = z.input<typeof pageRequestSchema>;

/** Opaque keyset cursor: (created_at, id) of the last item seen. */
export function encodeCursor(createdAt: Date, id: string): string {
  return Buffer.from(JSON.stringify([createdAt.toISOString(), id])).toString('base64url');
}

/** The ids of each listed kind: uuids, and event ids (`evt_` and 16 random bytes in base64url). */
export const EVENT_ID = /^evt_[A-Za-z0-9_-]{22}$/;
export const UUID_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A cursor's time is one of ours: after 2000, before 2100 (PostgreSQL refuses some times JavaScript accepts). */
const EARLIEST = Date.UTC(2000, 0, 1);
const LATEST = Date.UTC(2100, 0, 1);

/**
 * A cursor from a previous page, checked whole before any query uses it: a crafted
 * one (the right shape, wrong values inside) is a 400, never a database error.
 * `idShape`: what the list's ids look like.
 */
export function decodeCursor(cursor: string, idShape: RegExp): { createdAt: Date; id: string } {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(decoded) || decoded.length !== 2) throw new Error('bad cursor');
    const [at, id] = decoded as [unknown, unknown];
    if (typeof at !== 'string' || typeof id !== 'string' || !idShape.test(id)) throw new Error('bad cursor');
    const createdAt = new Date(at);
    const time = createdAt.getTime();
    if (Number.isNaN(time) || time < EARLIEST || time >= LATEST) throw new Error('bad cursor');
    return { createdAt, id };
  } catch {
    throw AppError.invalidField('after', 'is not a valid cursor; use one returned by a previous page');
  }
}

/** The condition for "after this cursor" in a newest-first (created_at desc, id desc) list. */
export function afterCursor(after: string | null | undefined, idShape: RegExp): Record<string, unknown> {
  if (!after) return {};
  const cursor = decodeCursor(after, idShape);
  return { $or: [{ createdAt: { $lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { $lt: cursor.id } }] };
}

/** A page from `limit + 1` newest-first rows (the extra row only says there is more). */
export function toPage<T extends { createdAt: Date; id: string }>(rows: T[], limit: number): Page<T> {
  return {
    items: rows.slice(0, limit).map((node) => ({ node, cursor: encodeCursor(node.createdAt, node.id) })),
    hasMore: rows.length > limit,
  };
}
