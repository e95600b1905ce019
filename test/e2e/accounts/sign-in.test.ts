import { newRecoveryCodes, recoveryCodeHash } from '../../../src/modules/accounts/recovery-codes';
import { totpCodeAt } from '../../../src/modules/accounts/totp';
import { DASHBOARD_HEADERS, sessionCookieOf, signInDashboard, signInDashboardUser } from '../../helpers/accounts';
import { enableTwoFactor } from '../../helpers/team';
import { linkIn, startSmtpServer, type ReceivedMail, type TestSmtpServer } from '../../helpers/smtp';
import { graphql, request, type HttpResult } from '../../helpers/http';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { eventually } from '../../helpers/wait';

/**
 * People signing in as themselves (issue 36) over real HTTP: sign-up, the emailed verification link,
 * sign-in with email and password (and a second factor), who am I, sessions and ending them, password
 * change and reset by an emailed link (single use, 1 hour), switching merchant; the emails arrive at a
 * real SMTP server started here; a known and an unknown
 * email answered byte for byte alike; every action's one audit entry.
 */

const XRW = DASHBOARD_HEADERS;
const ME = `{ me { kind role permissions merchantId merchantName enrolmentOnly user { id email name emailVerified twoFactorEnabled } memberships { merchantId merchantName role } } }`;
const SESSIONS = `{ mySessions { id merchantId userAgent ip createdAt lastSeenAt current } }`;

/** An answer as a client sees it, less what differs per request (its id, its date, the address's rate-limit counters). */
function answer(res: HttpResult) {
  const headers = [...res.headers.entries()].filter(([name]) => !['x-request-id', 'date'].includes(name) && !name.startsWith('ratelimit-'));
  return { status: res.status, headers, text: res.text };
}

describe('accounts: sign-up, sign-in, sessions, passwords', () => {
  let app: TestApp;
  let smtp: TestSmtpServer;
  const sql = (query: string, params: unknown[] = []) => app.service.orm.em.fork().execute(query, params);
  const mailsTo = (to: string) => smtp.messages.filter((m) => m.envelope.to.includes(to));
  /** The `nth` mail to `to` with this subject, waited for (mail goes out after the answer). */
  async function mail(to: string, subject: RegExp, nth = 0): Promise<ReceivedMail> {
    let found: ReceivedMail | undefined;
    await eventually(async () => (found = mailsTo(to).filter((m) => subject.test(m.subject))[nth]) !== undefined);
    if (!found) throw new Error(`no mail "${subject}" to ${to}; mails: ${JSON.stringify(smtp.messages.map((m) => [m.envelope.to, m.subject]))}`);
    return found;
  }
  /** The token of the mail's link to `path`. */
  const tokenIn = (message: ReceivedMail, path: string) => new URL(linkIn(message, path)).searchParams.get('token')!;
  const me = async (token: string) => (await graphql(app.url, ME, { token })).body;
  const refresh = (cookie: string) => request(app.url, 'POST', '/dashboard/session/refresh', { headers: { ...XRW, cookie: `dashboard_session=${cookie}` } });
  const auditOf = (action: string) => sql('select * from audit_log where action = ? order by created_at, id', [action]);
  /** The entries of `action` by one actor (a person's id, or the email typed when the person is unknown), in no order. */
  const auditBy = (action: string, actor: { id: string } | { label: string }) =>
    'id' in actor
      ? sql('select * from audit_log where action = ? and actor_id = ?', [action, actor.id])
      : sql('select * from audit_log where action = ? and actor_label = ? and actor_id is null', [action, actor.label]);
  /** The entries in `after` that were not in `before` (by id: entries of one clock time do not sort by when they were written). */
  const added = <T extends { id?: unknown }>(before: T[], after: T[]) => after.filter((e) => !before.some((b) => b.id === e.id));

  beforeAll(async () => {
    smtp = await startSmtpServer();
    app = await createTestApp({ env: { TRUST_PROXY: '1', SMTP_URL: smtp.url(), MAIL_FROM: 'Payments Gateway <no-reply@pay.example>' } });
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.close();
  });

  describe('sign-up and the verification email', () => {
    const email = 'founder@shop.example';
    const password = 'correct horse battery';
    let signUp: HttpResult;

    beforeAll(async () => {
      signUp = await request(app.url, 'POST', '/dashboard/sign-up', {
        headers: { ...XRW, 'user-agent': 'SignUpBrowser/1.0' },
        body: { email: 'Founder@Shop.example', password, name: 'Ada Founder', business_name: 'Ada’s Shop', country: 'ke' },
      });
    });

    it('creates a sandbox merchant, its owner and its first API key (secret shown once), and signs in', async () => {
      expect(signUp.status).toBe(201);
      const data = signUp.body.data;
      expect(data).toEqual({
        access_token: expect.any(String),
        token_type: 'Bearer',
        expires_in: 3600,
        merchant_id: expect.any(String),
        role: 'owner',
        client_id: expect.stringMatching(/^ci_/),
        client_secret: expect.stringMatching(/^sk_/),
        webhook_secret: expect.stringMatching(/^whsec_/),
        user: { id: expect.any(String), email, name: 'Ada Founder', email_verified: false, two_factor_enabled: false },
      });
      expect(sessionCookieOf(signUp)).toMatch(/^rt_/);
      // The API key works on the API.
      const token = await request(app.url, 'POST', '/v1/oauth/token', {
        body: { grant_type: 'client_credentials', client_id: data.client_id, client_secret: data.client_secret },
      });
      expect(token.status).toBe(200);
      const [merchant] = await sql('select name, country from merchant where id = ?', [data.merchant_id]);
      expect(merchant).toEqual({ name: 'Ada’s Shop', country: 'KE' });
      const [entry] = await auditOf('user.signed_up');
      expect(entry).toMatchObject({
        merchant_id: data.merchant_id,
        actor_type: 'user',
        actor_id: data.user.id,
        role: 'owner',
        user_agent: 'SignUpBrowser/1.0',
      });
      expect(JSON.stringify(entry)).not.toContain(password);
    });

    it('me: the person, unverified (the sandbox lets them in; the dashboard shows a banner), their membership and permissions', async () => {
      const body = await me(signUp.body.data.access_token);
      expect(body.errors).toBeUndefined();
      expect(body.data.me).toMatchObject({
        kind: 'USER',
        role: 'OWNER',
        merchantId: signUp.body.data.merchant_id,
        merchantName: 'Ada’s Shop',
        enrolmentOnly: false,
        user: { email, name: 'Ada Founder', emailVerified: false, twoFactorEnabled: false },
        memberships: [{ merchantId: signUp.body.data.merchant_id, merchantName: 'Ada’s Shop', role: 'OWNER' }],
      });
      expect(body.data.me.permissions).toContain('team:manage');
    });

    it('the verification email carries a single-use link; opening it verifies the address (one audit entry)', async () => {
      const verification = await mail(email, /Confirm your email/);
      const url = linkIn(verification, '/dashboard/verify-email');
      expect(url.startsWith(`${app.url}/dashboard/verify-email?token=`)).toBe(true);
      const token = tokenIn(verification, '/dashboard/verify-email');
      const verified = await request(app.url, 'POST', '/dashboard/email/verify', { headers: XRW, body: { token } });
      expect([verified.status, verified.body.data]).toEqual([200, { email, email_verified: true }]);
      expect((await me(signUp.body.data.access_token)).data.me.user.emailVerified).toBe(true);
      const again = await request(app.url, 'POST', '/dashboard/email/verify', { headers: XRW, body: { token } });
      expect([again.status, again.body.code, again.body.details]).toEqual([
        400,
        'INVALID_REQUEST',
        [{ field: 'token', issue: expect.stringContaining('already used') }],
      ]);
      expect(await auditOf('user.email_verified')).toHaveLength(1);
      // Verified: nothing to resend.
      const resend = await request(app.url, 'POST', '/dashboard/email/resend', { headers: XRW, token: signUp.body.data.access_token });
      expect([resend.status, resend.body.data]).toEqual([200, { sent: false }]);
    });

    it('an email that has an account: 409 whatever the password, and its owner is emailed; nothing is made', async () => {
      const before = await sql('select count(*)::int as n from merchant');
      const taken = await request(app.url, 'POST', '/dashboard/sign-up', {
        headers: XRW,
        body: { email: 'FOUNDER@shop.example', password: 'another password 123', business_name: 'Copycat', country: 'KE' },
      });
      expect([taken.status, taken.body.code, taken.body.details?.[0]?.field]).toEqual([409, 'DUPLICATE_REQUEST', 'email']);
      expect(await sql('select count(*)::int as n from merchant')).toEqual(before);
      await mail(email, /tried to sign up/);
    });

    it('sign-up checks the password rules and the fields, naming them in REST’s names', async () => {
      const weak = await request(app.url, 'POST', '/dashboard/sign-up', {
        headers: XRW,
        body: { email: 'weak@shop.example', password: 'weak@shop.example', business_name: 'Weak', country: 'KE' },
      });
      expect([weak.status, weak.body.details]).toEqual([400, [{ field: 'password', issue: 'must not be your email address' }]]);
      const missing = await request(app.url, 'POST', '/dashboard/sign-up', {
        headers: XRW,
        body: { email: 'x@shop.example', password: 'long enough password' },
      });
      expect(missing.status).toBe(400);
      expect(missing.body.details.map((d: { field: string }) => d.field).sort()).toEqual(['business_name', 'country']);
    });

    it('without the X-Requested-With header, sign-up is refused before anything is read', async () => {
      const res = await request(app.url, 'POST', '/dashboard/sign-up', { body: { email: 'csrf@shop.example', password: 'long enough password' } });
      expect([res.status, res.body.message]).toEqual([400, 'The X-Requested-With header is required']);
    });
  });

  describe('sign-in, sessions and passwords', () => {
    let person: Awaited<ReturnType<typeof signInDashboardUser>>;

    beforeAll(async () => {
      person = await signInDashboardUser(app, undefined, { email: 'grace@shop.example', password: 'first password 1234' });
    });

    it('signs in with email (any case) and password: the access token, the merchant, the role; the cookie as before; one audit entry', async () => {
      const before = await auditBy('user.sign_in_succeeded', { id: person.userId });
      const failedBefore = await auditBy('user.sign_in_failed', { id: person.userId });
      const { res, accessToken, cookie } = await signInDashboard(
        app,
        { email: 'Grace@Shop.example', password: person.password },
        { ...XRW, 'user-agent': 'Laptop' },
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        status: 'success',
        message: 'Signed in',
        data: { access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600, merchant_id: person.merchantId, role: 'owner' },
      });
      expect(cookie).toMatch(/^rt_/);
      expect(res.text).not.toContain(cookie!);
      const who = await me(accessToken!);
      expect(who.data.me).toMatchObject({ kind: 'USER', role: 'OWNER', user: { email: person.email, emailVerified: true } });
      // The session refreshes as before, and says it was seen.
      const next = await refresh(cookie!);
      expect(next.status).toBe(200);
      // Exactly one entry for the one sign-in (the refresh writes none), and no failure.
      const after = await auditBy('user.sign_in_succeeded', { id: person.userId });
      expect(after).toHaveLength(before.length + 1);
      expect(added(before, after)).toEqual([
        expect.objectContaining({ merchant_id: person.merchantId, role: 'owner', user_agent: 'Laptop', target_type: 'session' }),
      ]);
      expect(await auditBy('user.sign_in_failed', { id: person.userId })).toHaveLength(failedBefore.length);
    });

    it('the dashboard no longer signs in with a client secret: a valid API key’s client_id and client_secret get a 4xx, no cookie', async () => {
      const merchant = await app.createMerchant('Secret Shop');
      const credentials = { client_id: merchant.merchant.clientId, client_secret: merchant.clientSecret };
      // The pair is valid: the API grants it a token.
      const granted = await request(app.url, 'POST', '/v1/oauth/token', { body: { grant_type: 'client_credentials', ...credentials } });
      expect(granted.status).toBe(200);
      const res = await request(app.url, 'POST', '/dashboard/session', { headers: XRW, body: credentials });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.body).toMatchObject({ status: 'error', code: expect.any(String) });
      expect(res.body.data).toBeUndefined();
      expect(res.headers.getSetCookie()).toEqual([]);
    });

    it('lists my sessions (device, address, last seen; this one marked) and ends the others at once', async () => {
      const phone = await signInDashboard(
        app,
        { email: person.email, password: person.password },
        { ...XRW, 'user-agent': 'Phone', 'x-forwarded-for': '198.51.100.7' },
      );
      const laptop = await signInDashboard(app, { email: person.email, password: person.password }, { ...XRW, 'user-agent': 'Laptop' });
      const listed = await graphql(app.url, SESSIONS, { token: laptop.accessToken });
      const sessions = listed.body.data.mySessions as Array<{ id: string; userAgent: string; ip: string; current: boolean }>;
      expect(sessions.filter((s) => s.current)).toHaveLength(1);
      expect(sessions.find((s) => s.current)!.userAgent).toBe('Laptop');
      expect(sessions.find((s) => s.userAgent === 'Phone')!.ip).toBe('198.51.100.7');
      expect(sessions.length).toBeGreaterThanOrEqual(3);

      const ended = await graphql(app.url, 'mutation { endOtherSessions }', { token: laptop.accessToken });
      expect(ended.body.data.endOtherSessions).toBe(sessions.length - 1);
      expect((await request(app.url, 'GET', '/v1/merchant', { token: phone.accessToken })).status).toBe(401);
      expect((await refresh(phone.cookie!)).status).toBe(401);
      expect((await request(app.url, 'GET', '/v1/merchant', { token: laptop.accessToken })).status).toBe(200);
      expect((await graphql(app.url, SESSIONS, { token: laptop.accessToken })).body.data.mySessions).toHaveLength(1);

      // One session, by id; another person's (or an ended one) is not found.
      const tablet = await signInDashboard(app, { email: person.email, password: person.password }, { ...XRW, 'user-agent': 'Tablet' });
      const tabletId = ((await graphql(app.url, SESSIONS, { token: tablet.accessToken })).body.data.mySessions as Array<{ id: string; current: boolean }>).find(
        (s) => s.current,
      )!.id;
      const strangerUser = await signInDashboardUser(app);
      const stranger = await signInDashboard(app, { email: strangerUser.email, password: strangerUser.password });
      const notTheirs = await graphql(app.url, 'mutation($id: ID!) { endSession(id: $id) }', { token: stranger.accessToken, variables: { id: tabletId } });
      expect(notTheirs.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      const end = await graphql(app.url, 'mutation($id: ID!) { endSession(id: $id) }', { token: laptop.accessToken, variables: { id: tabletId } });
      expect(end.body.data.endSession).toBe(true);
      expect((await request(app.url, 'GET', '/v1/merchant', { token: tablet.accessToken })).status).toBe(401);
      expect((await sql("select count(*)::int as n from audit_log where action = 'user.sessions_ended' and actor_id = ?", [person.userId]))[0].n).toBe(2);
    });

    it('a password change ends the other sessions (this one stays); the old password stops working', async () => {
      const other = await signInDashboard(app, { email: person.email, password: person.password });
      const mine = await signInDashboard(app, { email: person.email, password: person.password });
      const change = `mutation($c: String!, $n: String!) { changePassword(currentPassword: $c, newPassword: $n) }`;
      const wrong = await graphql(app.url, change, { token: mine.accessToken, variables: { c: 'not my password', n: 'second password 5678' } });
      expect(wrong.body.errors?.[0]?.extensions?.code).toBe('INVALID_REQUEST');
      const short = await graphql(app.url, change, { token: mine.accessToken, variables: { c: person.password, n: 'short' } });
      expect(short.body.errors?.[0]?.message).toContain('newPassword');
      const changed = await graphql(app.url, change, { token: mine.accessToken, variables: { c: person.password, n: 'second password 5678' } });
      expect(changed.body).toEqual({ data: { changePassword: true } });
      expect((await request(app.url, 'GET', '/v1/merchant', { token: other.accessToken })).status).toBe(401);
      expect((await refresh(other.cookie!)).status).toBe(401);
      expect((await request(app.url, 'GET', '/v1/merchant', { token: mine.accessToken })).status).toBe(200);
      // The session that made the change stays whole (it refreshes), and it is the person's only one.
      expect((await refresh(mine.cookie!)).status).toBe(200);
      const left = (await graphql(app.url, SESSIONS, { token: mine.accessToken })).body.data.mySessions;
      expect(left).toEqual([expect.objectContaining({ current: true })]);
      expect((await signInDashboard(app, { email: person.email, password: person.password })).res.status).toBe(401);
      person.password = 'second password 5678';
      expect((await signInDashboard(app, { email: person.email, password: person.password })).res.status).toBe(200);
      const entries = await sql("select * from audit_log where action = 'user.password_changed' and actor_id = ?", [person.userId]);
      expect(entries).toHaveLength(1);
      expect(JSON.stringify(entries)).not.toContain('second password');
    });

    it('reset by an emailed link: single use, ends every session, the new password works; a link expires after 1 hour', async () => {
      const signedIn = await signInDashboard(app, { email: person.email, password: person.password });
      const forgot = await request(app.url, 'POST', '/dashboard/password/forgot', { headers: XRW, body: { email: person.email } });
      expect(forgot.status).toBe(200);
      const token = tokenIn(await mail(person.email, /Reset your/), '/dashboard/reset-password');

      // A password the rules refuse does not use the link up.
      const weak = await request(app.url, 'POST', '/dashboard/password/reset', { headers: XRW, body: { token, password: 'short' } });
      expect([weak.status, weak.body.details?.[0]?.field]).toEqual([400, 'password']);
      const reset = await request(app.url, 'POST', '/dashboard/password/reset', { headers: XRW, body: { token, password: 'third password 9012' } });
      expect(reset.status).toBe(200);
      expect((await request(app.url, 'GET', '/v1/merchant', { token: signedIn.accessToken })).status).toBe(401);
      expect((await refresh(signedIn.cookie!)).status).toBe(401);
      const reused = await request(app.url, 'POST', '/dashboard/password/reset', { headers: XRW, body: { token, password: 'fourth password 3456' } });
      expect([reused.status, reused.body.details?.[0]?.field]).toEqual([400, 'token']);
      expect((await signInDashboard(app, { email: person.email, password: 'fourth password 3456' })).res.status).toBe(401);
      expect((await signInDashboard(app, { email: person.email, password: 'third password 9012' })).res.status).toBe(200);
      expect(await sql("select * from audit_log where action = 'user.password_reset' and actor_id = ?", [person.userId])).toHaveLength(1);

      // A second link, opened after its hour: refused.
      await request(app.url, 'POST', '/dashboard/password/forgot', { headers: XRW, body: { email: person.email } });
      const late = tokenIn(await mail(person.email, /Reset your/, 1), '/dashboard/reset-password');
      app.clock.advance(60 * 60 * 1000 + 1000);
      const expired = await request(app.url, 'POST', '/dashboard/password/reset', {
        headers: XRW,
        body: { token: late, password: 'fifth password 7890' },
      });
      expect([expired.status, expired.body.details?.[0]?.issue]).toEqual([400, expect.stringContaining('expired')]);
    });

    it('a known and an unknown email get byte-identical answers: sign-in (wrong password) and forgot password', async () => {
      const known = await signInDashboard(app, { email: person.email, password: 'a wrong password 000' });
      const unknown = await signInDashboard(app, { email: 'nobody@shop.example', password: 'a wrong password 000' });
      expect(answer(known.res)).toEqual(answer(unknown.res));
      expect(known.res.status).toBe(401);
      expect(known.res.body).toEqual({ status: 'error', code: 'INVALID_CLIENT', message: 'Wrong email or password' });

      const forgotKnown = await request(app.url, 'POST', '/dashboard/password/forgot', { headers: XRW, body: { email: person.email } });
      const forgotUnknown = await request(app.url, 'POST', '/dashboard/password/forgot', { headers: XRW, body: { email: 'nobody@shop.example' } });
      expect(answer(forgotKnown)).toEqual(answer(forgotUnknown));
      expect(forgotKnown.status).toBe(200);
      expect(mailsTo('nobody@shop.example')).toEqual([]);
    });

    it('a failed sign-in writes one audit entry with the address and user agent; merchant null when the email is unknown', async () => {
      const ghost = { label: 'ghost@shop.example' };
      const ghostBefore = await auditBy('user.sign_in_failed', ghost);
      await signInDashboard(
        app,
        { email: 'ghost@shop.example', password: 'whatever password' },
        { ...XRW, 'user-agent': 'Prober', 'x-forwarded-for': '203.0.113.9' },
      );
      const ghostAfter = await auditBy('user.sign_in_failed', ghost);
      expect(ghostAfter).toHaveLength(ghostBefore.length + 1);
      expect(added(ghostBefore, ghostAfter)).toEqual([expect.objectContaining({ merchant_id: null, actor_id: null, ip: '203.0.113.9', user_agent: 'Prober' })]);

      const before = await auditBy('user.sign_in_failed', { id: person.userId });
      const succeededBefore = await auditBy('user.sign_in_succeeded', { id: person.userId });
      await signInDashboard(app, { email: person.email, password: 'a wrong password 111' }, { ...XRW, 'user-agent': 'Prober' });
      const failed = await auditBy('user.sign_in_failed', { id: person.userId });
      expect(failed).toHaveLength(before.length + 1);
      expect(added(before, failed)).toEqual([
        expect.objectContaining({ merchant_id: person.merchantId, user_agent: 'Prober', after: { reason: 'wrong_email_or_password' } }),
      ]);
      expect(await auditBy('user.sign_in_succeeded', { id: person.userId })).toHaveLength(succeededBefore.length);
      expect(JSON.stringify(failed)).not.toContain('a wrong password');
    });
  });

  describe('several merchants, API keys, two factors', () => {
    it('switching merchant: a new session at the other membership, with its role; the old session ends', async () => {
      const person = await signInDashboardUser(app);
      const other = await app.createMerchant('Second Shop');
      await signInDashboardUser(app, other, { email: person.email, role: 'finance' });
      const first = await signInDashboard(app, { email: person.email, password: person.password });
      expect(first.res.body.data.merchant_id).toBe(person.merchantId);
      expect((await me(first.accessToken!)).data.me.memberships).toHaveLength(2);
      const switched = await request(app.url, 'POST', '/dashboard/session/switch', {
        headers: { ...XRW, cookie: `dashboard_session=${first.cookie}` },
        body: { merchant_id: other.merchant.id },
      });
      expect(switched.status).toBe(200);
      expect(switched.body.data).toMatchObject({ merchant_id: other.merchant.id, role: 'finance' });
      expect((await me(switched.body.data.access_token)).data.me).toMatchObject({ role: 'FINANCE', merchantName: 'Second Shop' });
      expect((await refresh(first.cookie!)).status).toBe(401);
      const [switchEntry] = await sql("select * from audit_log where action = 'user.sign_in_succeeded' and merchant_id = ?", [other.merchant.id]);
      expect(switchEntry).toMatchObject({ actor_id: person.userId, role: 'finance', after: { switched_from: person.merchantId } });
      // Signing in straight at a merchant; one that is not theirs is refused.
      const direct = await signInDashboard(app, { email: person.email, password: person.password, merchant_id: other.merchant.id });
      expect(direct.res.body.data.role).toBe('finance');
      const stranger = await app.createMerchant('Not Theirs');
      const refused = await signInDashboard(app, { email: person.email, password: person.password, merchant_id: stranger.merchant.id });
      expect([refused.res.status, refused.res.body.code]).toEqual([403, 'FORBIDDEN']);
    });

    it('an API key: me answers (no person, no memberships); the session operations are FORBIDDEN', async () => {
      const merchant = await app.createMerchant('Key Shop');
      const { accessToken } = await app.token(merchant);
      expect((await me(accessToken)).data.me).toMatchObject({ kind: 'API_KEY', role: 'DEVELOPER', user: null, memberships: [] });
      expect((await graphql(app.url, SESSIONS, { token: accessToken })).body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      expect((await graphql(app.url, 'mutation { endOtherSessions }', { token: accessToken })).body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    });

    it('with 2FA: the code is asked for after a right password, checked once per step; a recovery code works once', async () => {
      const person = await signInDashboardUser(app);
      const secret = await enableTwoFactor(app, person.userId);
      const [recovery] = newRecoveryCodes();
      await sql('insert into recovery_code (id, user_id, code_hash) values (gen_random_uuid(), ?, ?)', [person.userId, recoveryCodeHash(recovery!)]);

      const noCode = await signInDashboard(app, { email: person.email, password: person.password });
      expect([noCode.res.status, noCode.res.body.code, noCode.res.body.details]).toEqual([
        401,
        'INVALID_CLIENT',
        [{ field: 'totp_code', issue: 'is required' }],
      ]);
      // A wrong password says nothing of the second factor.
      const wrongPassword = await signInDashboard(app, { email: person.email, password: 'not the password' });
      expect(wrongPassword.res.body).toEqual({ status: 'error', code: 'INVALID_CLIENT', message: 'Wrong email or password' });
      const wrongCode = await signInDashboard(app, {
        email: person.email,
        password: person.password,
        totp_code: '000000' === totpCodeAt(secret, app.clock.now()) ? '111111' : '000000',
      });
      expect([wrongCode.res.status, wrongCode.res.body.details]).toEqual([401, [{ field: 'totp_code', issue: 'is incorrect' }]]);
      const code = totpCodeAt(secret, app.clock.now());
      const ok = await signInDashboard(app, { email: person.email, password: person.password, totp_code: code });
      expect(ok.res.status).toBe(200);
      const replay = await signInDashboard(app, { email: person.email, password: person.password, totp_code: code });
      expect(replay.res.status).toBe(401);
      const withRecovery = await signInDashboard(app, { email: person.email, password: person.password, totp_code: recovery!.toUpperCase() });
      expect(withRecovery.res.status).toBe(200);
      expect((await signInDashboard(app, { email: person.email, password: person.password, totp_code: recovery! })).res.status).toBe(401);
      expect((await me(ok.accessToken!)).data.me.user.twoFactorEnabled).toBe(true);
    });

    it('a merchant that requires 2FA: a member without it gets an enrolment-only session, at sign-in and at every refresh', async () => {
      const person = await signInDashboardUser(app, undefined, { role: 'viewer' });
      await sql('update merchant set require_two_factor = true where id = ?', [person.merchantId]);
      const { res, accessToken, cookie } = await signInDashboard(app, { email: person.email, password: person.password });
      expect(res.body.data).toMatchObject({ role: 'viewer', two_factor_required: true });
      expect((await me(accessToken!)).data.me).toMatchObject({ enrolmentOnly: true, permissions: [] });
      const next = await refresh(cookie!);
      expect((await me(next.body.data.access_token)).data.me).toMatchObject({ enrolmentOnly: true, permissions: [] });
    });
  });
});

describe('accounts: failed sign-ins back off per account and address, and per address; no stranger locks an account out', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ env: { TRUST_PROXY: '1', RATE_LIMIT_TOKEN_FAILURES: '3', RATE_LIMIT_TOKEN_IP_FAILURES: '6', RATE_LIMIT_TOKEN_CLIENT: '5' } });
  });
  afterAll(() => app?.close());

  it('an address that spent its failures for an email is refused for it (429); another address, with the right password, signs in', async () => {
    const person = await signInDashboardUser(app);
    const from = (ip: string) => ({ ...XRW, 'x-forwarded-for': ip });
    for (let i = 0; i < 3; i++)
      expect((await signInDashboard(app, { email: person.email, password: 'wrong password 000' }, from('203.0.113.1'))).res.status).toBe(401);
    const refused = await signInDashboard(app, { email: person.email, password: person.password }, from('203.0.113.1'));
    expect([refused.res.status, refused.res.body.code]).toEqual([429, 'RATE_LIMITED']);
    expect(refused.res.headers.get('retry-after')).toMatch(/^\d+$/);
    // The same for an unknown email (the limit does not tell which exist).
    for (let i = 0; i < 3; i++) await signInDashboard(app, { email: 'nobody@shop.example', password: 'wrong password 000' }, from('203.0.113.2'));
    expect((await signInDashboard(app, { email: 'nobody@shop.example', password: 'wrong password 000' }, from('203.0.113.2'))).res.status).toBe(429);

    // Failures from many addresses spend the email's ceiling: failures are answered 429, the right password still signs in.
    for (const ip of ['198.51.100.1', '198.51.100.2', '198.51.100.3'])
      await signInDashboard(app, { email: person.email, password: 'wrong password 000' }, from(ip));
    expect((await signInDashboard(app, { email: person.email, password: 'wrong password 000' }, from('198.51.100.4'))).res.status).toBe(429);
    expect((await signInDashboard(app, { email: person.email, password: person.password }, from('198.51.100.5'))).res.status).toBe(200);
  });

  it('an address that spent its failures across emails is refused for every email (credential stuffing)', async () => {
    const person = await signInDashboardUser(app);
    const from = { ...XRW, 'x-forwarded-for': '192.0.2.50' };
    for (let i = 0; i < 6; i++) await signInDashboard(app, { email: `victim${i}@shop.example`, password: 'wrong password 000' }, from);
    expect((await signInDashboard(app, { email: person.email, password: person.password }, from)).res.status).toBe(429);
    expect((await signInDashboard(app, { email: person.email, password: person.password }, { ...XRW, 'x-forwarded-for': '192.0.2.51' })).res.status).toBe(200);
  });

  it('sign-up with a taken email counts against the address: its 409s turn into 429, for any email; another address still gets the 409', async () => {
    const person = await signInDashboardUser(app);
    const signUp = (email: string, ip: string) =>
      request(app.url, 'POST', '/dashboard/sign-up', {
        headers: { ...XRW, 'x-forwarded-for': ip },
        body: { email, password: 'a long enough password', business_name: 'Copycat', country: 'KE' },
      });
    const merchants = async () => (await app.service.orm.em.fork().execute('select count(*)::int as n from merchant'))[0].n;
    const before = await merchants();
    // RATE_LIMIT_TOKEN_IP_FAILURES is 6: six 409s spend the address's failures; the seventh attempt is refused before it is read.
    const answers: number[] = [];
    for (let i = 0; i < 7; i++) answers.push((await signUp(person.email, '192.0.2.60')).status);
    expect(answers).toEqual([409, 409, 409, 409, 409, 409, 429]);
    const refused = await signUp('someone.new@shop.example', '192.0.2.60');
    expect([refused.status, refused.body.code]).toEqual([429, 'RATE_LIMITED']);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    // The same address's sign-ins share the budget: a prober cannot switch doors.
    expect((await signInDashboard(app, { email: person.email, password: person.password }, { ...XRW, 'x-forwarded-for': '192.0.2.60' })).res.status).toBe(429);
    expect(await merchants()).toBe(before);
    const elsewhere = await signUp(person.email, '192.0.2.61');
    expect([elsewhere.status, elsewhere.body.code]).toEqual([409, 'DUPLICATE_REQUEST']);
  });
});

describe('accounts in production: no sign-up unless enabled, a verified email to sign in, 2FA for roles that move money', () => {
  let app: TestApp;
  let smtp: TestSmtpServer;
  const sql = (query: string, params: unknown[] = []) => app.service.orm.em.fork().execute(query, params);
  beforeAll(async () => {
    smtp = await startSmtpServer();
    app = await createTestApp({ env: { PAYMENTS_ENV: 'production', SMTP_URL: smtp.url(), MAIL_FROM: 'Payments Gateway <no-reply@pay.example>' } });
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.close();
  });

  it('sign-up is off (SIGNUP_ENABLED defaults to false): 403, nothing made', async () => {
    const res = await request(app.url, 'POST', '/dashboard/sign-up', {
      headers: XRW,
      body: { email: 'new@shop.example', password: 'a long enough password', business_name: 'New', country: 'KE' },
    });
    expect([res.status, res.body.code]).toEqual([403, 'FORBIDDEN']);
    expect(await sql("select count(*)::int as n from app_user where email = 'new@shop.example'")).toEqual([{ n: 0 }]);
  });

  it('an unverified email cannot sign in (said only after the right password); verified, an owner without 2FA may only enrol', async () => {
    const owner = await signInDashboardUser(app, undefined, { verified: false });
    const unverified = await signInDashboard(app, { email: owner.email, password: owner.password });
    expect([unverified.res.status, unverified.res.body.code, unverified.res.body.message]).toEqual([
      401,
      'INVALID_CLIENT',
      expect.stringContaining('Verify your email'),
    ]);
    expect((await signInDashboard(app, { email: owner.email, password: 'not the password' })).res.body.message).toBe('Wrong email or password');
    await sql('update app_user set email_verified_at = now() where id = ?', [owner.userId]);
    const verified = await signInDashboard(app, { email: owner.email, password: owner.password });
    expect(verified.res.body.data).toMatchObject({ role: 'owner', two_factor_required: true });
    // A viewer's role moves no money: a full session.
    const viewer = await signInDashboardUser(app, owner.merchantId, { role: 'viewer' });
    const viewing = await signInDashboard(app, { email: viewer.email, password: viewer.password });
    expect(viewing.res.body.data).toEqual(expect.not.objectContaining({ two_factor_required: true }));
    expect(viewing.res.body.data.role).toBe('viewer');
  });
});
