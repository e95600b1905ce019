import { createTestApp, type TestApp } from '../../helpers/test-app';
import { graphql, request } from '../../helpers/http';
import type { MerchantCredentials } from '../../../src/modules/merchants/merchant.service';

const MERCHANT_QUERY = '{ merchant { id name clientId webhookUrl createdAt } }';

describe('GraphQL over HTTP: authentication and request errors', () => {
  let app: TestApp;
  let merchant: MerchantCredentials;
  let token: string;

  beforeAll(async () => {
    app = await createTestApp();
    merchant = await app.createMerchant('GraphQL Merchant');
    token = (await app.token(merchant)).accessToken;
  });
  afterAll(() => app.close());

  it('answers the merchant query for a valid token', async () => {
    const res = await graphql(app.url, MERCHANT_QUERY, { token });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data).toEqual({
      merchant: {
        id: merchant.merchant.id,
        name: 'GraphQL Merchant',
        clientId: merchant.merchant.clientId,
        webhookUrl: null,
        createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/),
      },
    });
    const createdAt = new Date(res.body.data.merchant.createdAt);
    expect(createdAt.getTime()).toBe(new Date(merchant.merchant.createdAt).getTime());
  });

  it('answers a second merchant with its own profile', async () => {
    const other = await app.createMerchant('Second GraphQL Merchant');
    const { accessToken } = await app.token(other);
    const res = await graphql(app.url, '{ merchant { id name } }', { token: accessToken });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ merchant: { id: other.merchant.id, name: 'Second GraphQL Merchant' } });
  });

  const expectInvalidToken = (res: Awaited<ReturnType<typeof graphql>>) => {
    expect(res.status).toBe(401);
    expect(res.body.data ?? null).toBeNull();
    expect(res.body.errors).toHaveLength(1);
    const [error] = res.body.errors!;
    expect(error!.extensions?.code).toBe('INVALID_TOKEN');
    expect(error!.message).not.toMatch(/^Context creation failed/);
    expect(error!.message.length).toBeGreaterThan(0);
    expect(JSON.stringify(res.body)).not.toMatch(/stacktrace|at .*\.ts:\d+/);
  };

  it('answers 401 INVALID_TOKEN without a token', async () => {
    expectInvalidToken(await graphql(app.url, MERCHANT_QUERY));
  });

  it.each([
    ['a garbage bearer token', 'Bearer garbage'],
    ['a JWT-shaped garbage token', 'Bearer aaa.bbb.ccc'],
    ['a non-Bearer scheme', `Basic ${Buffer.from('a:b').toString('base64')}`],
    ['an empty bearer', 'Bearer '],
  ])('answers 401 INVALID_TOKEN for %s', async (_label, authorization) => {
    const res = await request(app.url, 'POST', '/graphql', {
      body: { query: MERCHANT_QUERY },
      headers: { authorization },
    });
    expectInvalidToken(res);
  });

  it('answers 401 INVALID_TOKEN once the token has expired', async () => {
    const { accessToken } = await app.token(merchant);
    expect((await graphql(app.url, '{ merchant { id } }', { token: accessToken })).status).toBe(200);
    app.clock.advance(3600_000);
    expectInvalidToken(await graphql(app.url, '{ merchant { id } }', { token: accessToken }));
    // The shared `token` was issued even earlier: refresh it for the remaining tests.
    token = (await app.token(merchant)).accessToken;
  });

  it('answers 401 INVALID_TOKEN for a revoked token', async () => {
    const { accessToken, refreshToken } = await app.token(merchant);
    const revoked = await request(app.url, 'POST', '/v1/oauth/revoke', { body: { token: refreshToken } });
    expect(revoked.status).toBe(200);
    expectInvalidToken(await graphql(app.url, '{ merchant { id } }', { token: accessToken }));
  });

  it('answers INVALID_REQUEST for a syntax error', async () => {
    const res = await graphql(app.url, '{ merchant { id ', { token });
    expect(res.status).toBe(400);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors?.[0]?.extensions?.code).toBe('INVALID_REQUEST');
    expect(res.body.errors?.[0]?.message).toMatch(/Syntax Error/i);
  });

  it('answers INVALID_REQUEST for an unknown field', async () => {
    const res = await graphql(app.url, '{ merchant { id clientSecret } }', { token });
    expect(res.status).toBe(400);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors?.[0]?.extensions?.code).toBe('INVALID_REQUEST');
    expect(res.body.errors?.[0]?.message).toMatch(/clientSecret/);
  });

  it('answers INVALID_REQUEST for an unknown root field and for a missing query', async () => {
    const unknownRoot = await graphql(app.url, '{ nope }', { token });
    expect(unknownRoot.status).toBe(400);
    expect(unknownRoot.body.errors?.[0]?.extensions?.code).toBe('INVALID_REQUEST');

    const missing = await request(app.url, 'POST', '/graphql', { body: { variables: {} }, token });
    expect(missing.status).toBe(400);
    expect(missing.body?.errors?.[0]?.extensions?.code).toBe('INVALID_REQUEST');
  });

  it('serves queries over GET with the preflight header', async () => {
    const res = await request(app.url, 'GET', `/graphql?query=${encodeURIComponent('{merchant{id}}')}`, {
      token,
      headers: { 'apollo-require-preflight': 'true' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { merchant: { id: merchant.merchant.id } } });
  });

  it('needs a token over GET too', async () => {
    const res = await request(app.url, 'GET', `/graphql?query=${encodeURIComponent('{merchant{id}}')}`, {
      headers: { 'apollo-require-preflight': 'true' },
    });
    expect(res.status).toBe(401);
    expect(res.body.errors?.[0]?.extensions?.code).toBe('INVALID_TOKEN');
  });

  it('blocks a GET without the preflight header (CSRF prevention) as INVALID_REQUEST', async () => {
    const res = await request(app.url, 'GET', `/graphql?query=${encodeURIComponent('{merchant{id}}')}`, { token });
    expect(res.status).toBe(400);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors?.[0]?.extensions?.code).toBe('INVALID_REQUEST');
  });

  it('answers malformed JSON with INVALID_REQUEST', async () => {
    const res = await request(app.url, 'POST', '/graphql', { raw: '{"query": ', token, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body?.errors?.[0]?.extensions?.code).toBe('INVALID_REQUEST');
  });
});
