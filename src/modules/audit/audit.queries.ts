import { z } from 'zod';
import { Params, type Sql } from '../../db/sql';
import { searchText, timestampField } from '../../shared/fields';
import { decodeCursor, encodeCursor, pageRequestSchema, toPage, UUID_ID, type Page } from '../../shared/pagination';
import { keysetBatches } from '../../shared/streaming';
import { parseInput, type Command } from '../../shared/validation';
import { AUDIT_ACTIONS } from './audit-log';
import type { AuditRecord } from './audit.definition';

/** A page of a merchant's audit log, newest first, by any of actor, action and time. */
export const auditLogListSchema = pageRequestSchema.extend({
  /** The actor's id (a user's or key's id, an operator's name) or label (a key's client_id, an operator's tool), exactly. */
  actor: searchText(200),
  // Text checked against the list (not an enum type): GraphQL passes a String, actions having dots.
  action: z
    .string({ error: 'must be a string' })
    .refine((action) => (AUDIT_ACTIONS as readonly string[]).includes(action), 'is not an audit action')
    .nullish(),
  /** At or after this time. */
  from: timestampField.nullish(),
  /** Before this time. */
  to: timestampField.nullish(),
});
export type AuditLogListQuery = Command<typeof auditLogListSchema>;

/** The list's filters without its paging: what an export of every matching entry takes. */
export const auditLogExportSchema = auditLogListSchema.omit({ limit: true, after: true });
export type AuditLogExportQuery = Command<typeof auditLogExportSchema>;

type Filter = Omit<z.output<typeof auditLogListSchema>, 'limit' | 'after'>;

/** How many entries an export reads at a time (keyset pages, like the list's). */
const EXPORT_BATCH = 500;

const SELECT_LIST = `id, merchant_id as "merchantId", actor_type as "actorType", actor_id as "actorId", actor_label as "actorLabel", role, action,
  target_type as "targetType", target_id as "targetId", ip, user_agent as "userAgent", before, after, created_at as "createdAt"`;

/** The conditions of a merchant's list (and its export), by the index (merchant_id, created_at desc, id desc). */
function listWhere(params: Params, merchantId: string, filter: Filter): string[] {
  const where = [`merchant_id = ${params.p(merchantId)}`];
  if (filter.actor) {
    const actor = params.p(filter.actor);
    where.push(`(actor_id = ${actor} or actor_label = ${actor})`);
  }
  if (filter.action) where.push(`action = ${params.p(filter.action)}`);
  if (filter.from) where.push(`created_at >= ${params.p(filter.from)}`);
  if (filter.to) where.push(`created_at < ${params.p(filter.to)}`);
  return where;
}

/** Reading a merchant's audit log (the writer is AuditLog): a page of it, or all of it as a file. */
export class AuditLogQueries {
  constructor(private readonly deps: { sql: Sql }) {}

  async listEntries(merchantId: string, query: AuditLogListQuery): Promise<Page<AuditRecord>> {
    const { limit, after, ...filter } = parseInput(auditLogListSchema, query, 'query');
    return toPage(await this.read(merchantId, filter, limit, after ?? undefined), limit);
  }

  /**
   * Every entry the filters match, newest first, in keyset batches read as the file is written, and
   * how many there are (what the file costs). The query is checked now: a bad one throws before anything is read.
   */
  async exportEntries(merchantId: string, query: AuditLogExportQuery): Promise<{ count: number; batches: AsyncIterable<AuditRecord[]> }> {
    const filter = parseInput(auditLogExportSchema, query, 'query');
    const params = new Params();
    const [row] = await this.deps.sql.query<{ count: string }>(
      `select count(*) as count from audit_log where ${listWhere(params, merchantId, filter).join(' and ')}`,
      params.values,
    );
    const read = async (last: AuditRecord | undefined, size: number) =>
      (await this.read(merchantId, filter, size, last && encodeCursor(last.createdAt, last.id))).slice(0, size);
    return { count: Number(row?.count ?? 0), batches: keysetBatches(read, EXPORT_BATCH) };
  }

  /** Up to `limit + 1` entries after the cursor (the extra one only says there is more). */
  private async read(merchantId: string, filter: Filter, limit: number, after: string | undefined): Promise<AuditRecord[]> {
    const params = new Params();
    const where = listWhere(params, merchantId, filter);
    if (after) {
      const cursor = decodeCursor(after, UUID_ID);
      where.push(`(created_at, id) < (${params.p(cursor.createdAt)}, ${params.p(cursor.id)}::uuid)`);
    }
    return this.deps.sql.query<AuditRecord>(
      `select ${SELECT_LIST} from audit_log where ${where.join(' and ')} order by created_at desc, id desc limit ${params.p(limit + 1)}`,
      params.values,
    );
  }
}
