import type { Client } from 'graphql-ws';
import { request } from '../../helpers/http';
import { cardPaymentBody, initiatePayment } from '../../helpers/payments';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { eventually } from '../../helpers/wait';
import { collect, connect } from '../../helpers/ws';

const ALL = 'subscription { transactionStatusChanged { reference status } }';

/**
 * A subscription lives only as long as its token: revocation closes the socket at
 * once (4403), expiry closes it at the token's expiry, and an event that arrives
 * after either ends the operation with INVALID_TOKEN instead of being delivered.
 */
describe('GraphQL subscriptions end with their token', () => {
  let app: TestApp;
  let merchant: Awaited<ReturnType<TestApp['createMerchant']>>;
  const clients: Client[] = [];

  beforeAll(async () => {
    app = await createTestApp();
    merchant = await app.createMerchant('Session End');
  });
  afterAll(async () => {
    for (const c of clients) await c.dispose();
    await app.close();
  });

  /** A socket that records its close code, with one subscription to every transaction; live once a first event arrived. */
  async function liveSubscription(accessToken: string) {
    const closed: number[] = [];
    const client = connect(app, accessToken, (code) => closed.push(code));
    clients.push(client);
    const sub = collect(client, ALL);
    // Live once an event reaches it (a sentinel payment), rather than after a timed wait.
    const probe = await initiatePayment(app, (await app.token(merchant)).accessToken, cardPaymentBody());
    expect(await eventually(async () => sub.received.some((m) => m.data?.transactionStatusChanged?.reference === probe.body.data.reference))).toBe(true);
    return { closed, sub };
  }

  it('revoking the token family closes the socket with 4403', async () => {
    const { accessToken, refreshToken } = await app.token(merchant);
    const { closed } = await liveSubscription(accessToken);
    expect(closed).toEqual([]);
    const revoked = await request(app.url, 'POST', '/v1/oauth/revoke', { body: { token: refreshToken } });
    expect(revoked.status).toBe(200);
    expect(await eventually(async () => closed.length > 0)).toBe(true);
    expect(closed).toEqual([4403]);
  });

  it('an event after the token expired is not delivered: the operation ends with INVALID_TOKEN', async () => {
    const { accessToken } = await app.token(merchant);
    const { sub } = await liveSubscription(accessToken);
    const before = sub.received.length;
    app.clock.advance(3600 * 1000); // the token's hour is up, by the service's clock
    const late = await initiatePayment(app, (await app.token(merchant)).accessToken, cardPaymentBody());
    expect(late.status).toBe(200);
    expect(await eventually(async () => sub.errors.length > 0)).toBe(true);
    expect(sub.received.slice(before).some((m) => m.data?.transactionStatusChanged?.reference === late.body.data.reference)).toBe(false);
    expect(JSON.stringify(sub.errors)).toContain('INVALID_TOKEN');
  });

  it('a socket is closed with 4403 when its token expires, even with nothing to deliver', async () => {
    const { accessToken } = await app.token(merchant);
    app.clock.advance(3600 * 1000 - 400); // 400 ms of the token's hour left
    const closed: number[] = [];
    const client = connect(app, accessToken, (code) => closed.push(code));
    clients.push(client);
    collect(client, ALL);
    expect(await eventually(async () => closed.length > 0, { attempts: 100, everyMs: 50 })).toBe(true);
    expect(closed).toEqual([4403]);
  });
});
