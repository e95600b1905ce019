import { z } from 'zod';
import { AppError } from './errors';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** A page of a newest-first list; each item carries the cursor that continues after it. */
export interface Page<T> {
  items: Array<{ node: T; cursor: string }>;
  hasMore: boolean;
}

export const pageRequestSchema = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  after: z.string().min(1).max(200).optional(),
});
export type PageRequest = z.output<typeof pageRequestSchema>;

/** Opaque keyset cursor: (created_at, id) of the last item seen. */
export function encodeCursor(createdAt: Date, id: string): string {
  return Buffer.from(JSON.stringify([createdAt.toISOString(), id])).toString('base64url');
}

export function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [string, string];
    const createdAt = new Date(at);
    if (typeof id !== 'string' || Number.isNaN(createdAt.getTime())) throw new Error('bad cursor');
    return { createdAt, id };
  } catch {
    throw AppError.invalidRequest('The cursor is not valid; use one returned by a previous page', [
      { field: 'after', issue: 'is not a valid cursor' },
    ]);
  }
}

/** The condition for "after this cursor" in a newest-first (created_at desc, id desc) list. */
export function afterCursor(after: string | undefined): Record<string, unknown> {
  if (!after) return {};
  const cursor = decodeCursor(after);
  return { $or: [{ createdAt: { $lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { $lt: cursor.id } }] };
}

/** A page from `limit + 1` newest-first rows (the extra row only says there is more). */
export function toPage<T extends { createdAt: Date; id: string }>(rows: T[], limit: number): Page<T> {
  return {
    items: rows.slice(0, limit).map((node) => ({ node, cursor: encodeCursor(node.createdAt, node.id) })),
    hasMore: rows.length > limit,
  };
}
