import { request } from '../../helpers/http';
import type { TestApp } from '../../helpers/test-app';
import { dbQuery } from '../../helpers/webhooks';

/** The keys createTestApp starts the service with (test-app.ts). */
export const TEST_KEYS = {
  TOKEN_SIGNING_KEY: 'test-signing-key-0123456789abcdefghijklmnopqrstuvwxyz',
  ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
};

/** One audit_log row, as the database holds it. */
export interface AuditRow {
  merchant_id: string | null;
  actor_type: string;
  actor_id: string | null;
  actor_label: string | null;
  role: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  ip: string | null;
  user_agent: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/** A merchant's entries of one action, oldest first, read straight from the table. */
export const auditRows = (app: TestApp, merchantId: string, action: string) =>
  dbQuery<AuditRow>(app.db.url, 'select * from audit_log where merchant_id = $1 and action = $2 order by created_at, id', [merchantId, action]);

/** GraphQL over HTTP with a User-Agent of the test's choosing (the helper's graphql() sends none). */
export const graphqlAs = (app: TestApp, token: string, userAgent: string, query: string, variables?: Record<string, unknown>) =>
  request(app.url, 'POST', '/graphql', { token, body: { query, variables }, headers: { 'user-agent': userAgent } });
