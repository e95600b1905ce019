import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPaymentsClient, unwrap, type PaymentsClient, type Schemas } from '../../../sdk/src';
import { sleep } from '../../../sdk/src/retries';

/** One request the test server got. */
interface Attempt {
  method: string;
  path: string;
  idempotencyKey: string | null;
  authorization: string | null;
  body: string;
}

/** A status with its headers and JSON body; 'reset' drops the connection unanswered (a lost connection). */
type Scripted = { status: number; headers?: Record<string, string>; body?: unknown } | 'reset';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ok = (data: unknown): Scripted => ({ status: 200, body: { status: 'success', message: 'OK', data } });
const failure = (status: number, code: string, headers: Record<string, string> = {}): Scripted => ({
  status,
  headers,
  body: { status: 'error', code, message: `scripted ${status}` },
});
const merchant = { client_id: 'client-1', name: 'Scripted' };

/**
 * The SDK's retries over real HTTP: a test server on 127.0.0.1 answers each "METHOD /path" from a
 * script (429 with Retry-After then 200, 503 then 200, a dropped connection…) and records every
 * attempt with its Idempotency-Key. The client's waits go through a recording sleep that waits for real.
 */
describe('SDK retries against a scripted server', () => {
  let server: http.Server;
  let baseUrl: string;
  const attempts: Attempt[] = [];
  const scripts = new Map<string, Scripted[]>();
  let waits: number[] = [];

  const script = (route: string, ...answers: Scripted[]) => scripts.set(route, answers);
  const attemptsOf = (path: string) => attempts.filter((a) => a.path === path);
  const client = (retry?: { maxAttempts?: number }): PaymentsClient =>
    createPaymentsClient({
      baseUrl,
      clientId: 'client-1',
      clientSecret: 'secret-1',
      retry,
      sleep: (ms) => {
        waits.push(ms);
        return sleep(ms);
      },
    });

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        const path = new URL(req.url!, 'http://127.0.0.1').pathname;
        attempts.push({
          method: req.method!,
          path,
          idempotencyKey: (req.headers['idempotency-key'] as string | undefined) ?? null,
          authorization: req.headers.authorization ?? null,
          body,
        });
        const answer =
          path === '/v1/oauth/token'
            ? ok({ access_token: 'access-1', token_type: 'Bearer', expires_in: 3600, refresh_token: 'refresh-1' })
            : (scripts.get(`${req.method} ${path}`)?.shift() ?? failure(500, 'UNSCRIPTED'));
        if (answer === 'reset') return void req.socket.destroy();
        res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(JSON.stringify(answer.body ?? {}));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  beforeEach(() => {
    attempts.length = 0;
    scripts.clear();
    waits = [];
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const collectionBody: Schemas['CollectionRequest'] = {
    customer_uuid: '3f2c9a1e-8b7d-4c2a-9e1f-0a1b2c3d4e5f',
    amount: '1500',
    currency: 'KES',
    country_code: 'KE',
    channel_id: 'ke_momo_deposit',
    network_id: 'ke_mpesa',
    account_type: 'momo',
    dial_code: '+254',
    account_number: '712345678',
    reason: 'Invoice 42',
    reference: 'inv-42',
  };

  it('a create answered 429 with Retry-After: 1 waits 1 s and is sent again with the key it generated, then gets its 200', async () => {
    script('POST /v1/crossborder/global-collection', failure(429, 'RATE_LIMITED', { 'retry-after': '1' }), ok({ reference: 'col_1', status: 'processing' }));
    const collection = unwrap(await client().POST('/v1/crossborder/global-collection', { body: collectionBody }));
    expect(collection).toEqual({ reference: 'col_1', status: 'processing' });

    const sent = attemptsOf('/v1/crossborder/global-collection');
    expect(sent).toHaveLength(2);
    expect(sent[0]!.idempotencyKey).toMatch(UUID);
    expect(sent.map((a) => a.idempotencyKey)).toEqual([sent[0]!.idempotencyKey, sent[0]!.idempotencyKey]);
    expect(sent[1]!.body).toBe(sent[0]!.body);
    expect(JSON.parse(sent[1]!.body)).toEqual(collectionBody);
    expect(sent.map((a) => a.authorization)).toEqual(['Bearer access-1', 'Bearer access-1']);
    expect(waits).toEqual([1000]);
  });

  it('a read answered 503 without Retry-After backs off (250–500 ms the first time) and is sent again', async () => {
    script('GET /v1/merchant', failure(503, 'PROVIDER_UNAVAILABLE'), ok(merchant));
    expect(unwrap(await client().GET('/v1/merchant'))).toEqual(merchant);
    expect(attemptsOf('/v1/merchant').map((a) => a.idempotencyKey)).toEqual([null, null]);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(250);
    expect(waits[0]).toBeLessThanOrEqual(500);
  });

  it('a create with the caller’s key, answered 503 with an HTTP-date Retry-After, is sent again with that same key', async () => {
    const at = new Date(Math.ceil(Date.now() / 1000) * 1000 + 1000).toUTCString();
    script('POST /v1/checkout/sessions', failure(503, 'PROVIDER_UNAVAILABLE', { 'retry-after': at }), ok({ id: 'cs_1', status: 'open' }));
    const body = { amount: '100.00', currency: 'NGN', reference: 'order-1', customer: { email: 'ada@example.com' }, redirect_url: 'https://shop.example/r' };
    const session = await client().checkout.sessions.create(body, { idempotencyKey: 'order-1-attempt' });
    expect(session).toEqual({ id: 'cs_1', status: 'open' });
    expect(attemptsOf('/v1/checkout/sessions').map((a) => a.idempotencyKey)).toEqual(['order-1-attempt', 'order-1-attempt']);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(0);
    expect(waits[0]).toBeLessThanOrEqual(2000);
  });

  it('a lost connection: a read or a keyed create is sent again; a POST without a key is not, nor after its 503', async () => {
    script('GET /v1/merchant', 'reset', ok(merchant));
    expect(unwrap(await client().GET('/v1/merchant'))).toEqual(merchant);
    script('POST /v1/crossborder/global-collection', 'reset', ok({ reference: 'col_2' }));
    expect(unwrap(await client().POST('/v1/crossborder/global-collection', { body: collectionBody }))).toEqual({ reference: 'col_2' });
    const keys = attemptsOf('/v1/crossborder/global-collection').map((a) => a.idempotencyKey);
    expect(keys).toEqual([keys[0], keys[0]]);

    // The rotation takes no Idempotency-Key (it answers a new secret once): it is never sent twice.
    script('POST /v1/webhooks/secret/rotate', 'reset', ok({}));
    await expect(client().POST('/v1/webhooks/secret/rotate')).rejects.toThrow();
    script('POST /v1/webhooks/secret/rotate', failure(503, 'PROVIDER_UNAVAILABLE'), ok({}));
    const refused = await client().POST('/v1/webhooks/secret/rotate');
    expect(() => unwrap(refused)).toThrow(expect.objectContaining({ name: 'ApiError', status: 503 }));
    expect(attemptsOf('/v1/webhooks/secret/rotate').map((a) => a.idempotencyKey)).toEqual([null, null]);
    expect(attemptsOf('/v1/merchant')).toHaveLength(2);
  });

  it('gives up after maxAttempts attempts, and at once when Retry-After asks for more than the longest wait', async () => {
    script('GET /v1/merchant', ...Array<Scripted>(5).fill(failure(503, 'PROVIDER_UNAVAILABLE')));
    const answer = await client({ maxAttempts: 2 }).GET('/v1/merchant');
    expect(() => unwrap(answer)).toThrow(expect.objectContaining({ name: 'ApiError', status: 503, code: 'PROVIDER_UNAVAILABLE' }));
    expect(attemptsOf('/v1/merchant')).toHaveLength(2);
    expect(waits).toHaveLength(1);

    waits = [];
    script('GET /v1/balances', failure(429, 'RATE_LIMITED', { 'retry-after': '120' }), ok([]));
    const limited = await client().GET('/v1/balances');
    expect(() => unwrap(limited)).toThrow(expect.objectContaining({ status: 429, code: 'RATE_LIMITED' }));
    expect(limited.response.headers.get('retry-after')).toBe('120');
    expect(attemptsOf('/v1/balances')).toHaveLength(1);
    expect(waits).toEqual([]);
  });
});
