import type { DestinationStream } from 'pino';
import { cardPaymentBody, initiatePayment } from '../../helpers/payments';
import { graphql, request } from '../../helpers/http';
import { createTestApp, type TestApp } from '../../helpers/test-app';

describe('request ids', () => {
  const lines: Array<Record<string, any>> = [];
  const capture: DestinationStream = { write: (chunk: string) => void lines.push(JSON.parse(chunk)) };
  let app: TestApp;
  let token: string;

  beforeAll(async () => {
    app = await createTestApp({ logDestination: capture });
    token = (await app.token(await app.createMerchant('Request Ids'))).accessToken;
  });
  afterAll(() => app.close());

  const linesOf = (reqId: string) => lines.filter((l) => l.reqId === reqId);

  it('a well-formed x-request-id is kept, echoed, and on the request’s lines once each', async () => {
    const id = 'trace-7f3a.2026:abc_1';
    const res = await request(app.url, 'POST', '/v1/payments/initiate', { token, body: cardPaymentBody(), headers: { 'x-request-id': id } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe(id);
    const mine = linesOf(id);
    // The access line (Fastify's request logger) and the service's line (the root logger) alike, once each.
    expect(mine.map((l) => l.msg)).toEqual(expect.arrayContaining(['request completed']));
    const raw = JSON.stringify(mine);
    expect(raw.match(/"reqId"/g)?.length).toBe(mine.length);
  });

  it('a malformed or oversized one is replaced by a new id, which is echoed', async () => {
    for (const bad of ['has spaces in it', 'x'.repeat(129), '<script>', 'a;b']) {
      const res = await request(app.url, 'GET', '/v1/merchant', { token, headers: { 'x-request-id': bad } });
      const echoed = res.headers.get('x-request-id');
      expect(echoed).toMatch(/^[0-9a-f-]{36}$/);
      expect(lines.some((l) => JSON.stringify(l).includes(bad))).toBe(false);
    }
  });

  it('without one, each request gets its own', async () => {
    const a = await request(app.url, 'GET', '/v1/merchant', { token });
    const b = await request(app.url, 'GET', '/v1/merchant', { token });
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });

  it('lines a service writes through the root logger during a request carry the request id', async () => {
    const tokenId = 'svc-token-issued';
    const merchant = await app.createMerchant('Another');
    await request(app.url, 'POST', '/v1/oauth/token', {
      body: { grant_type: 'client_credentials', client_id: merchant.merchant.clientId, client_secret: merchant.clientSecret },
      headers: { 'x-request-id': tokenId },
    });
    const mine = linesOf(tokenId);
    expect(mine.map((l) => l.msg)).toEqual(expect.arrayContaining(['access token issued (client_credentials)', 'request completed']));
    expect(JSON.stringify(mine).match(/"reqId"/g)?.length).toBe(mine.length);
  });

  it('GraphQL requests carry their id too', async () => {
    const res = await request(app.url, 'POST', '/graphql', {
      token,
      body: { query: '{ merchant { id } }' },
      headers: { 'x-request-id': 'gql-id-1' },
    });
    expect(res.headers.get('x-request-id')).toBe('gql-id-1');
    expect(linesOf('gql-id-1').map((l) => l.path)).toContain('/graphql');
    expect((await graphql(app.url, '{ merchant { id } }', { token })).status).toBe(200);
  });

  it('a payment through the service keeps working with ids (sanity)', async () => {
    expect((await initiatePayment(app, token, cardPaymentBody())).status).toBe(200);
  });
});
