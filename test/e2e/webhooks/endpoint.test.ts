import type { MerchantCredentials } from '../../../src/modules/merchants/merchant.service';
import { graphql, request } from '../../helpers/http';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { eventually } from '../../helpers/wait';
import {
  FAST_WEBHOOKS,
  awaitDelivery,
  dbQuery,
  kycApprovedEvent,
  putEndpoint,
  setEndpoint,
  signaturesOf,
  verifies,
  verifyDelivery,
} from '../../helpers/webhooks';

const PUBLIC_URL = 'https://93.184.216.34/hooks';
const DAY_MS = 24 * 60 * 60 * 1000;

const SET_ENDPOINT = `mutation ($url: String) { setWebhookEndpoint(url: $url) { id webhookUrl updatedAt } }`;
const ROTATE = `mutation { rotateWebhookSecret { webhookSecret previousSecretExpiresAt } }`;

/** CONTRACT §2 and §8: the endpoint (SSRF-safe in production), and secret rotation with a 24 h overlap. */
describe('webhook endpoint in production mode', () => {
  let app: TestApp;
  let merchant: MerchantCredentials;
  let token: string;

  beforeAll(async () => {
    app = await createTestApp({ env: { PAYMENTS_ENV: 'production', ...FAST_WEBHOOKS } });
    merchant = await app.createMerchant('Production Merchant');
    token = (await app.token(merchant)).accessToken;
  });
  afterAll(async () => {
    await app.close();
  });

  const currentUrl = async () => (await request(app.url, 'GET', '/v1/merchant', { token })).body.data.webhook_url as string | null;

  const refused: Array<[string, string]> = [
    ['the http scheme', 'http://93.184.216.34/hooks'],
    ['credentials in the URL', 'https://user:secret@93.184.216.34/hooks'],
    ['loopback IPv4', 'https://127.0.0.1/hooks'],
    ['loopback IPv6', 'https://[::1]/hooks'],
    ['private 10/8', 'https://10.0.0.1/hooks'],
    ['private 172.16/12', 'https://172.16.5.4/hooks'],
    ['private 192.168/16', 'https://192.168.0.10/hooks'],
    ['the cloud metadata address', 'https://169.254.169.254/latest/meta-data/'],
    ['CGNAT', 'https://100.64.0.1/hooks'],
    ['unique-local IPv6', 'https://[fd00::1]/hooks'],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/hooks'],
    ['the unspecified address', 'https://0.0.0.0/hooks'],
    ['decimal loopback', 'https://2130706433/hooks'],
    ['hex loopback', 'https://0x7f000001/hooks'],
    ['a host name resolving to loopback', 'https://localhost/hooks'],
    ['a host name resolving to loopback, with a port', 'https://localhost:8443/hooks'],
  ];

  it.each(refused)('refuses %s (%s) with 400 INVALID_REQUEST on url, and keeps the endpoint', async (_label, url) => {
    await setEndpoint(app.url, token, PUBLIC_URL);
    const res = await putEndpoint(app.url, token, url);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 'error', code: 'INVALID_REQUEST' });
    expect(res.body.details).toEqual([{ field: 'url', issue: expect.any(String) }]);
    expect(await currentUrl()).toBe(PUBLIC_URL);
  });

  it('accepts a public https URL by IP literal, and null removes it', async () => {
    await setEndpoint(app.url, token, null);
    const saved = await putEndpoint(app.url, token, PUBLIC_URL);
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ merchant_id: merchant.merchant.id, webhook_url: PUBLIC_URL });
    expect(await currentUrl()).toBe(PUBLIC_URL);

    const removed = await putEndpoint(app.url, token, null);
    expect(removed.status).toBe(200);
    expect(removed.body.data.webhook_url).toBeNull();
    expect(await currentUrl()).toBeNull();
  });

  it('refuses a missing url, and a url that is not a string', async () => {
    const missing = await request(app.url, 'PUT', '/v1/webhooks/endpoint', { token, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.details).toEqual([{ field: 'url', issue: expect.any(String) }]);
    const wrongType = await putEndpoint(app.url, token, 42);
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.details[0].field).toBe('url');
  });

  it('needs a bearer token', async () => {
    expect((await request(app.url, 'PUT', '/v1/webhooks/endpoint', { body: { url: PUBLIC_URL } })).status).toBe(401);
    expect((await request(app.url, 'POST', '/v1/webhooks/secret/rotate')).status).toBe(401);
  });

  describe('at delivery time, the address is checked again', () => {
    let receiver: Receiver;
    beforeAll(async () => {
      receiver = await startReceiver(() => 200);
    });
    afterAll(async () => {
      await receiver.close();
    });

    // The endpoint was public when registered; now it points somewhere private, as when its
    // DNS name starts resolving to a private address. The row is changed directly, behind the
    // API's back, so only the delivery-time check stands between the event and the receiver.
    it.each([
      ['an http URL to the loopback receiver', (port: number) => `http://127.0.0.1:${port}/hooks`, /https/],
      ['an https URL to a loopback IP', (port: number) => `https://127.0.0.1:${port}/hooks`, /loopback/],
      ['a host name that now resolves to loopback', (port: number) => `https://localhost:${port}/hooks`, /loopback/],
    ])('refuses %s: nothing is sent, and every attempt is recorded with the error', async (_label, target, reason) => {
      await setEndpoint(app.url, token, PUBLIC_URL);
      const url = target(receiver.port);
      await dbQuery(app.db.url, 'update merchant set webhook_url = $1 where id = $2', [url, merchant.merchant.id]);

      const { eventId } = await kycApprovedEvent(app, token);
      const event = await awaitDelivery(app, token, eventId);
      expect(event.delivery_status).toBe('failed');
      expect(event.attempts).toHaveLength(4); // the first attempt and three retries
      for (const [i, attempt] of event.attempts.entries()) {
        expect(attempt).toMatchObject({ attempt_number: i + 1, url, status_code: null, success: false });
        expect(attempt.error).toMatch(reason);
      }
      expect(receiver.received).toHaveLength(0);
    });
  });

  it('GraphQL setWebhookEndpoint: the same refusals (extensions.code and details on url), a public https URL, and null removes', async () => {
    for (const [, url] of refused) {
      const res = await graphql(app.url, SET_ENDPOINT, { token, variables: { url } });
      expect(res.body.data).toBeNull();
      expect(res.body.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_REQUEST', details: [{ field: 'url', issue: expect.any(String) }] });
    }
    const saved = await graphql(app.url, SET_ENDPOINT, { token, variables: { url: PUBLIC_URL } });
    expect(saved.body.errors).toBeUndefined();
    expect(saved.body.data.setWebhookEndpoint).toMatchObject({ id: merchant.merchant.id, webhookUrl: PUBLIC_URL });
    expect(await currentUrl()).toBe(PUBLIC_URL);

    // An omitted argument is not a removal: only an explicit null removes the endpoint.
    const omitted = await graphql(
      app.url,
      `
        mutation {
          setWebhookEndpoint {
            webhookUrl
          }
        }
      `,
      { token },
    );
    expect(omitted.body.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_REQUEST', details: [{ field: 'url', issue: expect.any(String) }] });
    expect(await currentUrl()).toBe(PUBLIC_URL);

    const removed = await graphql(app.url, SET_ENDPOINT, { token, variables: { url: null } });
    expect(removed.body.data.setWebhookEndpoint.webhookUrl).toBeNull();
    expect(await currentUrl()).toBeNull();
  });
});

describe('webhook endpoint and secret rotation in sandbox mode', () => {
  let app: TestApp;
  let receiver: Receiver;

  beforeAll(async () => {
    app = await createTestApp({ env: FAST_WEBHOOKS });
    receiver = await startReceiver(() => 200);
  });
  afterAll(async () => {
    await receiver.close();
    await app.close();
  });

  it('accepts http on loopback (http://127.0.0.1:port) for local testing, still refuses the metadata address, and null removes', async () => {
    const merchant = await app.createMerchant('Sandbox Endpoint');
    const { accessToken: token } = await app.token(merchant);
    const saved = await putEndpoint(app.url, token, receiver.url);
    expect(saved.status).toBe(200);
    expect(saved.body.data.webhook_url).toBe(receiver.url);

    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://[fe80::1]/hooks', 'http://user:pw@127.0.0.1/hooks']) {
      const res = await putEndpoint(app.url, token, url);
      expect(res.status).toBe(400);
      expect(res.body.details[0].field).toBe('url');
    }

    const removed = await putEndpoint(app.url, token, null);
    expect(removed.status).toBe(200);
    expect(removed.body.data.webhook_url).toBeNull();
  });

  it('rotation: a new secret once (no-store); both secrets sign for 24 h, then only the new one', async () => {
    const merchant = await app.createMerchant('Rotating Secrets');
    let token = (await app.token(merchant)).accessToken;
    await setEndpoint(app.url, token, receiver.url);
    const oldSecret = merchant.webhookSecret;

    const rotatedAt = app.clock.now();
    const rotated = await request(app.url, 'POST', '/v1/webhooks/secret/rotate', { token });
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get('cache-control')).toBe('no-store');
    const newSecret: string = rotated.body.data.webhook_secret;
    expect(newSecret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(newSecret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(newSecret).not.toBe(oldSecret);
    expect(rotated.body.data.previous_secret_expires_at).toBe(new Date(rotatedAt.getTime() + DAY_MS).toISOString());
    // Shown once: the merchant profile never carries it.
    const profile = await request(app.url, 'GET', '/v1/merchant', { token });
    expect(profile.text).not.toContain(newSecret);
    expect(profile.text).not.toContain(newSecret.slice('whsec_'.length));
    // …but it says until when the old one still signs, through both doors.
    expect(profile.body.data.webhook_secret_overlap_until).toBe(rotated.body.data.previous_secret_expires_at);
    const overlapQuery = await graphql(app.url, '{ merchant { webhookSecretOverlapUntil } }', { token });
    expect(overlapQuery.body.data.merchant.webhookSecretOverlapUntil).toBe(rotated.body.data.previous_secret_expires_at);

    // During the overlap: two signatures, and each secret alone verifies.
    const during = await kycApprovedEvent(app, token);
    const duringDelivery = await awaitOneFor(during.eventId);
    expect(signaturesOf(duringDelivery)).toHaveLength(2);
    expect(verifyDelivery(newSecret, duringDelivery).id).toBe(during.eventId);
    expect(verifyDelivery(oldSecret, duringDelivery).id).toBe(during.eventId);

    // After 24 h and a second: one signature, which only the new secret verifies.
    app.clock.advance(DAY_MS + 1000);
    token = (await app.token(merchant)).accessToken;
    const after = await kycApprovedEvent(app, token);
    const afterDelivery = await awaitOneFor(after.eventId);
    expect(signaturesOf(afterDelivery)).toHaveLength(1);
    expect(verifies(newSecret, afterDelivery)).toBe(true);
    expect(verifies(oldSecret, afterDelivery)).toBe(false);
    expect((await request(app.url, 'GET', '/v1/merchant', { token })).body.data.webhook_secret_overlap_until).toBeNull();

    // GraphQL rotateWebhookSecret: the same operation. The REST-rotated secret is now the previous one.
    const rotatedAgainAt = app.clock.now();
    const viaGraphql = await graphql(app.url, ROTATE, { token });
    expect(viaGraphql.body.errors).toBeUndefined();
    const { webhookSecret: graphqlSecret, previousSecretExpiresAt } = viaGraphql.body.data.rotateWebhookSecret;
    expect(graphqlSecret).toMatch(/^whsec_/);
    expect(graphqlSecret).not.toBe(newSecret);
    expect(previousSecretExpiresAt).toBe(new Date(rotatedAgainAt.getTime() + DAY_MS).toISOString());
    const third = await kycApprovedEvent(app, token);
    const thirdDelivery = await awaitOneFor(third.eventId);
    expect(signaturesOf(thirdDelivery)).toHaveLength(2);
    expect(verifies(graphqlSecret, thirdDelivery)).toBe(true);
    expect(verifies(newSecret, thirdDelivery)).toBe(true);
    expect(verifies(oldSecret, thirdDelivery)).toBe(false);
  });

  it('a second rotation within 24 h keeps the first one’s promise: each rotated-out secret signs until its own expiry', async () => {
    const merchant = await app.createMerchant('Twice Rotated');
    let token = (await app.token(merchant)).accessToken;
    await setEndpoint(app.url, token, receiver.url);
    const original = merchant.webhookSecret;

    const firstAt = app.clock.now();
    const first = await request(app.url, 'POST', '/v1/webhooks/secret/rotate', { token });
    expect(first.body.data.previous_secret_expires_at).toBe(new Date(firstAt.getTime() + DAY_MS).toISOString());
    const firstRotated: string = first.body.data.webhook_secret;
    app.clock.advance(6 * 60 * 60 * 1000);
    token = (await app.token(merchant)).accessToken;
    const second = await request(app.url, 'POST', '/v1/webhooks/secret/rotate', { token });
    const current: string = second.body.data.webhook_secret;

    // Three secrets sign: the current one and both rotated out.
    const both = await kycApprovedEvent(app, token);
    const bothDelivery = await awaitOneFor(both.eventId);
    expect(signaturesOf(bothDelivery)).toHaveLength(3);
    expect([original, firstRotated, current].map((secret) => verifies(secret, bothDelivery))).toEqual([true, true, true]);

    // One second past the time the first rotation promised: the original stops; the other two still sign.
    app.clock.set(new Date(firstAt.getTime() + DAY_MS + 1000));
    token = (await app.token(merchant)).accessToken;
    const later = await kycApprovedEvent(app, token);
    const laterDelivery = await awaitOneFor(later.eventId);
    expect(signaturesOf(laterDelivery)).toHaveLength(2);
    expect([original, firstRotated, current].map((secret) => verifies(secret, laterDelivery))).toEqual([false, true, true]);
  });

  it('at most 10 rotated-out secrets sign at once: an 11th rotation within 24 h is 409 INVALID_STATE and changes nothing', async () => {
    const merchant = await app.createMerchant('Rotation Spree');
    const { accessToken: token } = await app.token(merchant);
    await setEndpoint(app.url, token, receiver.url);
    let latest = merchant.webhookSecret;
    for (let i = 0; i < 10; i++) {
      const rotated = await request(app.url, 'POST', '/v1/webhooks/secret/rotate', { token });
      expect(rotated.status).toBe(200);
      latest = rotated.body.data.webhook_secret;
    }
    const refused = await request(app.url, 'POST', '/v1/webhooks/secret/rotate', { token });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'INVALID_STATE', message: expect.stringContaining('rotate again after') });
    const viaGraphql = await graphql(app.url, ROTATE, { token });
    expect(viaGraphql.body.errors?.[0]?.extensions?.code).toBe('INVALID_STATE');
    // The last secret shown is still the current one: deliveries verify under it, with 11 signatures.
    const event = await kycApprovedEvent(app, token);
    const delivery = await awaitOneFor(event.eventId);
    expect(signaturesOf(delivery)).toHaveLength(11);
    expect(verifies(latest, delivery)).toBe(true);
  });

  /** The one request the receiver got for an event (waits for it). */
  async function awaitOneFor(eventId: string) {
    const of = () => receiver.received.filter((r) => r.headers['webhook-id'] === eventId);
    const got = await eventually(async () => of().length >= 1, { attempts: 300, everyMs: 50 });
    if (!got) throw new Error(`no delivery of ${eventId}`);
    expect(of()).toHaveLength(1);
    return of()[0]!;
  }
});
