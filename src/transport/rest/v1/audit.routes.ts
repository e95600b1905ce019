import type { FastifyInstance } from 'fastify';
import { AUDIT_CSV_COLUMNS, auditLogCsv } from '../../../modules/audit/audit.csv';
import { auditLogExportSchema, auditLogListSchema, type AuditLogQueries } from '../../../modules/audit/audit.queries';
import { AuditLogEntryRecord, serializeAuditEntry } from '../../../modules/audit/audit.serializer';
import type { RateLimits } from '../../rate-limits';
import { authOf } from '../auth';
import { pageMeta } from '../envelope';
import { fromRest } from '../field-names';
import { operation } from '../openapi/operation';
import { STREAM_COST, STREAM_ERRORS, sendStreamedFile } from '../streaming';

/** The services this file calls (the composition root passes them). */
type UsedServices = { auditQueries: AuditLogQueries };

const FORBIDDEN = 'your role or API key may not read the audit log: only owners and admins may (an API key never may)';

const FILTERS = {
  actor: { description: 'The actor’s id (a user’s or API key’s id) or label (an API key’s client_id, an operator’s tool such as `ledger:adjust`), exactly' },
  action: { description: 'One action, e.g. `webhook.secret_rotated`' },
  from: { description: 'At or after this time (ISO 8601 with offset)' },
  to: { description: 'Before this time (ISO 8601 with offset)' },
};

const listAuditLog = operation({
  operationId: 'listAuditLog',
  tag: 'Audit',
  access: 'bearer',
  permission: 'audit:read',
  summary: 'Your audit log, newest first',
  description:
    'Every security-relevant action on your account (sign-ins, team and key changes, webhook settings, refunds, adjustments, top-ups, KYC decisions): ' +
    'who did it, with their role, from which address and user agent, and the values before and after with secrets redacted. Append-only. ' +
    'Owners and admins only. GraphQL: auditLog(filter).',
  query: auditLogListSchema,
  fields: { ...FILTERS, after: { description: 'The `meta.next_cursor` of the previous page' } },
  ok: { message: 'Audit log retrieved', data: AuditLogEntryRecord, list: 'page' },
  errors: { FORBIDDEN },
});

const exportAuditLog = operation({
  operationId: 'exportAuditLog',
  tag: 'Audit',
  access: 'bearer',
  permission: 'audit:read',
  summary: 'Every audit log entry the filters match, as a CSV file',
  description:
    'The list’s filters, without paging: every matching entry, newest first, streamed as it is read. RFC 4180 (CRLF, quoted where needed); ' +
    "times ISO 8601 in UTC; `before` and `after` as JSON text. A text cell that would start a formula is prefixed with `'` (as in the " +
    'transaction export). Owners and admins only. Columns: ' +
    AUDIT_CSV_COLUMNS.map((c) => `\`${c}\``).join(', ') +
    '. ' +
    STREAM_COST,
  query: auditLogExportSchema,
  fields: FILTERS,
  errors: { FORBIDDEN, ...STREAM_ERRORS },
  raw: {
    responses: {
      '200': {
        description: 'The CSV file (`Content-Disposition: attachment`)',
        content: { 'text/csv': { schema: { type: 'string' }, example: `${AUDIT_CSV_COLUMNS.join(',')}\r\n` } },
      },
    },
    withErrors: true,
  },
});

type Query = { Querystring: Record<string, string | undefined> };

/** The audit log (docs/access.md): owners and admins read it; registered in the bearer-protected scope. */
export async function auditRoutes(app: FastifyInstance, { services, rateLimits }: { services: UsedServices; rateLimits: RateLimits }) {
  app.get<Query>('/audit-logs', listAuditLog.route, async (request, reply) => {
    const page = await services.auditQueries.listEntries(authOf(request).merchantId, fromRest(request.query));
    return listAuditLog.send(
      reply,
      page.items.map((i) => serializeAuditEntry(i.node)),
      { meta: pageMeta(page) },
    );
  });

  app.get<Query>('/audit-logs/export.csv', exportAuditLog.route, async (request, reply) => {
    const merchantId = authOf(request).merchantId;
    return sendStreamedFile(reply, rateLimits, merchantId, async () => {
      const { count, batches } = await services.auditQueries.exportEntries(merchantId, fromRest(request.query));
      return { rows: count, contentType: 'text/csv; charset=utf-8', filename: 'audit-log.csv', body: auditLogCsv(batches) };
    });
  });
}
