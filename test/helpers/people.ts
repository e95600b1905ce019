import { randomUUID } from 'node:crypto';
import type { Role } from '../../src/modules/access/permissions';
import { hashPassword } from '../../src/modules/accounts/passwords';
import { randomToken, sha256Hex } from '../../src/shared/crypto';
import { request } from './http';
import type { TestApp } from './test-app';
import { dbQuery } from './webhooks';

/** A person of a merchant, made straight in the database, with a dashboard session's access token. */
export interface TestPerson {
  userId: string;
  email: string;
  password: string;
  role: Role;
  token: string;
}

/**
 * A member of `merchantId` in `role` and a session of theirs, without the sign-in routes: the user and
 * membership rows, a token family of theirs and its first refresh token, and the access token the
 * service mints for a person (OAuthService.grant). Passwords are hashed only when asked (argon2 is slow).
 */
export async function personOf(app: TestApp, merchantId: string, role: Role, opts: { withPassword?: boolean; email?: string } = {}): Promise<TestPerson> {
  const userId = randomUUID();
  const email = opts.email ?? `${role}-${userId.slice(0, 8)}@people.test`;
  const password = `pw-${randomUUID()}`;
  const hash = opts.withPassword ? await hashPassword(password) : 'unused';
  const now = app.clock.now();
  await dbQuery(
    app.db.url,
    `with u as (insert into app_user (id, email, name, password_hash, email_verified_at, password_changed_at, created_at, updated_at)
                values ($1, $2, $3, $4, $5, $5, $5, $5) returning id)
     insert into membership (id, user_id, merchant_id, role, created_at, updated_at) select $6, id, $7, $8, $5, $5 from u`,
    [userId, email, `Test ${role}`, hash, now, randomUUID(), merchantId, role],
  );
  const token = await sessionToken(app, merchantId, userId, role);
  return { userId, email, password, role, token };
}

/** A new session (token family) of a person at a merchant, and its access token. */
export async function sessionToken(app: TestApp, merchantId: string, userId: string, role: Role): Promise<string> {
  const familyId = randomUUID();
  const refreshToken = randomToken('rt');
  const now = app.clock.now();
  await dbQuery(
    app.db.url,
    `with f as (insert into token_family (id, merchant_id, user_id, created_at) values ($1, $2, $3, $4) returning id)
     insert into refresh_token (id, family_id, merchant_id, token_hash, created_at, expires_at) select $5, id, $2, $6, $4, $7 from f`,
    [familyId, merchantId, userId, now, randomUUID(), sha256Hex(refreshToken), new Date(now.getTime() + 86_400_000)],
  );
  const [merchant] = await dbQuery<{ client_id: string }>(app.db.url, 'select client_id from merchant where id = $1', [merchantId]);
  const grant = await app.service.app.services.oauth.grant(merchantId, merchant!.client_id, familyId, refreshToken, { role, kind: 'user', actorId: userId });
  return grant.accessToken;
}

/** An API key of `role` made by an owner through POST /v1/api-keys, and a token of it. */
export async function apiKeyToken(
  app: TestApp,
  ownerToken: string,
  role: string,
): Promise<{ id: string; clientId: string; clientSecret: string; token: string }> {
  const made = await request(app.url, 'POST', '/v1/api-keys', { token: ownerToken, body: { label: `${role} key`, role } });
  if (made.status !== 201) throw new Error(`api key: ${made.status} ${made.text}`);
  const { id, client_id: clientId, client_secret: clientSecret } = made.body.data;
  const grant = await request(app.url, 'POST', '/v1/oauth/token', {
    body: { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret },
  });
  if (grant.status !== 200) throw new Error(`token: ${grant.status} ${grant.text}`);
  return { id, clientId, clientSecret, token: grant.body.data.access_token };
}
