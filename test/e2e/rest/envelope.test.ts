import { SignJWT } from 'jose';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { request, type HttpResult } from '../../helpers/http';
import type { MerchantCredentials } from '../../../src/modules/merchants/merchant.service';

/** The default BODY_LIMIT_BYTES (1 MiB). */
const DEFAULT_BODY_LIMIT = 1_048_576;

describe('REST error envelope', () => {
  let app: TestApp;
  let merchant: MerchantCredentials;

  beforeAll(async () => {
    app = await createTestApp();
    merchant = await app.createMerchant('Envelope Merchant');
  });
  afterAll(() => app.close());

  /** Exactly `{status:'error', code, message}`: no details, no stack, nothing else. */
  const expectError = (res: HttpResult, status: number, code: string) => {
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual({ status: 'error', code, message: expect.any(String) });
    expect(res.body.message.length).toBeGreaterThan(0);
  };

  const rawPost = (path: string, raw: string, contentType: string, headers: Record<string, string> = {}) =>
    request(app.url, 'POST', path, { raw, headers: { 'content-type': contentType, ...headers } });

  describe('malformed and unsupported bodies', () => {
    it.each([
      ['a truncated object', '{"grant_type": "client_credentials"'],
      ['a trailing comma', '{"grant_type": "client_credentials",}'],
      ['bare words', 'grant_type=client_credentials'],
      ['single quotes', "{'grant_type': 'client_credentials'}"],
    ])('answers 400 INVALID_REQUEST for malformed JSON (%s) on POST /v1/oauth/token', async (_label, raw) => {
      const res = await rawPost('/v1/oauth/token', raw, 'application/json');
      expectError(res, 400, 'INVALID_REQUEST');
      expect(res.body.message).toMatch(/json/i);
    });

    it.each([['text/plain'], ['text/plain; charset=utf-8'], ['application/xml']])(
      'answers 400 INVALID_REQUEST for the unsupported content type %s',
      async (contentType) => {
        const raw = contentType.includes('xml') ? '<token><grant_type>client_credentials</grant_type></token>' : 'grant_type=client_credentials';
        const res = await rawPost('/v1/oauth/token', raw, contentType);
        expectError(res, 400, 'INVALID_REQUEST');
        expect(res.body.message).toMatch(/content-type/i);
      },
    );

    it('answers 400 INVALID_REQUEST for an empty body declared as application/json', async () => {
      const res = await rawPost('/v1/oauth/token', '', 'application/json');
      expectError(res, 400, 'INVALID_REQUEST');
      expect(res.body.message).toMatch(/empty/i);
    });

    it('answers 400 INVALID_REQUEST, naming the limit, for a body over 1 MiB', async () => {
      const pad = 'x'.repeat(DEFAULT_BODY_LIMIT + 16);
      const res = await request(app.url, 'POST', '/v1/oauth/token', { body: { grant_type: 'client_credentials', pad } });
      expectError(res, 400, 'INVALID_REQUEST');
      expect(res.body.message).toContain(String(DEFAULT_BODY_LIMIT));
    });

    it('still reads a JSON body just under the limit (the limit is not lower than 1 MiB)', async () => {
      const pad = 'x'.repeat(DEFAULT_BODY_LIMIT - 1024);
      const res = await request(app.url, 'POST', '/v1/oauth/token', {
        body: {
          grant_type: 'client_credentials',
          client_id: merchant.merchant.clientId,
          client_secret: merchant.clientSecret,
          pad,
        },
      });
      expect(res.status).toBe(200);
      expect(res.body.data.token_type).toBe('Bearer');
    });
  });

  describe('unknown routes', () => {
    it.each([
      ['GET', '/v1/does-not-exist'],
      ['GET', '/nope'],
      ['GET', '/nope?with=query'],
      ['POST', '/v1/does-not-exist'],
    ])('answers 404 NOT_FOUND for %s %s', async (method, path) => {
      const res = await request(app.url, method, path);
      expectError(res, 404, 'NOT_FOUND');
      expect(res.body.message).not.toContain('with=query');
    });

    it.each([
      ['GET', '/v1/oauth/token'],
      ['DELETE', '/v1/merchant'],
      ['PUT', '/v1/oauth/revoke'],
    ])('answers 404 NOT_FOUND for a wrong method on a known path (%s %s)', async (method, path) => {
      const res = await request(app.url, method, path);
      expectError(res, 404, 'NOT_FOUND');
    });
  });

  describe('unexpected server failures', () => {
    it('answers 500 SERVER_ERROR with exactly status/code/message: no stack, no SQL, no table or column names', async () => {
      const { accessToken } = await app.token(merchant);
      const em = app.service.orm.em.fork();
      await em.execute('alter table merchant rename to merchant_gone');
      let res: HttpResult;
      try {
        res = await request(app.url, 'GET', '/v1/merchant', { token: accessToken });
      } finally {
        await app.service.orm.em.fork().execute('alter table merchant_gone rename to merchant');
      }
      expect(res.status).toBe(500);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(Object.keys(res.body).sort()).toEqual(['code', 'message', 'status']);
      expect(res.body).toEqual({ status: 'error', code: 'SERVER_ERROR', message: expect.any(String) });
      expect(res.headers.get('x-request-id')).toBeTruthy();

      const text = res.text.toLowerCase();
      for (const leak of [
        'merchant',
        'merchant_gone',
        'client_secret_hash',
        'webhook_secret_sealed',
        'select',
        ' from ',
        'relation',
        'does not exist',
        'postgres',
        'sql',
        'stack',
        'node_modules',
        '.ts:',
        '.js:',
        '    at ',
      ]) {
        expect(text).not.toContain(leak);
      }
      expect(res.text).not.toMatch(/\bat \S+ \(/);

      // The service recovers once the table is back.
      const after = await request(app.url, 'GET', '/v1/merchant', { token: accessToken });
      expect(after.status).toBe(200);
      expect(after.body.data.merchant_id).toBe(merchant.merchant.id);
    });
  });

  describe('x-request-id', () => {
    it('is on every response: success, 400, 401, 404 and 500-class paths alike, and unique per request', async () => {
      const { accessToken } = await app.token(merchant);
      const responses = [
        await request(app.url, 'GET', '/health'),
        await request(app.url, 'GET', '/v1/merchant', { token: accessToken }),
        await request(app.url, 'GET', '/v1/merchant'),
        await request(app.url, 'GET', '/nope'),
        await rawPost('/v1/oauth/token', '{', 'application/json'),
        await rawPost('/v1/oauth/token', 'x', 'text/plain'),
        await rawPost('/v1/oauth/token', '', 'application/json'),
        await request(app.url, 'POST', '/v1/oauth/token', { body: { grant_type: 'client_credentials', client_id: 'ci_x', client_secret: 'sk_x' } }),
        await rawPost('/graphql', '{"query":', 'application/json'),
        await request(app.url, 'POST', '/graphql', { body: { query: '{ __typename }' }, token: accessToken }),
      ];
      expect(responses.map((r) => r.status)).toEqual([200, 200, 401, 404, 400, 400, 400, 401, 400, 200]);
      const ids = responses.map((r) => r.headers.get('x-request-id'));
      for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('is on an oversized-body rejection too', async () => {
      const res = await request(app.url, 'POST', '/v1/oauth/token', { body: { pad: 'y'.repeat(DEFAULT_BODY_LIMIT + 1) } });
      expect(res.status).toBe(400);
      expect(res.headers.get('x-request-id')).toBeTruthy();
    });
  });

  describe('bearer authentication on GET /v1/merchant', () => {
    const expectInvalidToken = (res: HttpResult) => {
      expectError(res, 401, 'INVALID_TOKEN');
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
      expect(res.text).not.toContain(merchant.merchant.id);
    };

    it('answers 401 INVALID_TOKEN without an Authorization header', async () => {
      expectInvalidToken(await request(app.url, 'GET', '/v1/merchant'));
    });

    it.each([
      ['a garbage token', 'Bearer garbage'],
      ['an empty bearer', 'Bearer '],
      ['a bare scheme', 'Bearer'],
      ['a three-part non-JWT', 'Bearer aaa.bbb.ccc'],
    ])('answers 401 INVALID_TOKEN for %s', async (_label, authorization) => {
      expectInvalidToken(await request(app.url, 'GET', '/v1/merchant', { headers: { authorization } }));
    });

    it('answers 401 INVALID_TOKEN for a well-formed token signed with another key', async () => {
      const now = Math.floor(app.clock.now().getTime() / 1000);
      const forged = await new SignJWT({ cid: merchant.merchant.clientId, fam: '00000000-0000-4000-8000-000000000000' })
        .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
        .setSubject(merchant.merchant.id)
        .setIssuer('payments-gateway')
        .setAudience('payments-gateway:v1')
        .setJti('forged')
        .setIssuedAt(now)
        .setExpirationTime(now + 3600)
        .sign(new TextEncoder().encode('another-signing-key-0123456789abcdefghijklmnopqrstuvwxyz'));
      expectInvalidToken(await request(app.url, 'GET', '/v1/merchant', { token: forged }));
    });

    it('answers 401 INVALID_TOKEN for an unsigned (alg none) token with valid claims', async () => {
      const now = Math.floor(app.clock.now().getTime() / 1000);
      const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
      const header = b64({ alg: 'none', typ: 'at+jwt' });
      const payload = b64({
        sub: merchant.merchant.id,
        cid: merchant.merchant.clientId,
        fam: '00000000-0000-4000-8000-000000000000',
        iss: 'payments-gateway',
        aud: 'payments-gateway:v1',
        iat: now,
        exp: now + 3600,
      });
      expectInvalidToken(await request(app.url, 'GET', '/v1/merchant', { headers: { authorization: `Bearer ${header}.${payload}.` } }));
    });

    it.each([
      ['Token', (t: string) => `Token ${t}`],
      ['Basic', (t: string) => `Basic ${t}`],
      ['no scheme', (t: string) => t],
    ])('answers 401 INVALID_TOKEN for a valid token under a non-Bearer scheme (%s)', async (_label, build) => {
      const { accessToken } = await app.token(merchant);
      expectInvalidToken(await request(app.url, 'GET', '/v1/merchant', { headers: { authorization: build(accessToken) } }));
      // The same token is fine with the right scheme, so only the scheme was refused.
      expect((await request(app.url, 'GET', '/v1/merchant', { token: accessToken })).status).toBe(200);
    });

    it('answers 401 INVALID_TOKEN for an expired token', async () => {
      const { accessToken } = await app.token(merchant);
      expect((await request(app.url, 'GET', '/v1/merchant', { token: accessToken })).status).toBe(200);
      app.clock.advance(3600_000);
      expectInvalidToken(await request(app.url, 'GET', '/v1/merchant', { token: accessToken }));
    });
  });

  describe('GraphQL over HTTP', () => {
    it('answers HTTP 400 with a GraphQL-shaped INVALID_REQUEST error for a malformed JSON body', async () => {
      const res = await rawPost('/graphql', '{"query": "{ __typename }"', 'application/json');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ errors: [{ message: expect.any(String), extensions: { code: 'INVALID_REQUEST' } }] });
      expect(res.body.errors).toHaveLength(1);
      expect(res.body.status).toBeUndefined();
      expect(res.body.data).toBeUndefined();
      expect(res.headers.get('x-request-id')).toBeTruthy();
    });

    it('answers HTTP 400 with a GraphQL-shaped INVALID_REQUEST error for an unsupported content type', async () => {
      const res = await rawPost('/graphql', '{ __typename }', 'text/plain');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ errors: [{ extensions: { code: 'INVALID_REQUEST' } }] });
      expect(res.body.status).toBeUndefined();
    });
  });
});
