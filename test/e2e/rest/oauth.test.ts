import { createTestApp, type TestApp } from '../../helpers/test-app';
import { request } from '../../helpers/http';
import type { MerchantCredentials } from '../../../src/modules/merchants/merchant.service';

describe('REST /v1/oauth', () => {
  let app: TestApp;
  let merchant: MerchantCredentials;

  beforeAll(async () => {
    app = await createTestApp();
    merchant = await app.createMerchant('OAuth Merchant');
  });
  afterAll(() => app.close());

  const tokenRequest = (body: unknown, headers?: Record<string, string>) => request(app.url, 'POST', '/v1/oauth/token', { body, headers });
  const clientCredentials = () => ({
    grant_type: 'client_credentials',
    client_id: merchant.merchant.clientId,
    client_secret: merchant.clientSecret,
  });
  const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

  it('issues a bearer token in the success envelope, never cacheable', async () => {
    const res = await tokenRequest(clientCredentials());
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual({
      status: 'success',
      message: expect.any(String),
      data: { access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600, refresh_token: expect.stringMatching(/^rt_/) },
    });
    const me = await request(app.url, 'GET', '/v1/merchant', { token: res.body.data.access_token });
    expect(me.status).toBe(200);
    expect(me.body.data.client_id).toBe(merchant.merchant.clientId);
  });

  it('accepts a form body and HTTP Basic client authentication', async () => {
    const form = await request(app.url, 'POST', '/v1/oauth/token', {
      raw: new URLSearchParams(clientCredentials()).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(200);
    expect(form.body.data.token_type).toBe('Bearer');

    const viaBasic = await request(app.url, 'POST', '/v1/oauth/token', {
      raw: 'grant_type=client_credentials',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basic(merchant.merchant.clientId, merchant.clientSecret),
      },
    });
    expect(viaBasic.status).toBe(200);
    expect(viaBasic.headers.get('cache-control')).toBe('no-store');
  });

  it.each([
    ['a wrong secret', { client_secret: 'sk_wrong' }],
    ['an unknown client', { client_id: 'ci_unknown' }],
    ['a missing secret', { client_secret: undefined }],
  ])('answers 401 INVALID_CLIENT for %s', async (_label, change) => {
    const res = await tokenRequest({ ...clientCredentials(), ...change });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ status: 'error', code: 'INVALID_CLIENT', message: expect.any(String) });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('answers 401 INVALID_CLIENT for a wrong secret over HTTP Basic', async () => {
    const res = await request(app.url, 'POST', '/v1/oauth/token', {
      body: { grant_type: 'client_credentials' },
      headers: { authorization: basic(merchant.merchant.clientId, 'sk_wrong') },
    });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('INVALID_CLIENT');
  });

  it.each([
    ['a missing grant_type', { grant_type: undefined }],
    ['an unsupported grant', { grant_type: 'password' }],
    ['an authorization_code grant', { grant_type: 'authorization_code' }],
  ])('answers 400 INVALID_REQUEST for %s', async (_label, change) => {
    const res = await tokenRequest({ ...clientCredentials(), ...change });
    expect(res.status).toBe(400);
    expect(res.body.status).toBe('error');
    expect(res.body.code).toBe('INVALID_REQUEST');
    expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'grant_type' })]));
  });

  it('refuses client authentication given twice (Basic and body)', async () => {
    const res = await tokenRequest(clientCredentials(), { authorization: basic(merchant.merchant.clientId, merchant.clientSecret) });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_REQUEST');
  });

  it('expires access tokens at exactly 3600 s', async () => {
    const { accessToken } = await app.token(merchant);
    app.clock.advance(3599_000);
    expect((await request(app.url, 'GET', '/v1/merchant', { token: accessToken })).status).toBe(200);
    app.clock.advance(1_000);
    const expired = await request(app.url, 'GET', '/v1/merchant', { token: accessToken });
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ status: 'error', code: 'INVALID_TOKEN', message: expect.any(String) });
  });

  it('rotates refresh tokens: the used one stops working and its reuse revokes the family', async () => {
    const first = await app.token(merchant);
    const rotated = await tokenRequest({ grant_type: 'refresh_token', refresh_token: first.refreshToken });
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get('cache-control')).toBe('no-store');
    const second = rotated.body.data;
    expect(second.refresh_token).not.toBe(first.refreshToken);
    expect(second.expires_in).toBe(3600);
    expect((await request(app.url, 'GET', '/v1/merchant', { token: second.access_token })).status).toBe(200);

    // Replaying the used refresh token: refused, and the whole family (including the successor) dies.
    const replay = await tokenRequest({ grant_type: 'refresh_token', refresh_token: first.refreshToken });
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('INVALID_TOKEN');
    const successor = await tokenRequest({ grant_type: 'refresh_token', refresh_token: second.refresh_token });
    expect(successor.status).toBe(401);
    expect(successor.body.code).toBe('INVALID_TOKEN');
    expect((await request(app.url, 'GET', '/v1/merchant', { token: second.access_token })).status).toBe(401);
    expect((await request(app.url, 'GET', '/v1/merchant', { token: first.accessToken })).status).toBe(401);
  });

  it('refreshes with a form body and with the client authenticated; a wrong client is refused', async () => {
    const { refreshToken } = await app.token(merchant);
    const other = await app.createMerchant('Other Merchant');
    const wrongClient = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: other.merchant.clientId,
      client_secret: other.clientSecret,
    });
    expect(wrongClient.status).toBe(401);
    expect(wrongClient.body.code).toBe('INVALID_TOKEN');

    const res = await request(app.url, 'POST', '/v1/oauth/token', {
      raw: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basic(merchant.merchant.clientId, merchant.clientSecret),
      },
    });
    expect(res.status).toBe(200);
  });

  it('answers INVALID_TOKEN for an unknown or expired refresh token, INVALID_REQUEST when it is missing', async () => {
    const unknown = await tokenRequest({ grant_type: 'refresh_token', refresh_token: 'rt_nope' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.code).toBe('INVALID_TOKEN');

    const missing = await tokenRequest({ grant_type: 'refresh_token' });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('INVALID_REQUEST');

    const { refreshToken } = await app.token(merchant);
    app.clock.advance(30 * 24 * 3600 * 1000 + 1000);
    const expired = await tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken });
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe('INVALID_TOKEN');
  });

  it('gives one success to 20 parallel refreshes with one token, and leaves at most one live successor', async () => {
    const { refreshToken } = await app.token(merchant);
    const results = await Promise.all(Array.from({ length: 20 }, () => tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken })));
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    expect(results.filter((r) => r.status === 401 && r.body.code === 'INVALID_TOKEN')).toHaveLength(19);
    expect(results.every((r) => r.status === 200 || r.status === 401)).toBe(true);

    // The losers were replays of a used token, so the family is revoked: no successor survives.
    const successor = ok[0]!.body.data;
    const again = await tokenRequest({ grant_type: 'refresh_token', refresh_token: successor.refresh_token });
    expect(again.status).toBe(401);
    const rows = await app.service.orm.em.fork().execute(
      `select count(*)::int as live from refresh_token rt join token_family f on f.id = rt.family_id
          where rt.family_id = (select family_id from refresh_token where token_hash = encode(sha256(?::bytea), 'hex'))
            and rt.used_at is null and f.revoked_at is null`,
      [refreshToken],
    );
    expect(rows[0].live).toBeLessThanOrEqual(1);
  });

  it('revokes a refresh token and its family (RFC 7009), answering the same for unknown tokens', async () => {
    const { accessToken, refreshToken } = await app.token(merchant);
    const revoked = await request(app.url, 'POST', '/v1/oauth/revoke', { body: { token: refreshToken } });
    expect(revoked.status).toBe(200);
    expect(revoked.body.status).toBe('success');
    expect((await tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken })).status).toBe(401);
    expect((await request(app.url, 'GET', '/v1/merchant', { token: accessToken })).status).toBe(401);

    const unknown = await request(app.url, 'POST', '/v1/oauth/revoke', { body: { token: 'rt_unknown' } });
    expect(unknown.status).toBe(200);
    const missing = await request(app.url, 'POST', '/v1/oauth/revoke', { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('INVALID_REQUEST');
  });

  it('revokes by access token too, and only for the owning client when a client authenticates', async () => {
    const mine = await app.token(merchant);
    const other = await app.createMerchant('Intruder');
    await request(app.url, 'POST', '/v1/oauth/revoke', {
      body: { token: mine.accessToken, client_id: other.merchant.clientId, client_secret: other.clientSecret },
    });
    expect((await request(app.url, 'GET', '/v1/merchant', { token: mine.accessToken })).status).toBe(200);

    await request(app.url, 'POST', '/v1/oauth/revoke', { body: { token: mine.accessToken, token_type_hint: 'access_token' } });
    expect((await request(app.url, 'GET', '/v1/merchant', { token: mine.accessToken })).status).toBe(401);
    expect((await tokenRequest({ grant_type: 'refresh_token', refresh_token: mine.refreshToken })).status).toBe(401);
  });
});
