import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { loadConfig } from '../../../src/config';
import { AccessTokens } from '../../../src/modules/auth/access-tokens';
import type { Role } from '../../../src/modules/access/permissions';
import { resolveKeys } from '../../../src/shared/keys';
import { request } from '../../helpers/http';
import type { TestApp } from '../../helpers/test-app';
import { dbQuery } from '../../helpers/webhooks';

/** The keys createTestApp starts the service with (test-app.ts). */
export const TEST_KEYS = {
  TOKEN_SIGNING_KEY: 'test-signing-key-0123456789abcdefghijklmnopqrstuvwxyz',
  ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
};

/**
 * A person's session at a merchant, before the dashboard's sign-in exists: an app_user, their
 * membership with `role`, a token family of theirs, and an access token for it signed with the
 * service's key (as OAuthService.grant would issue it).
 */
export async function personToken(app: TestApp, merchantId: string, clientId: string, role: Role = 'owner'): Promise<{ token: string; userId: string }> {
  const userId = randomUUID();
  const familyId = randomUUID();
  await dbQuery(
    app.db.url,
    `insert into app_user (id, email, name, password_hash, email_verified_at, password_changed_at, created_at, updated_at)
     values ($1, $2, 'Ada Owner', 'not-a-hash', now(), now(), now(), now())`,
    [userId, `${userId}@example.com`],
  );
  await dbQuery(app.db.url, `insert into membership (id, user_id, merchant_id, role, created_at, updated_at) values ($1, $2, $3, $4, now(), now())`, [
    randomUUID(),
    userId,
    merchantId,
    role,
  ]);
  await dbQuery(app.db.url, `insert into token_family (id, merchant_id, user_id, created_at) values ($1, $2, $3, now())`, [familyId, merchantId, userId]);
  const keys = resolveKeys(loadConfig(TEST_KEYS), pino({ level: 'silent' }));
  const token = await new AccessTokens({ signingKey: keys.tokenSigningKey, clock: app.clock }).issue(merchantId, clientId, familyId, {
    role,
    kind: 'user',
    actorId: userId,
  });
  return { token, userId };
}

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
