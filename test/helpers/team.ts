import { randomBytes } from 'node:crypto';
import type { Role } from '../../src/modules/access/permissions';
import { hashPassword } from '../../src/modules/accounts/passwords';
import { newTotpSecret } from '../../src/modules/accounts/totp';
import type { MailMessage } from '../../src/modules/mail/mailer';
import { SecretBox, randomToken, sha256Hex, timeOrderedUuid } from '../../src/shared/crypto';
import { TEST_SERVICE_KEYS } from './database';
import type { TestApp } from './test-app';

/** A person of a merchant's team, made directly in the database (as sign-up or an accepted invitation would). */
export interface TestPerson {
  userId: string;
  membershipId: string;
  merchantId: string;
  email: string;
  password: string;
  role: Role;
}

/** Runs one `?`-placeholder statement on the app's database. */
export async function dbExecute<T = Record<string, unknown>>(app: TestApp, text: string, values: unknown[] = []): Promise<T[]> {
  return app.service.orm.em.fork().execute(text, values as never[]);
}

/**
 * A person with a membership at the merchant (a new app_user unless `userId` names an existing one).
 * The password is hashed as the service hashes it, so the service's checks accept it.
 */
export async function addPerson(
  app: TestApp,
  merchantId: string,
  role: Role,
  opts: { email?: string; password?: string; name?: string; userId?: string } = {},
): Promise<TestPerson> {
  const now = app.clock.now();
  const password = opts.password ?? `pw-${randomBytes(8).toString('hex')}`;
  let userId = opts.userId;
  let email = opts.email ?? `${role}-${randomBytes(4).toString('hex')}@example.com`;
  if (userId) {
    [{ email }] = await dbExecute<{ email: string }>(app, 'select email from app_user where id = ?', [userId]);
  } else {
    userId = timeOrderedUuid();
    await dbExecute(
      app,
      `insert into app_user (id, email, name, password_hash, email_verified_at, password_changed_at, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?)`,
      [userId, email, opts.name ?? role, await hashPassword(password), now, now, now, now],
    );
  }
  const membershipId = timeOrderedUuid();
  await dbExecute(app, 'insert into membership (id, user_id, merchant_id, role, created_at, updated_at) values (?, ?, ?, ?, ?, ?)', [
    membershipId,
    userId,
    merchantId,
    role,
    now,
    now,
  ]);
  return { userId, membershipId, merchantId, email, password, role };
}

/**
 * 2FA on for the person, as a confirmed enrolment leaves it: a new TOTP secret sealed with the test
 * service's ENCRYPTION_KEY, enabled now. Answers the secret (totpCodeAt computes its codes).
 */
export async function enableTwoFactor(app: TestApp, userId: string): Promise<string> {
  const secret = newTotpSecret();
  const sealed = new SecretBox(Buffer.from(TEST_SERVICE_KEYS.ENCRYPTION_KEY, 'base64')).seal(secret);
  await dbExecute(app, 'update app_user set totp_secret_sealed = ?, totp_enabled_at = ? where id = ?', [sealed, app.clock.now(), userId]);
  return secret;
}

/**
 * A dashboard session of the person, as sign-in makes one: a token family with their user id and its
 * first refresh token, then OAuthService.grant with their role as it is now.
 */
export async function personSession(app: TestApp, person: TestPerson, opts: { enrolmentOnly?: boolean } = {}) {
  const now = app.clock.now();
  const familyId = timeOrderedUuid();
  const refreshToken = randomToken('rt');
  const [{ client_id: clientId }] = await dbExecute<{ client_id: string }>(app, 'select client_id from merchant where id = ?', [person.merchantId]);
  const [{ role }] = await dbExecute<{ role: Role }>(app, 'select role from membership where user_id = ? and merchant_id = ?', [
    person.userId,
    person.merchantId,
  ]);
  await dbExecute(app, 'insert into token_family (id, merchant_id, user_id, created_at, last_seen_at) values (?, ?, ?, ?, ?)', [
    familyId,
    person.merchantId,
    person.userId,
    now,
    now,
  ]);
  await dbExecute(app, 'insert into refresh_token (id, family_id, merchant_id, token_hash, created_at, expires_at) values (?, ?, ?, ?, ?, ?)', [
    timeOrderedUuid(),
    familyId,
    person.merchantId,
    sha256Hex(refreshToken),
    now,
    new Date(now.getTime() + 30 * 24 * 3600 * 1000),
  ]);
  const grant = await app.service.app.services.oauth.grant(person.merchantId, clientId, familyId, refreshToken, {
    role,
    kind: 'user',
    actorId: person.userId,
    ...(opts.enrolmentOnly ? { enrolmentOnly: true } : {}),
  });
  return { accessToken: grant.accessToken, refreshToken, familyId };
}

/** Every message the app's mailer is asked to send from now on (the mailer object the services hold, its send replaced). */
export function captureMail(app: TestApp): MailMessage[] {
  const sent: MailMessage[] = [];
  app.service.app.services.mailer.send = async (message) => {
    sent.push(message);
  };
  return sent;
}

/** The token of an invitation email's accept link. */
export function invitationTokenOf(message: MailMessage): string {
  const match = /accept-invitation\?token=([A-Za-z0-9%_.-]+)/.exec(message.text);
  if (!match) throw new Error(`no invitation link in: ${message.text}`);
  return decodeURIComponent(match[1]!);
}
