/**
 * Self-test of the MTN MoMo fake: it is as strict as MTN's documentation says, so the connector's tests can trust it.
 * Only loopback traffic: the fake, and a callback receiver started here.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MtnMomoFake, type MomoProduct } from './mtn-momo.fake';

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: any;
}

const agent = new http.Agent({ keepAlive: false });

/** One HTTP request to the fake; rejects on a socket error or after timeoutMs without an answer. */
function call(fake: MtnMomoFake, method: string, path: string, headers: Record<string, string> = {}, body?: string, timeoutMs = 5000): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const target = new URL(path, fake.url);
    const req = http.request(
      {
        agent,
        host: '127.0.0.1',
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method,
        headers: { ...headers, ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}) },
        timeout: timeoutMs,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          let json: any;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('client timeout')));
    req.on('error', reject);
    req.end(body);
  });
}

const basic = (userId: string, apiKey: string) => `Basic ${Buffer.from(`${userId}:${apiKey}`).toString('base64')}`;

async function token(fake: MtnMomoFake, product: MomoProduct): Promise<string> {
  const c = fake.credentials[product];
  const res = await call(fake, 'POST', `/${product}/token/`, { 'Ocp-Apim-Subscription-Key': c.primaryKey, Authorization: basic(c.userId, c.apiKey) });
  expect(res.status).toBe(200);
  return res.json.access_token;
}

function apiHeaders(fake: MtnMomoFake, product: MomoProduct, accessToken: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    Authorization: `Bearer ${accessToken}`,
    'X-Target-Environment': 'sandbox',
    'Ocp-Apim-Subscription-Key': fake.credentials[product].primaryKey,
    'Content-Type': 'application/json',
    ...extra,
  };
}

const rtpBody = (partyId = '256772123456', overrides: Record<string, unknown> = {}) => ({
  amount: '100.50',
  currency: 'EUR',
  externalId: 'order-1',
  payer: { partyIdType: 'MSISDN', partyId },
  payerMessage: 'Pay for order 1',
  payeeNote: 'Order 1',
  ...overrides,
});

const transferBody = (partyId = '256772123456') => ({
  amount: '20',
  currency: 'EUR',
  externalId: 'payout-1',
  payee: { partyIdType: 'MSISDN', partyId },
  payerMessage: 'Payout',
  payeeNote: 'Payout',
});

async function requestToPay(fake: MtnMomoFake, accessToken: string, body: unknown, extra: Record<string, string> = {}, referenceId = randomUUID()) {
  const res = await call(
    fake,
    'POST',
    '/collection/v1_0/requesttopay',
    apiHeaders(fake, 'collection', accessToken, { 'X-Reference-Id': referenceId, ...extra }),
    JSON.stringify(body),
  );
  return { res, referenceId };
}

async function getStatus(fake: MtnMomoFake, product: MomoProduct, accessToken: string, referenceId: string) {
  const path = product === 'collection' ? `/collection/v1_0/requesttopay/${referenceId}` : `/disbursement/v1_0/transfer/${referenceId}`;
  return call(fake, 'GET', path, apiHeaders(fake, product, accessToken));
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 3000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A callback receiver on loopback; answers `status` and records every request. */
async function receiver(status = 200) {
  const received: { method: string; path: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/momo/callback`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('MtnMomoFake', () => {
  let fake: MtnMomoFake;

  beforeEach(async () => {
    fake = await MtnMomoFake.start();
  });
  afterEach(async () => {
    await fake.close();
  });

  afterAll(() => agent.destroy());

  describe('access token', () => {
    it('issues a product token for the right Basic credentials and subscription key', async () => {
      const c = fake.credentials.collection;
      const res = await call(fake, 'POST', '/collection/token/', { 'Ocp-Apim-Subscription-Key': c.primaryKey, Authorization: basic(c.userId, c.apiKey) });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ access_token: expect.any(String), token_type: 'access_token', expires_in: 3600 });
      expect(res.json.access_token.split('.')).toHaveLength(3);
      expect(fake.tokensIssued).toEqual({ collection: 1, disbursement: 0 });
      expect(fake.env()).toEqual({
        MTN_MOMO_BASE_URL: fake.url,
        MTN_MOMO_TARGET_ENVIRONMENT: 'sandbox',
        MTN_MOMO_COLLECTION_PRIMARY_KEY: c.primaryKey,
        MTN_MOMO_COLLECTION_USER_ID: c.userId,
        MTN_MOMO_COLLECTION_API_KEY: c.apiKey,
        MTN_MOMO_DISBURSEMENT_PRIMARY_KEY: fake.credentials.disbursement.primaryKey,
        MTN_MOMO_DISBURSEMENT_USER_ID: fake.credentials.disbursement.userId,
        MTN_MOMO_DISBURSEMENT_API_KEY: fake.credentials.disbursement.apiKey,
      });
    });

    it('answers 401 login_failed to wrong or missing Basic auth, and to the other product’s user', async () => {
      const c = fake.credentials.collection;
      const d = fake.credentials.disbursement;
      for (const authorization of [basic(c.userId, 'wrong'), basic(d.userId, d.apiKey), `Bearer ${c.apiKey}`, undefined]) {
        const headers: Record<string, string> = { 'Ocp-Apim-Subscription-Key': c.primaryKey };
        if (authorization) headers.Authorization = authorization;
        const res = await call(fake, 'POST', '/collection/token/', headers);
        expect(res.status).toBe(401);
        expect(res.json).toEqual({ error: 'login_failed' });
      }
      expect(fake.tokensIssued.collection).toBe(0);
    });

    it('answers 401 with API Management’s body to a wrong or missing subscription key', async () => {
      const c = fake.credentials.collection;
      const wrong = await call(fake, 'POST', '/collection/token/', {
        'Ocp-Apim-Subscription-Key': fake.credentials.disbursement.primaryKey,
        Authorization: basic(c.userId, c.apiKey),
      });
      expect(wrong.status).toBe(401);
      expect(wrong.json).toEqual({
        statusCode: 401,
        message: 'Access denied due to invalid subscription key. Make sure to provide a valid key for an active subscription.',
      });
      const missing = await call(fake, 'POST', '/collection/token/', { Authorization: basic(c.userId, c.apiKey) });
      expect(missing.status).toBe(401);
      expect(missing.json.message).toMatch(/^Access denied due to missing subscription key/);
    });

    it('expires tokens after tokenTtlS, and a token only works for its own product', async () => {
      await fake.close();
      fake = await MtnMomoFake.start({ tokenTtlS: 1 });
      const collectionToken = await token(fake, 'collection');
      const first = await requestToPay(fake, collectionToken, rtpBody());
      expect(first.res.status).toBe(202);

      const onTransfer = await call(
        fake,
        'POST',
        '/disbursement/v1_0/transfer',
        apiHeaders(fake, 'disbursement', collectionToken, { 'X-Reference-Id': randomUUID() }),
        JSON.stringify(transferBody()),
      );
      expect(onTransfer.status).toBe(401);
      expect(onTransfer.headers['www-authenticate']).toBe('Bearer error="invalid_token"');

      await new Promise((r) => setTimeout(r, 1100));
      const late = await requestToPay(fake, collectionToken, rtpBody());
      expect(late.res.status).toBe(401);
      expect(late.res.json).toEqual({ error: 'invalid_token' });
      expect(fake.resources.has(late.referenceId)).toBe(false);

      const fresh = await token(fake, 'collection');
      expect((await requestToPay(fake, fresh, rtpBody())).res.status).toBe(202);
      expect(fake.tokensIssued.collection).toBe(2);
    });
  });

  describe('request to pay and transfer', () => {
    it('accepts with 202 and an empty body, then decides SUCCESSFUL with a financialTransactionId', async () => {
      const t = await token(fake, 'collection');
      const { res, referenceId } = await requestToPay(fake, t, rtpBody());
      expect(res.status).toBe(202);
      expect(res.text).toBe('');
      expect(fake.resources.get(referenceId)).toMatchObject({ product: 'collection', referenceId, status: 'PENDING', body: rtpBody(), callbackUrl: null });

      await until(() => fake.resources.get(referenceId)!.status !== 'PENDING');
      const status = await getStatus(fake, 'collection', t, referenceId);
      expect(status.status).toBe(200);
      expect(status.json).toEqual({
        amount: '100.5',
        currency: 'EUR',
        financialTransactionId: expect.stringMatching(/^\d{9,10}$/),
        externalId: 'order-1',
        payer: { partyIdType: 'MSISDN', partyId: '256772123456' },
        payerMessage: 'Pay for order 1',
        payeeNote: 'Order 1',
        status: 'SUCCESSFUL',
      });
    });

    it('answers 409 RESOURCE_ALREADY_EXIST to a reused X-Reference-Id, across products too', async () => {
      const t = await token(fake, 'collection');
      const { referenceId } = await requestToPay(fake, t, rtpBody());
      const again = await requestToPay(fake, t, rtpBody(), {}, referenceId);
      expect(again.res.status).toBe(409);
      expect(again.res.json).toEqual({ code: 'RESOURCE_ALREADY_EXIST', message: 'Duplicated reference id. Creation of resource failed.' });

      const dt = await token(fake, 'disbursement');
      const asTransfer = await call(
        fake,
        'POST',
        '/disbursement/v1_0/transfer',
        apiHeaders(fake, 'disbursement', dt, { 'X-Reference-Id': referenceId }),
        JSON.stringify(transferBody()),
      );
      expect(asTransfer.status).toBe(409);
      expect(fake.resources.size).toBe(1);
    });

    it('answers 400 to bad bodies and bad headers, and creates nothing', async () => {
      const t = await token(fake, 'collection');
      const cases: [unknown, Record<string, string>?][] = [
        [rtpBody(undefined, { amount: 100 })],
        [rtpBody(undefined, { amount: '-5' })],
        [rtpBody(undefined, { amount: '0' })],
        [rtpBody(undefined, { amount: '1e3' })],
        [rtpBody(undefined, { currency: 'eur' })],
        [rtpBody(undefined, { payer: undefined })],
        [rtpBody(undefined, { payer: { partyIdType: 'PHONE', partyId: '256772123456' } })],
        [rtpBody('+256772123456')],
        [rtpBody(undefined, { payer: { partyIdType: 'EMAIL', partyId: 'not-an-email' } })],
        [rtpBody(undefined, { payer: { partyIdType: 'PARTY_CODE', partyId: '12' } })],
        [rtpBody(undefined, { payerMessage: 'x'.repeat(161) })],
        [rtpBody(undefined, { payeeNote: "Tom's order" })],
        [rtpBody(undefined, { externalId: 42 })],
        [{ ...rtpBody(), payee: rtpBody().payer, payer: undefined }],
        [rtpBody(), { 'X-Reference-Id': 'not-a-uuid' }],
        [rtpBody(), { 'X-Reference-Id': '6ba7b810-9dad-11d1-80b4-00c04fd430c8' }], // a v1 UUID
        [rtpBody(), { 'X-Callback-Url': 'not a url' }],
      ];
      for (const [body, extra] of cases) {
        const { res } = await requestToPay(fake, t, body, extra);
        expect({ body, extra, status: res.status }).toEqual({ body, extra, status: 400 });
        expect(res.json).toEqual({ code: 'BAD_REQUEST', message: expect.any(String) });
      }
      const notJson = await call(
        fake,
        'POST',
        '/collection/v1_0/requesttopay',
        apiHeaders(fake, 'collection', t, { 'X-Reference-Id': randomUUID() }),
        '{"amount": ',
      );
      expect(notJson.status).toBe(400);
      const noTarget = apiHeaders(fake, 'collection', t, { 'X-Reference-Id': randomUUID() });
      delete noTarget['X-Target-Environment'];
      expect((await call(fake, 'POST', '/collection/v1_0/requesttopay', noTarget, JSON.stringify(rtpBody()))).status).toBe(400);
      expect(fake.resources.size).toBe(0);
    });

    it('answers 500 for a non-EUR currency, another target environment and a foreign callback host, as documented', async () => {
      const t = await token(fake, 'collection');
      const currency = await requestToPay(fake, t, rtpBody(undefined, { currency: 'UGX' }));
      expect(currency.res.status).toBe(500);
      expect(currency.res.json).toEqual({ code: 'INVALID_CURRENCY', message: 'Currency not supported.' });

      const target = await requestToPay(fake, t, rtpBody(), { 'X-Target-Environment': 'mtnuganda' });
      expect(target.res.status).toBe(500);
      expect(target.res.json.code).toBe('NOT_ALLOWED_TARGET_ENVIRONMENT');

      const host = await requestToPay(fake, t, rtpBody(), { 'X-Callback-Url': 'http://example.com/momo' });
      expect(host.res.status).toBe(500);
      expect(host.res.json.code).toBe('INVALID_CALLBACK_URL_HOST');
      expect(fake.resources.size).toBe(0);
    });

    it('answers 404 RESOURCE_NOT_FOUND for an unknown reference, or one of the other product', async () => {
      const t = await token(fake, 'collection');
      const unknown = await getStatus(fake, 'collection', t, randomUUID());
      expect(unknown.status).toBe(404);
      expect(unknown.json).toEqual({ code: 'RESOURCE_NOT_FOUND', message: expect.any(String) });

      const dt = await token(fake, 'disbursement');
      const referenceId = randomUUID();
      const created = await call(
        fake,
        'POST',
        '/disbursement/v1_0/transfer',
        apiHeaders(fake, 'disbursement', dt, { 'X-Reference-Id': referenceId }),
        JSON.stringify(transferBody()),
      );
      expect(created.status).toBe(202);
      expect((await getStatus(fake, 'disbursement', dt, referenceId)).status).toBe(200);
      expect((await getStatus(fake, 'collection', t, referenceId)).status).toBe(404);
    });

    it('decides by the documented sandbox numbers and the project’s suffixes', async () => {
      await fake.close();
      fake = await MtnMomoFake.start({ ongoingSuccessAfterMs: 500 });
      const t = await token(fake, 'collection');
      const dt = await token(fake, 'disbursement');
      const expected: Record<string, [string, string | null]> = {
        '46733123450': ['FAILED', 'INTERNAL_PROCESSING_ERROR'],
        '46733123451': ['FAILED', 'APPROVAL_REJECTED'],
        '46733123452': ['FAILED', 'EXPIRED'],
        '256770000001': ['FAILED', 'NOT_ENOUGH_FUNDS'],
        '256770000002': ['FAILED', 'APPROVAL_REJECTED'],
        '256770000003': ['FAILED', 'EXPIRED'],
        '256770000004': ['FAILED', 'PAYER_NOT_FOUND'],
        '256770000005': ['SUCCESSFUL', null],
      };
      const ongoingCreatedAt = Date.now();
      const ongoing = (await requestToPay(fake, t, rtpBody('46733123453'))).referenceId;
      const refs: Record<string, string> = {};
      for (const msisdn of [...Object.keys(expected), '46733123454', '256770000009']) {
        refs[msisdn] = (await requestToPay(fake, t, rtpBody(msisdn))).referenceId;
      }
      const transfer = randomUUID();
      await call(
        fake,
        'POST',
        '/disbursement/v1_0/transfer',
        apiHeaders(fake, 'disbursement', dt, { 'X-Reference-Id': transfer }),
        JSON.stringify(transferBody('256770000004')),
      );

      await until(() => Object.keys(expected).every((msisdn) => fake.resources.get(refs[msisdn])!.status !== 'PENDING'));
      for (const [msisdn, [status, reason]] of Object.entries(expected)) {
        const res = await getStatus(fake, 'collection', t, refs[msisdn]);
        expect({ msisdn, status: res.json.status, reason: res.json.reason ?? null }).toEqual({ msisdn, status, reason });
        if (status === 'FAILED') expect(res.json.financialTransactionId).toBeUndefined();
      }
      await until(() => fake.resources.get(transfer)!.status !== 'PENDING');
      expect((await getStatus(fake, 'disbursement', dt, transfer)).json).toMatchObject({
        status: 'FAILED',
        reason: 'PAYEE_NOT_FOUND',
        payee: { partyId: '256770000004' },
      });

      // "Ongoing": PENDING first, SUCCESSFUL once ongoingSuccessAfterMs has passed.
      if (Date.now() - ongoingCreatedAt < 400) expect((await getStatus(fake, 'collection', t, ongoing)).json.status).toBe('PENDING');
      await until(() => fake.resources.get(ongoing)!.status === 'SUCCESSFUL');
      expect(Date.now() - ongoingCreatedAt).toBeGreaterThanOrEqual(480);
      expect((await getStatus(fake, 'collection', t, ongoing)).json.status).toBe('SUCCESSFUL');
      expect((await getStatus(fake, 'collection', t, refs['46733123454'])).json.status).toBe('PENDING');
      expect((await getStatus(fake, 'collection', t, refs['256770000009'])).json.status).toBe('PENDING');

      await fake.decide(refs['256770000009'], 'FAILED', 'PAYER_NOT_FOUND');
      expect((await getStatus(fake, 'collection', t, refs['256770000009'])).json).toMatchObject({ status: 'FAILED', reason: 'PAYER_NOT_FOUND' });
      await expect(fake.decide(refs['256770000009'], 'SUCCESSFUL')).rejects.toThrow(/already FAILED/);
      await expect(fake.decide(randomUUID(), 'SUCCESSFUL')).rejects.toThrow(/no resource/);
    });

    it('can answer reason as {code, message}', async () => {
      await fake.close();
      fake = await MtnMomoFake.start({ reasonFormat: 'object' });
      const t = await token(fake, 'collection');
      const { referenceId } = await requestToPay(fake, t, rtpBody('256770000001'));
      await until(() => fake.resources.get(referenceId)!.status === 'FAILED');
      expect((await getStatus(fake, 'collection', t, referenceId)).json.reason).toEqual({ code: 'NOT_ENOUGH_FUNDS', message: expect.any(String) });
    });
  });

  describe('callbacks', () => {
    it('sends one unsigned PUT with the status body, never retried even when the receiver fails', async () => {
      const hook = await receiver(500);
      try {
        const t = await token(fake, 'collection');
        const { referenceId } = await requestToPay(fake, t, rtpBody('256770000001'), { 'X-Callback-Url': hook.url });
        await fake.callbackDelivered(referenceId, 2000);
        await new Promise((r) => setTimeout(r, 150));
        expect(hook.received).toHaveLength(1);
        const [cb] = hook.received;
        expect(cb.method).toBe('PUT');
        expect(cb.path).toBe('/momo/callback');
        expect(cb.headers['content-type']).toMatch(/^application\/json/);
        expect(cb.headers.authorization).toBeUndefined();
        expect(JSON.parse(cb.body)).toEqual((await getStatus(fake, 'collection', t, referenceId)).json);
        expect(JSON.parse(cb.body)).toMatchObject({ status: 'FAILED', reason: 'NOT_ENOUGH_FUNDS' });
        expect(fake.callbacks).toEqual([expect.objectContaining({ referenceId, method: 'PUT', status: 500 })]);

        // A duplicate, as tests of the receiver need.
        expect(await fake.sendCallback(referenceId)).toBe(500);
        expect(hook.received).toHaveLength(2);
        expect(hook.received[1].body).toBe(cb.body);
      } finally {
        await hook.close();
      }
    });

    it('uses POST when asked, and sends on decide()', async () => {
      await fake.close();
      fake = await MtnMomoFake.start({ callbackMethod: 'POST' });
      const hook = await receiver(200);
      try {
        const dt = await token(fake, 'disbursement');
        const referenceId = randomUUID();
        await call(
          fake,
          'POST',
          '/disbursement/v1_0/transfer',
          apiHeaders(fake, 'disbursement', dt, { 'X-Reference-Id': referenceId, 'X-Callback-Url': hook.url }),
          JSON.stringify(transferBody('256770000009')),
        );
        await new Promise((r) => setTimeout(r, 60));
        expect(hook.received).toHaveLength(0);
        await fake.decide(referenceId, 'SUCCESSFUL');
        await fake.callbackDelivered(referenceId, 1000);
        expect(hook.received).toHaveLength(1);
        expect(hook.received[0].method).toBe('POST');
        expect(JSON.parse(hook.received[0].body)).toMatchObject({
          status: 'SUCCESSFUL',
          payee: { partyId: '256770000009' },
          financialTransactionId: expect.any(String),
        });
      } finally {
        await hook.close();
      }
    });

    it('loses the callback while dropCallbacks is on (callbackDelivered rejects); sendCallback still works', async () => {
      const hook = await receiver(204);
      try {
        fake.dropCallbacks = true;
        const t = await token(fake, 'collection');
        const { referenceId } = await requestToPay(fake, t, rtpBody(), { 'X-Callback-Url': hook.url });
        await expect(fake.callbackDelivered(referenceId, 300)).rejects.toThrow(/no callback delivered/);
        expect(fake.resources.get(referenceId)!.status).toBe('SUCCESSFUL');
        expect(hook.received).toHaveLength(0);
        expect(fake.droppedCallbacks).toEqual([referenceId]);
        expect(await fake.sendCallback(referenceId)).toBe(204);
        await fake.callbackDelivered(referenceId, 100);
      } finally {
        await hook.close();
      }
    });

    it('sends nothing without X-Callback-Url, and refuses to resend for it', async () => {
      const t = await token(fake, 'collection');
      const { referenceId } = await requestToPay(fake, t, rtpBody());
      await until(() => fake.resources.get(referenceId)!.status === 'SUCCESSFUL');
      await expect(fake.sendCallback(referenceId)).rejects.toThrow(/without X-Callback-Url/);
      expect(fake.callbacks).toHaveLength(0);
    });
  });

  describe('faults', () => {
    it('answers 500 / 503 to the next matching requests only, and 503 to everything while down', async () => {
      const t = await token(fake, 'collection');
      fake.failNext('500', { path: '/requesttopay' });
      fake.failNext('503', { path: /requesttopay/ });
      const first = await requestToPay(fake, t, rtpBody());
      expect(first.res.status).toBe(500);
      expect(fake.resources.has(first.referenceId)).toBe(false);
      expect((await requestToPay(fake, t, rtpBody())).res.status).toBe(503);
      expect((await requestToPay(fake, t, rtpBody())).res.status).toBe(202);

      fake.down = true;
      const c = fake.credentials.collection;
      const tok = await call(fake, 'POST', '/collection/token/', { 'Ocp-Apim-Subscription-Key': c.primaryKey, Authorization: basic(c.userId, c.apiKey) });
      expect(tok.status).toBe(503);
      expect(tok.json).toEqual({ code: 'SERVICE_UNAVAILABLE', message: expect.any(String) });
      fake.down = false;
      expect((await requestToPay(fake, t, rtpBody())).res.status).toBe(202);
      expect(fake.requests.filter((r) => r.path === '/collection/v1_0/requesttopay')).toHaveLength(4);
      expect(fake.requests.filter((r) => r.path === '/collection/token/')).toHaveLength(2);
    });

    it('resets the socket, or never answers', async () => {
      const t = await token(fake, 'collection');
      fake.failNext('reset');
      await expect(requestToPay(fake, t, rtpBody())).rejects.toThrow(/socket hang up|ECONNRESET/);
      fake.failNext('timeout', { path: 'requesttopay' });
      const referenceId = randomUUID();
      await expect(
        call(
          fake,
          'POST',
          '/collection/v1_0/requesttopay',
          apiHeaders(fake, 'collection', t, { 'X-Reference-Id': referenceId }),
          JSON.stringify(rtpBody()),
          200,
        ),
      ).rejects.toThrow('client timeout');
      expect(fake.resources.has(referenceId)).toBe(false);
    });

    it('accept-then-500 / accept-then-timeout create the resource; the retry with the same reference gets 409', async () => {
      const t = await token(fake, 'collection');
      fake.failNext('accept-then-500', { path: 'requesttopay' });
      const { res, referenceId } = await requestToPay(fake, t, rtpBody());
      expect(res.status).toBe(500);
      expect(fake.resources.has(referenceId)).toBe(true);
      expect((await requestToPay(fake, t, rtpBody(), {}, referenceId)).res.status).toBe(409);

      fake.failNext('accept-then-timeout', { path: 'requesttopay' });
      const hung = randomUUID();
      await expect(
        call(fake, 'POST', '/collection/v1_0/requesttopay', apiHeaders(fake, 'collection', t, { 'X-Reference-Id': hung }), JSON.stringify(rtpBody()), 200),
      ).rejects.toThrow('client timeout');
      expect(fake.resources.has(hung)).toBe(true);
      expect((await getStatus(fake, 'collection', t, hung)).status).toBe(200);
    });
  });

  it('answers API Management’s 404 to unknown paths (the token path keeps its trailing slash)', async () => {
    const c = fake.credentials.collection;
    const noSlash = await call(fake, 'POST', '/collection/token', { 'Ocp-Apim-Subscription-Key': c.primaryKey, Authorization: basic(c.userId, c.apiKey) });
    expect(noSlash.status).toBe(404);
    expect((await call(fake, 'GET', '/remittance/v1_0/transfer/x')).status).toBe(404);
    expect(fake.internalErrors).toEqual([]);
  });

  describe('account holder (basicuserinfo)', () => {
    it('names a seeded holder, answers the documented sandbox sample otherwise, 404 for …0004, after the usual checks', async () => {
      const accessToken = await token(fake, 'disbursement');
      const path = (msisdn: string, product = 'disbursement') => `/${product}/v1_0/accountholder/msisdn/${msisdn}/basicuserinfo`;
      fake.accountHolders.add('233241234567', 'Kwame', 'Mensah');
      const seeded = await call(fake, 'GET', path('233241234567'), apiHeaders(fake, 'disbursement', accessToken));
      expect(seeded.status).toBe(200);
      expect(seeded.json).toMatchObject({ name: 'Kwame Mensah', given_name: 'Kwame', family_name: 'Mensah' });

      const sample = await call(fake, 'GET', path('256772123456'), apiHeaders(fake, 'disbursement', accessToken));
      expect(sample.json).toEqual({
        sub: '0',
        name: 'Sand Box',
        given_name: 'Sand',
        family_name: 'Box',
        birthdate: '1976-08-13',
        locale: 'sv_SE',
        gender: 'MALE',
        updated_at: 1676609351,
      });

      const missing = await call(fake, 'GET', path('256772120004'), apiHeaders(fake, 'disbursement', accessToken));
      expect(missing.status).toBe(404);
      expect(missing.json.code).toBe('RESOURCE_NOT_FOUND');
      expect((await call(fake, 'GET', path('25677212345x'), apiHeaders(fake, 'disbursement', accessToken))).status).toBe(400);
      // The collection product's token does not open the disbursement product, and no token opens nothing.
      expect((await call(fake, 'GET', path('256772123456'), { ...apiHeaders(fake, 'disbursement', accessToken), Authorization: '' })).status).toBe(401);
      const collectionToken = await token(fake, 'collection');
      expect((await call(fake, 'GET', path('256772123456'), apiHeaders(fake, 'disbursement', collectionToken))).status).toBe(401);
      expect((await call(fake, 'GET', path('256772123456', 'collection'), apiHeaders(fake, 'collection', collectionToken))).status).toBe(200);
      expect(fake.internalErrors).toEqual([]);
    });
  });
  describe('account balance (reconciliation)', () => {
    it('answers each product’s balance in the environment’s currency, with its token and headers only', async () => {
      const access = await token(fake, 'disbursement');
      const res = await call(fake, 'GET', '/disbursement/v1_0/account/balance', apiHeaders(fake, 'disbursement', access));
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ availableBalance: '1000000', currency: 'EUR' });
      fake.setBalance('disbursement', '250.75');
      expect((await call(fake, 'GET', '/disbursement/v1_0/account/balance', apiHeaders(fake, 'disbursement', access))).json.availableBalance).toBe('250.75');
      // Another product's token, or none: refused.
      expect((await call(fake, 'GET', '/collection/v1_0/account/balance', apiHeaders(fake, 'collection', access))).status).toBe(401);
      expect((await call(fake, 'GET', '/disbursement/v1_0/account/balance', { 'X-Target-Environment': 'sandbox' })).status).toBe(401);
    });
  });
});
