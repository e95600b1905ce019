import { randomBytes } from 'node:crypto';
import type { Role } from '../../src/modules/access/permissions';
import { hashPassword } from '../../src/modules/accounts/passwords';
import type { MerchantCredentials } from '../../src/modules/merchants/merchant.service';
import { timeOrderedUuid } from '../../src/shared/crypto';
import { request, type HttpResult } from './http';
import type { TestApp } from './test-app';

/** The header every dashboard-internal call carries (the CSRF rule, dashboard-scope.ts). */
export const DASHBOARD_HEADERS = { 'x-requested-with': 'fetch' };

export interface DashboardUser {
  email: string;
  password: string;
  userId: string;
  merchantId: string;
}

/**
 * A person who can sign in to the dashboard: a member (by default the owner) of `merchant` (by default a
 * new merchant), email verified, no 2FA. Written straight into the tables, as an invitation's acceptance
 * would leave them. Returns the email and password to sign in with (signInDashboard, or a browser's form).
 */
export async function signInDashboardUser(
  app: TestApp,
  merchant?: MerchantCredentials | string,
  opts: { role?: Role; email?: string; password?: string; verified?: boolean } = {},
): Promise<DashboardUser> {
  const merchantId = typeof merchant === 'string' ? merchant : (merchant ?? (await app.createMerchant())).merchant.id;
  const email = opts.email ?? `person-${randomBytes(5).toString('hex')}@example.com`;
  const password = opts.password ?? `pw-${randomBytes(12).toString('base64url')}`;
  const em = app.service.orm.em.fork();
  const now = app.clock.now();
  const [existing] = await em.execute<Array<{ id: string }>>('select id from app_user where lower(email) = lower(?)', [email]);
  const userId = existing?.id ?? timeOrderedUuid();
  if (!existing) {
    await em.execute(
      `insert into app_user (id, email, name, password_hash, email_verified_at, password_changed_at, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?)`,
      [userId, email, email.split('@')[0], await hashPassword(password), opts.verified === false ? null : now, now, now, now],
    );
  }
  await em.execute('insert into membership (id, user_id, merchant_id, role, created_at, updated_at) values (?, ?, ?, ?, ?, ?)', [
    timeOrderedUuid(),
    userId,
    merchantId,
    opts.role ?? 'owner',
    now,
    now,
  ]);
  return { email, password, userId, merchantId };
}

/** The session cookie's value from an answer (either name). */
export function sessionCookieOf(res: HttpResult): string | undefined {
  const [line] = res.headers.getSetCookie();
  return /^(?:__Host-)?dashboard_session=([^;]*)/.exec(line ?? '')?.[1] || undefined;
}

/** POST /dashboard/session as the page does: the answer, its access token and its cookie. */
export async function signInDashboard(
  app: Pick<TestApp, 'url'>,
  body: { email: string; password: string; totp_code?: string; merchant_id?: string },
  headers: Record<string, string> = DASHBOARD_HEADERS,
) {
  const res = await request(app.url, 'POST', '/dashboard/session', { headers, body });
  return { res, accessToken: res.body?.data?.access_token as string | undefined, cookie: sessionCookieOf(res) };
}
