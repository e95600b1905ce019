import { createLogger } from '../../../src/shared/logger';
import type { MerchantCredentials } from '../../../src/modules/merchants/merchant.service';
import { signInDashboardUser, type DashboardUser } from '../../helpers/accounts';
import { request, type HttpResult } from '../../helpers/http';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { eventually } from '../../helpers/wait';

/**
 * The merchant dashboard's session routes over real HTTP: the refresh token in an HttpOnly,
 * SameSite=Strict cookie scoped to /dashboard/session, rotating on refresh with the OAuth
 * service's reuse detection; sign-out revoking and clearing; CSRF refusals; rate limits; and
 * neither token ever in a log line.
 */

const SESSION = '/dashboard/session';
const XRW = { 'x-requested-with': 'fetch' };
/** A request a TLS-terminating proxy forwards (the suite's app trusts one hop: TRUST_PROXY=1). */
const HTTPS = { ...XRW, 'x-forwarded-proto': 'https' };

/** The readable hint set and cleared with the session cookie, over http and over https (dashboard-scope.ts). */
const HINT = { set: 'dashboard_signed_in=1; Path=/dashboard; SameSite=Strict', cleared: 'dashboard_signed_in=; Path=/dashboard; Max-Age=0; SameSite=Strict' };
const secureHint = { set: `${HINT.set}; Secure`, cleared: `${HINT.cleared}; Secure` };

/** The one session Set-Cookie line an answer carries (undefined when none); the hint, when any, follows it and says the same. */
function setCookie(res: HttpResult): string | undefined {
  const lines = res.headers.getSetCookie();
  const [line, hint, ...more] = lines;
  expect(more).toEqual([]);
  if (line !== undefined) expect(hint).toBe(/^dashboard_session=;/.test(line) ? HINT.cleared : HINT.set);
  return line;
}

/** The session cookie's value from a Set-Cookie line. */
const cookieValue = (line: string | undefined) => /^dashboard_session=([^;]*)/.exec(line ?? '')?.[1];
/** The same, under its https name. */
const hostCookieValue = (line: string | undefined) => /^__Host-dashboard_session=([^;]*)/.exec(line ?? '')?.[1];

const attributes = (line: string) =>
  line
    .split(';')
    .slice(1)
    .map((a) => a.trim())
    .sort();

describe('dashboard session routes', () => {
  let app: TestApp;
  let merchant: MerchantCredentials;
  /** The merchant's owner, who signs in (the dashboard no longer takes the client secret). */
  let person: DashboardUser;
  const logs: string[] = [];
  /** Every token the tests saw, to look for in the logs at the end. */
  const seen: string[] = [];

  beforeAll(async () => {
    app = await createTestApp({ env: { TRUST_PROXY: '1' }, logDestination: { write: (line: string) => void logs.push(line) } });
    merchant = await app.createMerchant('Dashboard Session Merchant');
    person = await signInDashboardUser(app, merchant);
  });
  afterAll(() => app?.close());

  const signIn = async (headers: Record<string, string> = XRW, password = person.password) => {
    const res = await request(app.url, 'POST', SESSION, { headers, body: { email: person.email, password } });
    // Over https a second line clears the plain name (the https test looks at both).
    const [line] = res.headers.getSetCookie();
    const cookie = cookieValue(line) ?? hostCookieValue(line);
    if (cookie) seen.push(cookie);
    if (res.body?.data?.access_token) seen.push(res.body.data.access_token);
    return { res, cookie };
  };
  const refresh = async (cookie: string | undefined, headers: Record<string, string> = XRW) => {
    const res = await request(app.url, 'POST', `${SESSION}/refresh`, { headers: { ...headers, ...(cookie ? { cookie: `dashboard_session=${cookie}` } : {}) } });
    const next = cookieValue(setCookie(res));
    if (next) seen.push(next);
    if (res.body?.data?.access_token) seen.push(res.body.data.access_token);
    return { res, cookie: next };
  };
  const profile = (token: string) => request(app.url, 'GET', '/v1/merchant', { token });

  it('sign-in sets the cookie (HttpOnly, SameSite=Strict, Path=/dashboard/session) and answers the access token, the merchant and the role (never the refresh token)', async () => {
    const { res, cookie } = await signIn();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'success',
      message: 'Signed in',
      data: { access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600, merchant_id: merchant.merchant.id, role: 'owner' },
    });
    expect(cookie).toMatch(/^rt_[A-Za-z0-9_-]+$/);
    // Never in a body: the refresh token is the cookie's alone.
    expect(res.text).not.toContain(cookie!);
    expect(res.text).not.toContain('refresh_token');
    // A browser-session cookie, sent to the session routes only; not Secure over plain http.
    expect(attributes(setCookie(res)!)).toEqual(['HttpOnly', 'Path=/dashboard/session', 'SameSite=Strict']);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect((await profile(res.body.data.access_token)).status).toBe(200);
  });

  it('over https (here: a trusted proxy says so) the cookie is __Host-: Secure, Path=/, no Domain; the plain name is cleared', async () => {
    const { res } = await signIn(HTTPS);
    expect(res.status).toBe(200);
    const [session, cleared, ...more] = res.headers.getSetCookie();
    expect(more).toEqual([secureHint.set]);
    const token = hostCookieValue(session);
    expect(token).toMatch(/^rt_[A-Za-z0-9_-]+$/);
    seen.push(token!);
    expect(attributes(session!)).toEqual(['HttpOnly', 'Path=/', 'SameSite=Strict', 'Secure']);
    // A cookie an earlier version set under the plain name over https is cleared, so it never rides beside the new one.
    expect(cleared).toBe('dashboard_session=; Path=/dashboard/session; Max-Age=0; HttpOnly; SameSite=Strict; Secure');

    // Refresh reads the __Host- cookie over https and rotates it; the plain name alone is no session there.
    const next = await request(app.url, 'POST', `${SESSION}/refresh`, { headers: { ...HTTPS, cookie: `__Host-dashboard_session=${token}` } });
    expect(next.status).toBe(200);
    const rotated = hostCookieValue(next.headers.getSetCookie()[0]);
    expect(rotated).toMatch(/^rt_/);
    expect(rotated).not.toBe(token);
    seen.push(rotated!, next.body.data.access_token);
    const plain = await request(app.url, 'POST', `${SESSION}/refresh`, { headers: { ...HTTPS, cookie: `dashboard_session=${rotated}` } });
    expect([plain.status, plain.body.code, plain.body.message]).toEqual([401, 'INVALID_TOKEN', 'No dashboard session: sign in']);
    expect(plain.headers.getSetCookie()).toEqual([
      '__Host-dashboard_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict; Secure',
      'dashboard_session=; Path=/dashboard/session; Max-Age=0; HttpOnly; SameSite=Strict; Secure',
      secureHint.cleared,
    ]);
    // Over plain http it is the other way round: the __Host- name is no session.
    expect((await request(app.url, 'POST', `${SESSION}/refresh`, { headers: { ...XRW, cookie: `__Host-dashboard_session=${rotated}` } })).status).toBe(401);
    // The rotated token was never used by those refusals: it still refreshes.
    expect((await request(app.url, 'POST', `${SESSION}/refresh`, { headers: { ...HTTPS, cookie: `__Host-dashboard_session=${rotated}` } })).status).toBe(200);
  });

  it('two session cookies are refused (401 INVALID_TOKEN, cleared), whichever comes first, of either name; neither is used', async () => {
    const victim = await signIn();
    const attacker = await signIn();
    const refuse = async (path: string, cookie: string, headers: Record<string, string>, token?: string) => {
      const res = await request(app.url, 'POST', path, {
        headers: { ...headers, cookie },
        token,
        body: { email: person.email, password: person.password },
      });
      expect([path, cookie, res.status, res.body]).toEqual([
        path,
        cookie,
        401,
        { status: 'error', code: 'INVALID_TOKEN', message: 'More than one dashboard session cookie: refused; sign in again' },
      ]);
      return res;
    };
    const plain = (t: string) => `dashboard_session=${t}`;
    const host = (t: string) => `__Host-dashboard_session=${t}`;
    for (const [a, b] of [
      [victim.cookie!, attacker.cookie!],
      [attacker.cookie!, victim.cookie!],
    ]) {
      // Over plain http: the planted cookie beside ours (a longer Path is sent first, a Domain= one in any order).
      const res = await refuse(`${SESSION}/refresh`, `${plain(a)}; ${plain(b)}`, XRW);
      expect(res.headers.getSetCookie()).toEqual(['dashboard_session=; Path=/dashboard/session; Max-Age=0; HttpOnly; SameSite=Strict', HINT.cleared]);
      await refuse(`${SESSION}/refresh`, `theme=dark; ${plain(a)}; lang=en; ${plain(b)}`, XRW);
      // Over https: a __Host- cookie and a plain one planted by a subdomain, in either order, or two __Host- ones.
      const secure = await refuse(`${SESSION}/refresh`, `${host(a)}; ${plain(b)}`, HTTPS);
      expect(secure.headers.getSetCookie()).toEqual([
        '__Host-dashboard_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict; Secure',
        'dashboard_session=; Path=/dashboard/session; Max-Age=0; HttpOnly; SameSite=Strict; Secure',
        secureHint.cleared,
      ]);
      await refuse(`${SESSION}/refresh`, `${plain(a)}; ${host(b)}`, HTTPS);
      await refuse(`${SESSION}/refresh`, `${host(a)}; ${host(b)}`, HTTPS);
      // Sign-in and sign-out too.
      await refuse(SESSION, `${plain(a)}; ${plain(b)}`, XRW);
      await refuse(`${SESSION}/sign-out`, `${plain(a)}; ${plain(b)}`, XRW);
      // Even a second one that is not a token, or is empty.
      await refuse(`${SESSION}/refresh`, `${plain(a)}; dashboard_session=`, XRW);
      await refuse(`${SESSION}/refresh`, `${plain(a)}; __Host-dashboard_session=junk`, XRW);
    }
    // Nothing was rotated or revoked by the refusals: each session still refreshes, as its own.
    for (const session of [victim, attacker]) {
      const own = await refresh(session.cookie);
      expect(own.res.status).toBe(200);
      expect((await profile(own.res.body.data.access_token)).status).toBe(200);
    }
    // A sign-out with two cookies still signs out the page's own access token (but neither cookie's family).
    const page = await signIn();
    const other = await signIn();
    await refuse(`${SESSION}/sign-out`, `${plain(page.cookie!)}; ${plain(other.cookie!)}`, XRW, page.res.body.data.access_token);
    expect(await eventually(async () => (await profile(page.res.body.data.access_token)).status === 401)).toBe(true);
    expect((await refresh(other.cookie)).res.status).toBe(200);
  });

  it('the session routes answer their exact path only: another spelling the router matches is 404, the cookie untouched', async () => {
    const { cookie } = await signIn();
    for (const path of ['/dashboard/session/%72efresh', '/dashboard/%73ession/refresh', '/dashboard/session/sign-%6Fut', '/dashboard/sessio%6E']) {
      const res = await request(app.url, 'POST', path, {
        headers: { ...XRW, cookie: `dashboard_session=${cookie}` },
        body: { email: person.email, password: person.password },
      });
      expect([path, res.status, res.body.code]).toEqual([path, 404, 'NOT_FOUND']);
      expect(res.headers.getSetCookie()).toEqual([]);
    }
    // A query string is not part of the path.
    const own = await request(app.url, 'POST', `${SESSION}/refresh?from=reload`, { headers: { ...XRW, cookie: `dashboard_session=${cookie}` } });
    expect(own.status).toBe(200);
    seen.push(cookieValue(setCookie(own))!, own.body.data.access_token);
  });

  it('Strict-Transport-Security on every answer over https (any route, errors included), never over plain http', async () => {
    const { res } = await signIn(HTTPS);
    seen.push(hostCookieValue(res.headers.getSetCookie()[0])!, res.body.data.access_token);
    const answers = [
      res,
      await request(app.url, 'GET', '/v1/merchant', { headers: { 'x-forwarded-proto': 'https' }, token: res.body.data.access_token }),
      await request(app.url, 'GET', '/v1/merchant', { headers: { 'x-forwarded-proto': 'https' } }),
      await request(app.url, 'GET', '/health/live', { headers: { 'x-forwarded-proto': 'https' } }),
      await request(app.url, 'GET', '/no/such/route', { headers: { 'x-forwarded-proto': 'https' } }),
      await request(app.url, 'POST', `${SESSION}/refresh`, { headers: HTTPS }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 401, 200, 404, 401]);
    for (const answer of answers) expect(answer.headers.get('strict-transport-security')).toBe('max-age=63072000; includeSubDomains');
    const plain = [
      await request(app.url, 'GET', '/health/live'),
      await request(app.url, 'GET', '/v1/merchant'),
      await request(app.url, 'POST', `${SESSION}/refresh`, { headers: XRW }),
      await request(app.url, 'GET', '/health/live', { headers: { 'x-forwarded-proto': 'http' } }),
    ];
    for (const answer of plain) expect(answer.headers.get('strict-transport-security')).toBeNull();
  });

  it('refresh rotates: a new cookie and access token; the old cookie is refused afterwards (and, being reuse, ends the family)', async () => {
    const first = await signIn();
    const second = await refresh(first.cookie);
    expect(second.res.status).toBe(200);
    expect(second.res.body).toEqual({
      status: 'success',
      message: 'Session refreshed',
      data: { access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600 },
    });
    expect(second.cookie).toMatch(/^rt_/);
    expect(second.cookie).not.toBe(first.cookie);
    expect(attributes(setCookie(second.res)!)).toEqual(['HttpOnly', 'Path=/dashboard/session', 'SameSite=Strict']);
    expect(second.res.text).not.toContain(second.cookie!);
    expect((await profile(second.res.body.data.access_token)).status).toBe(200);

    // The new one works once more…
    const third = await refresh(second.cookie);
    expect(third.res.status).toBe(200);
    // …and the used one is refused, its cookie cleared.
    const replay = await refresh(first.cookie);
    expect(replay.res.status).toBe(401);
    expect(replay.res.body).toEqual({ status: 'error', code: 'INVALID_TOKEN', message: 'The refresh token is invalid, expired, revoked or already used' });
    expect(attributes(setCookie(replay.res)!)).toEqual(['HttpOnly', 'Max-Age=0', 'Path=/dashboard/session', 'SameSite=Strict']);
    expect(replay.cookie).toBe('');
    // A used token presented again is reuse: the OAuth service revokes the family, the newest cookie with it.
    expect((await refresh(third.cookie)).res.status).toBe(401);
    expect(await eventually(async () => (await profile(third.res.body.data.access_token)).status === 401)).toBe(true);
  });

  it('two refreshes with one cookie at once: one rotates, the other is reuse and ends the family (why the page takes turns)', async () => {
    const { cookie } = await signIn();
    const both = await Promise.all([refresh(cookie), refresh(cookie)]);
    expect(both.map((r) => r.res.status).sort()).toEqual([200, 401]);
    const winner = both.find((r) => r.res.status === 200)!;
    expect(await eventually(async () => (await profile(winner.res.body.data.access_token)).status === 401)).toBe(true);
    expect((await refresh(winner.cookie)).res.status).toBe(401);
  });

  it('refresh without a cookie (or with junk in it) is 401 INVALID_TOKEN in the envelope, never a 500', async () => {
    for (const cookie of [undefined, 'junk', `rt_${'x'.repeat(500)}`, 'rt_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA']) {
      const { res } = await refresh(cookie);
      expect([cookie, res.status, res.body]).toEqual([cookie, 401, { status: 'error', code: 'INVALID_TOKEN', message: expect.any(String) }]);
      expect(res.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    }
    const none = await refresh(undefined);
    expect(none.res.body.message).toBe('No dashboard session: sign in');
  });

  it('sign-out revokes the family (cookie and access token) and clears the cookie', async () => {
    const { res, cookie } = await signIn();
    const access: string = res.body.data.access_token;
    const out = await request(app.url, 'POST', `${SESSION}/sign-out`, { headers: { ...XRW, cookie: `dashboard_session=${cookie}` }, token: access });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ status: 'success', message: 'Signed out', data: {} });
    expect(attributes(setCookie(out)!)).toEqual(['HttpOnly', 'Max-Age=0', 'Path=/dashboard/session', 'SameSite=Strict']);
    expect(cookieValue(setCookie(out))).toBe('');
    expect((await refresh(cookie)).res.status).toBe(401);
    expect(await eventually(async () => (await profile(access).then((r) => r.status)) === 401)).toBe(true);
    // Again, with nothing: still 200 (nothing to probe).
    const again = await request(app.url, 'POST', `${SESSION}/sign-out`, { headers: XRW });
    expect(again.status).toBe(200);
  });

  it('sign-out also ends the family of the access token the page holds when the cookie is another tab’s newer sign-in', async () => {
    const older = await signIn();
    const newer = await signIn();
    const out = await request(app.url, 'POST', `${SESSION}/sign-out`, {
      headers: { ...XRW, cookie: `dashboard_session=${newer.cookie}` },
      token: older.res.body.data.access_token,
    });
    expect(out.status).toBe(200);
    expect(await eventually(async () => (await profile(older.res.body.data.access_token)).status === 401)).toBe(true);
    expect((await refresh(older.cookie)).res.status).toBe(401);
    expect((await refresh(newer.cookie)).res.status).toBe(401);
  });

  it('wrong credentials: 401 INVALID_CLIENT, no cookie; a body that is not an object: 400', async () => {
    const { res } = await signIn(XRW, 'a wrong password');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ status: 'error', code: 'INVALID_CLIENT', message: 'Wrong email or password' });
    expect(setCookie(res)).toBeUndefined();
    const array = await request(app.url, 'POST', SESSION, { headers: XRW, body: [] });
    expect([array.status, array.body.code]).toEqual([400, 'INVALID_REQUEST']);
    const form = await request(app.url, 'POST', SESSION, {
      headers: { ...XRW, 'content-type': 'application/x-www-form-urlencoded' },
      raw: 'email=a&password=b',
    });
    expect([form.status, form.body.code]).toEqual([400, 'INVALID_REQUEST']);
  });

  it('CSRF: a cross-site Origin or Sec-Fetch-Site, or no X-Requested-With, is refused before anything is read or changed', async () => {
    const { res: signedIn, cookie } = await signIn();
    const cross: Array<Record<string, string>> = [
      { ...XRW, origin: 'http://evil.example' },
      { ...XRW, origin: 'null' },
      { ...XRW, 'sec-fetch-site': 'cross-site' },
      { ...XRW, 'sec-fetch-site': 'same-site' },
      { ...XRW, origin: app.url, 'sec-fetch-site': 'cross-site' },
      {},
    ];
    for (const headers of cross) {
      for (const path of [SESSION, `${SESSION}/refresh`, `${SESSION}/sign-out`]) {
        const res = await request(app.url, 'POST', path, {
          headers: { ...headers, cookie: `dashboard_session=${cookie}` },
          body: { email: person.email, password: person.password },
        });
        expect([path, headers, res.status, res.body.status, res.body.code]).toEqual([path, headers, 400, 'error', 'INVALID_REQUEST']);
        expect(setCookie(res)).toBeUndefined();
      }
    }
    expect((await request(app.url, 'POST', SESSION, { headers: { origin: 'http://evil.example' }, body: {} })).body.message).toBe(
      'Cross-site request refused: the dashboard’s session is for its own pages',
    );
    expect((await request(app.url, 'POST', SESSION, { body: {} })).body.message).toBe('The X-Requested-With header is required');
    // Nothing was revoked or rotated by those: the cookie still refreshes, and its access token still works.
    expect((await profile(signedIn.body.data.access_token)).status).toBe(200);
    // The page's own requests: its origin, or `null` with Sec-Fetch-Site same-origin (Referrer-Policy: no-referrer).
    const own = await refresh(cookie, { ...XRW, origin: app.url, 'sec-fetch-site': 'same-origin' });
    expect(own.res.status).toBe(200);
    const opaque = await refresh(own.cookie, { ...XRW, origin: 'null', 'sec-fetch-site': 'same-origin' });
    expect(opaque.res.status).toBe(200);
  });

  it('answers with the token endpoint’s RateLimit headers (the same per-address budget)', async () => {
    const { res } = await signIn();
    expect(res.headers.get('ratelimit-limit')).toBe('100000');
    const { res: refused } = await refresh(undefined);
    expect(refused.headers.get('ratelimit-limit')).toBe('100000');
  });

  it('neither token ever appears in a log line (service logging at trace)', () => {
    expect(seen.length).toBeGreaterThan(10);
    expect(logs.length).toBeGreaterThan(10);
    const all = logs.join('\n');
    // The positive control: the session's requests are in the log (their access lines).
    expect(all).toContain('"path":"/dashboard/session/refresh"');
    expect(seen.filter((token) => token && all.includes(token))).toEqual([]);
  });
});

describe('the logger censors the session cookie wherever a header object is logged', () => {
  it('Cookie and Set-Cookie, on a request, a response or loose headers', () => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
    const cookie = 'dashboard_session=rt_secretsecretsecretsecret';
    logger.info({ req: { headers: { cookie } }, res: { headers: { 'set-cookie': cookie } }, headers: { cookie, 'set-cookie': cookie } }, 'headers');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('[redacted]');
    expect(lines[0]).not.toContain('rt_secret');
  });
});

describe('dashboard session rate limits', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ env: { RATE_LIMIT_TOKEN_IP: '3', RATE_LIMIT_TOKEN_IP_FAILURES: '100' } });
  });
  afterAll(() => app?.close());

  it('without TRUST_PROXY a client’s X-Forwarded-Proto is not believed: no HSTS', async () => {
    const res = await request(app.url, 'GET', '/health/live', { headers: { 'x-forwarded-proto': 'https' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  it('the per-address token budget covers the session routes: past it, 429 RATE_LIMITED with Retry-After', async () => {
    const statuses: number[] = [];
    let last: HttpResult | undefined;
    for (let i = 0; i < 4; i++) {
      last = await request(app.url, 'POST', `${SESSION}/refresh`, { headers: XRW });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    expect(last!.body).toMatchObject({ status: 'error', code: 'RATE_LIMITED' });
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('dashboard session behind https named by PUBLIC_BASE_URL (no TRUST_PROXY)', () => {
  let app: TestApp;
  let person: DashboardUser;
  beforeAll(async () => {
    app = await createTestApp({ env: { PUBLIC_BASE_URL: 'https://pay.example.test' } });
    person = await signInDashboardUser(app, await app.createMerchant('Public Https Merchant'));
  });
  afterAll(() => app?.close());

  it('the operator’s https address is enough: HSTS on every answer, the __Host- cookie', async () => {
    const res = await request(app.url, 'POST', SESSION, { headers: XRW, body: { email: person.email, password: person.password } });
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie()[0]).toMatch(/^__Host-dashboard_session=rt_[A-Za-z0-9_-]+; Path=\/; HttpOnly; SameSite=Strict; Secure$/);
    expect(res.headers.get('strict-transport-security')).toBe('max-age=63072000; includeSubDomains');
    expect((await request(app.url, 'GET', '/health/live')).headers.get('strict-transport-security')).toBe('max-age=63072000; includeSubDomains');
  });
});
