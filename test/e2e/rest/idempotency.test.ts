import type { MerchantCredentials } from '../../../src/modules/merchants/merchant.service';
import type { Services } from '../../../src/container';
import { approvedCustomer, enroll, enrollBody, kycBody } from '../../helpers/factories';
import { request, type HttpResult } from '../../helpers/http';
import { CARDS, cardPaymentBody, TEST_CVC } from '../../helpers/payments';
import { rawRequest } from '../../helpers/security';
import { createTestApp, TEST_ADMIN_KEY, type TestApp } from '../../helpers/test-app';
import { IDEMPOTENT_ROUTES, SECRET_ROUTES } from '../../../src/transport/rest/idempotency';
import { bankCollectionBody, momoCollectionBody, newReference, sql, transferBody } from '../../helpers/transactions';

/**
 * Idempotency-Key on the REST POSTs that create something (CONTRACT §1, issue #11), over real
 * HTTP against PostgreSQL: replay, mismatch, a key in flight, isolation between merchants, the
 * 24 h window and the lock timeout on the injected clock, which answers are kept, and the routes
 * that refuse the header. A request is held open by wrapping the service method its handler
 * calls (holdNextCall), never by timing.
 */
const COLLECT = '/v1/crossborder/global-collection';
const HOUR = 60 * 60 * 1000;

let seq = 0;
const newKey = (label = 'k') => `${label}-${process.pid}-${Date.now()}-${++seq}`;

/**
 * Wraps `target[method]` so that its next call waits until released (the calls after it pass
 * straight through); `entered` resolves when that call has begun. Deterministic: the request is
 * inside its handler, past the claim, for as long as the test wants.
 */
function holdNextCall<T extends object>(target: T, method: keyof T & string) {
  const original = (target as Record<string, (...args: unknown[]) => Promise<unknown>>)[method]!;
  let entered!: () => void;
  let release!: () => void;
  const enteredP = new Promise<void>((r) => (entered = r));
  const released = new Promise<void>((r) => (release = r));
  let held = false;
  (target as Record<string, unknown>)[method] = async (...args: unknown[]) => {
    if (!held) {
      held = true;
      entered();
      await released;
    }
    return original.apply(target, args);
  };
  return {
    entered: enteredP,
    release,
    restore: () => {
      release();
      delete (target as Record<string, unknown>)[method];
    },
  };
}

/** Resolves when the next call of `target[method]` has finished (whatever its outcome); the call itself is unchanged. */
function afterNextCall<T extends object>(target: T, method: keyof T & string): Promise<void> {
  const original = (target as Record<string, (...args: unknown[]) => Promise<unknown>>)[method]!;
  return new Promise((resolve) => {
    (target as Record<string, unknown>)[method] = async (...args: unknown[]) => {
      delete (target as Record<string, unknown>)[method];
      try {
        return await original.apply(target, args);
      } finally {
        resolve();
      }
    };
  });
}

/** Makes the next call of `target[method]` fail as an unexpected error would (a 500). */
function failNextCall<T extends object>(target: T, method: keyof T & string) {
  (target as Record<string, unknown>)[method] = async () => {
    delete (target as Record<string, unknown>)[method]; // the calls after this one reach the real method
    throw new Error('simulated failure inside the handler');
  };
}

describe('REST Idempotency-Key', () => {
  let app: TestApp;
  let services: Services;
  let merchantA: MerchantCredentials;
  let merchantB: MerchantCredentials;
  let tokenA: string;
  let tokenB: string;
  let customerA: string;
  let customerB: string;
  /** Enrolled, KYC never submitted: collections from them are 403 KYC_REQUIRED. */
  let unapprovedA: string;

  beforeAll(async () => {
    // Settlement far off: a transaction stays `processing`, so answers and rows stay as created.
    app = await createTestApp({ env: { SANDBOX_SETTLE_MS: '600000' } });
    services = app.service.app.services;
    [merchantA, merchantB] = await Promise.all([app.createMerchant('Idempotency A'), app.createMerchant('Idempotency B')]);
    [tokenA, tokenB] = (await Promise.all([app.token(merchantA), app.token(merchantB)])).map((t) => t.accessToken) as [string, string];
    const [a, b, u] = await Promise.all([approvedCustomer(app, tokenA), approvedCustomer(app, tokenB), enroll(app, tokenA)]);
    [customerA, customerB, unapprovedA] = [a.customer_uuid, b.customer_uuid, u.customer_uuid];
  });
  afterAll(() => app?.close());

  const post = (path: string, body: unknown, key?: string, token = tokenA, headers: Record<string, string> = {}) =>
    request(app.url, 'POST', path, { token, body, headers: { ...headers, ...(key === undefined ? {} : { 'idempotency-key': key }) } });

  const transactionsWith = async (merchant: MerchantCredentials, reference: string) =>
    Number(
      (await sql(app, 'select count(*) as n from "transaction" where merchant_id = ? and external_reference = ?', [merchant.merchant.id, reference]))[0].n,
    );
  const allTransactions = async () => Number((await sql(app, 'select count(*) as n from "transaction"'))[0].n);
  const keyRows = (merchant: MerchantCredentials, key: string) =>
    sql<{ fingerprint: string; completed_at: string | null; status_code: number | null; response_sealed: string | null; created_at: string }>(
      app,
      'select fingerprint, created_at, completed_at, status_code, response_sealed from idempotency_key where merchant_id = ? and idempotency_key = ?',
      [merchant.merchant.id, key],
    );
  const allKeyRows = async () => Number((await sql(app, 'select count(*) as n from idempotency_key'))[0].n);

  const expectReplayOf = (replay: HttpResult, first: HttpResult) => {
    expect(replay.status).toBe(first.status);
    expect(replay.text).toBe(first.text);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  };
  const expectExecuted = (res: HttpResult, status = 200) => {
    expect({ status: res.status, body: res.body }).toEqual({ status, body: expect.objectContaining({ status: 'success' }) });
    expect(res.headers.get('idempotent-replayed')).toBeNull();
  };
  const expectKeyProblem = (res: HttpResult, message: RegExp) => {
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      status: 'error',
      code: 'INVALID_REQUEST',
      message: expect.stringMatching(message),
      details: [{ field: 'Idempotency-Key', issue: expect.any(String) }],
    });
  };

  it('names only registered routes, and the OpenAPI document shows the header on exactly the routes that accept it', async () => {
    const fastify = app.service.app.fastify;
    for (const route of [...Object.keys(IDEMPOTENT_ROUTES), ...Object.keys(SECRET_ROUTES)]) {
      const [method, url] = route.split(' ') as [string, string];
      expect({ route, registered: fastify.hasRoute({ method: method as 'POST', url }) }).toEqual({ route, registered: true });
    }
    const doc = (await request(app.url, 'GET', '/v1/openapi.json')).body;
    const withHeader = Object.entries(doc.paths as Record<string, Record<string, { parameters?: Array<{ name: string; in: string }> }>>).flatMap(
      ([path, item]) =>
        Object.entries(item)
          .filter(([, op]) => op.parameters?.some((p) => p.in === 'header' && p.name === 'Idempotency-Key'))
          .map(([method]) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    expect(withHeader.sort()).toEqual(Object.keys(IDEMPOTENT_ROUTES).sort());
  });

  describe('replay', () => {
    it('the same key and body replay the first answer with Idempotent-Replayed: true, and create one transaction', async () => {
      const key = newKey();
      const body = momoCollectionBody(customerA);
      const before = await allTransactions();
      const first = await post(COLLECT, body, key);
      expectExecuted(first);
      const second = await post(COLLECT, body, key);
      expectReplayOf(second, first);
      // The same body serialised another way (keys in another order) is the same request.
      const reordered = Object.fromEntries(Object.entries(body).reverse());
      expectReplayOf(await post(COLLECT, reordered, key), first);
      expect(await allTransactions()).toBe(before + 1);
      expect(await transactionsWith(merchantA, body.reference)).toBe(1);
      const listed = await request(app.url, 'GET', '/v1/transactions?limit=100', { token: tokenA });
      expect(listed.body.data.filter((t: { external_reference: string }) => t.external_reference === body.reference)).toHaveLength(1);
    });

    it.each([
      ['enroll a customer (201)', () => ({ path: '/v1/customer/enroll', body: enrollBody(), status: 201 })],
      ['a transfer', () => ({ path: '/v1/crossborder/global-transfer', body: transferBody(customerA), status: 200 })],
      ['a card payment', () => ({ path: '/v1/payments/initiate', body: cardPaymentBody(), status: 200 })],
    ])('replays %s', async (_label, make) => {
      const { path, body, status } = make();
      const key = newKey();
      const first = await post(path, body, key);
      expectExecuted(first, status);
      expectReplayOf(await post(path, body, key), first);
    });

    it('replays a KYC submission, a webhook resend and a sandbox simulation', async () => {
      const customer = await enroll(app, tokenA);
      const kycPath = `/v1/customer/${customer.customer_uuid}/kyc`;
      const kycKey = newKey('kyc');
      const kyc = await post(kycPath, kycBody(), kycKey);
      expectExecuted(kyc);
      expectReplayOf(await post(kycPath, kycBody(), kycKey), kyc);

      // Loopback: nothing leaves the machine (nothing listens on port 9; the attempt fails, which is fine here).
      await request(app.url, 'PUT', '/v1/webhooks/endpoint', { token: tokenA, body: { url: 'http://127.0.0.1:9/hooks' } });
      const [event] = (await request(app.url, 'GET', '/v1/webhooks/events?limit=1', { token: tokenA })).body.data;
      const resendPath = `/v1/webhooks/events/${event.id}/resend`;
      const resendKey = newKey('resend');
      const resent = await post(resendPath, undefined, resendKey);
      expectExecuted(resent);
      expectReplayOf(await post(resendPath, undefined, resendKey), resent);

      const bank = await post(COLLECT, bankCollectionBody(customerA));
      const simulatePath = `/v1/sandbox/transactions/${bank.body.data.reference}/simulate`;
      const simulateKey = newKey('sim');
      const simulated = await post(simulatePath, { outcome: 'successful' }, simulateKey);
      expectExecuted(simulated);
      // Without the key, a second simulation is refused (decided); with it, the retry gets the first answer.
      expect((await post(simulatePath, { outcome: 'successful' })).status).toBe(409);
      expectReplayOf(await post(simulatePath, { outcome: 'successful' }, simulateKey), simulated);
    });

    it('a 3-D Secure answer is stored sealed: its link (a secret handle) is nowhere in the row, and the replay shows it', async () => {
      const key = newKey('3ds');
      const body = cardPaymentBody({ card: { number: CARDS.threeDs } });
      const first = await post('/v1/payments/initiate', body, key);
      expectExecuted(first);
      const url: string = first.body.data.next_action.url;
      const handle = url.split('/').pop()!;
      expect(handle.length).toBeGreaterThan(40);
      const [row] = await keyRows(merchantA, key);
      expect(row!.response_sealed).toMatch(/^v1\./);
      // The sealed answer is ciphertext: a 3-digit CVC appears in about 1 in 250 of them by chance, so the short
      // secret is looked for in the rest of the row; the long ones (no chance match) anywhere.
      const stored = JSON.stringify(row);
      for (const secret of [handle, body.reference, CARDS.threeDs]) expect(stored).not.toContain(secret);
      expect(JSON.stringify({ ...row, response_sealed: undefined })).not.toContain(TEST_CVC);
      expect(row!.fingerprint).toMatch(/^[A-Za-z0-9_-]{43}$/); // a keyed hash, not the request
      expectReplayOf(await post('/v1/payments/initiate', body, key), first);
    });

    it('the card’s CVC is left out of the fingerprint (never kept in any form): a retry changing only it is the same request', async () => {
      const key = newKey('cvc');
      const body = cardPaymentBody();
      const first = await post('/v1/payments/initiate', body, key);
      expectExecuted(first);
      expectReplayOf(await post('/v1/payments/initiate', { ...body, card: { ...body.card, cvc: '123' } }, key), first);
      // Any other card field is part of the request.
      expectKeyProblem(await post('/v1/payments/initiate', { ...body, card: { ...body.card, exp_month: 11 } }, key), /different request/);
    });

    it('without the header nothing is stored, and the reference rule answers as before', async () => {
      const rows = await allKeyRows();
      const body = momoCollectionBody(customerA);
      expectExecuted(await post(COLLECT, body));
      expect(await allKeyRows()).toBe(rows);
      // A new key with a used reference: 409 DUPLICATE_REQUEST naming the transaction, as without keys.
      const dup = await post(COLLECT, body, newKey());
      expect(dup.status).toBe(409);
      expect(dup.body).toMatchObject({
        status: 'error',
        code: 'DUPLICATE_REQUEST',
        details: [{ field: 'reference', issue: expect.stringMatching(/^already used by transaction col_/) }],
      });
      expect(await transactionsWith(merchantA, body.reference)).toBe(1);
    });
  });

  describe('another request under a used key', () => {
    it('another body → 400 INVALID_REQUEST naming the header, and nothing changes', async () => {
      const key = newKey();
      const body = momoCollectionBody(customerA);
      const first = await post(COLLECT, body, key);
      expectExecuted(first);
      const [row] = await keyRows(merchantA, key);
      const before = await allTransactions();
      const other = { ...body, reference: newReference('other'), amount: 2000 };
      expectKeyProblem(await post(COLLECT, other, key), /already used with a different request/);
      // Bodies are compared as JSON values: the string "1500.00" is not the number 1500.
      expectKeyProblem(await post(COLLECT, { ...body, amount: '1500.00' }, key), /different request/);
      expect(await allTransactions()).toBe(before);
      expect(await transactionsWith(merchantA, other.reference)).toBe(0);
      expect(await keyRows(merchantA, key)).toEqual([row]);
      expectReplayOf(await post(COLLECT, body, key), first); // the first answer is still there
    });

    it('another route (or another path parameter) → 400', async () => {
      const key = newKey();
      expectExecuted(await post('/v1/customer/enroll', enrollBody(), key), 201);
      const before = await allTransactions();
      expectKeyProblem(await post(COLLECT, momoCollectionBody(customerA), key), /different request/);
      expect(await allTransactions()).toBe(before);

      const [one, two] = await Promise.all([enroll(app, tokenA), enroll(app, tokenA)]);
      const kycKey = newKey('kyc');
      expectExecuted(await post(`/v1/customer/${one.customer_uuid}/kyc`, kycBody(), kycKey));
      expectKeyProblem(await post(`/v1/customer/${two.customer_uuid}/kyc`, kycBody(), kycKey), /different request/);
      const kyc = await request(app.url, 'GET', `/v1/customer/${two.customer_uuid}/kyc`, { token: tokenA });
      expect(kyc.body.data.kyc_status).toBe('pending_kyc');
    });
  });

  describe('a key in flight', () => {
    it('a second request while the first executes → 409 INVALID_STATE with Retry-After: 1; the first completes; then replays', async () => {
      const key = newKey('flight');
      const body = momoCollectionBody(customerA);
      const hold = holdNextCall(services.collections, 'initiateCollection');
      let first: Promise<HttpResult> | undefined;
      try {
        first = post(COLLECT, body, key);
        await hold.entered; // the first request is inside its handler, past its claim
        const second = await post(COLLECT, body, key);
        expect(second.status).toBe(409);
        expect(second.body).toEqual({ status: 'error', code: 'INVALID_STATE', message: expect.stringMatching(/still in progress/) });
        expect(second.headers.get('retry-after')).toBe('1');
        expect(second.headers.get('idempotent-replayed')).toBeNull();
        // Another body under the key is still the mismatch, in flight or not.
        expectKeyProblem(await post(COLLECT, { ...body, amount: 1600 }, key), /different request/);
        expect(await transactionsWith(merchantA, body.reference)).toBe(0);
        hold.release();
        const done = await first;
        expectExecuted(done);
        expectReplayOf(await post(COLLECT, body, key), done);
        expect(await transactionsWith(merchantA, body.reference)).toBe(1);
      } finally {
        hold.restore();
        await first?.catch(() => undefined);
      }
    });

    it('a client that gave up (closed the connection) gets the answer on its retry', async () => {
      const key = newKey('gave-up');
      const body = momoCollectionBody(customerA);
      const hold = holdNextCall(services.collections, 'initiateCollection');
      const abort = new AbortController();
      try {
        const first = fetch(`${app.url}${COLLECT}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${tokenA}`, 'content-type': 'application/json', 'idempotency-key': key },
          body: JSON.stringify(body),
          signal: abort.signal,
        });
        await hold.entered;
        abort.abort();
        await expect(first).rejects.toThrow();
        const stored = afterNextCall(services.idempotency, 'complete');
        hold.release();
        // The handler runs to its end and its answer is stored, though nobody is there to read it.
        await stored;
        const retry = await post(COLLECT, body, key);
        expect(retry.status).toBe(200);
        expect(retry.headers.get('idempotent-replayed')).toBe('true');
        expect(retry.body.data.external_reference).toBe(body.reference);
        expect(await transactionsWith(merchantA, body.reference)).toBe(1);
      } finally {
        hold.restore();
      }
    });

    it('many concurrent requests with one key: exactly one executes; each other is 409 in progress or the replay', async () => {
      const key = newKey('burst');
      const body = momoCollectionBody(customerA);
      const answers = await Promise.all(Array.from({ length: 12 }, () => post(COLLECT, body, key)));
      const executed = answers.filter((a) => a.status === 200 && a.headers.get('idempotent-replayed') === null);
      expect(executed).toHaveLength(1);
      for (const a of answers) {
        if (a === executed[0]) continue;
        if (a.status === 409) expect(a.body.code).toBe('INVALID_STATE');
        else expectReplayOf(a, executed[0]!);
      }
      expect(await transactionsWith(merchantA, body.reference)).toBe(1);
    });
  });

  describe('merchants', () => {
    it('a key is one merchant’s: another merchant’s request with it neither replays nor waits', async () => {
      const key = newKey('shared');
      const bodyA = momoCollectionBody(customerA);
      const bodyB = momoCollectionBody(customerB);
      const hold = holdNextCall(services.collections, 'initiateCollection');
      let first: Promise<HttpResult> | undefined;
      try {
        first = post(COLLECT, bodyA, key, tokenA);
        await hold.entered;
        // B's request under the same key runs while A's is in flight (the hold takes only A's call).
        const b = await post(COLLECT, bodyB, key, tokenB);
        expectExecuted(b);
        hold.release();
        const a = await first;
        expectExecuted(a);
        expect(a.body.data.reference).not.toBe(b.body.data.reference);
        expectReplayOf(await post(COLLECT, bodyA, key, tokenA), a);
        expectReplayOf(await post(COLLECT, bodyB, key, tokenB), b);
        // B's body under A's key is a mismatch for A, and the reverse.
        expectKeyProblem(await post(COLLECT, bodyB, key, tokenA), /different request/);
        expect(await transactionsWith(merchantA, bodyA.reference)).toBe(1);
        expect(await transactionsWith(merchantB, bodyB.reference)).toBe(1);
      } finally {
        hold.restore();
        await first?.catch(() => undefined);
      }
    });
  });

  describe('which answers are kept', () => {
    it('a 4xx from the handler is kept and replayed (403 KYC_REQUIRED, 404)', async () => {
      const key = newKey('403');
      const body = momoCollectionBody(unapprovedA);
      const first = await post(COLLECT, body, key);
      expect(first.status).toBe(403);
      expect(first.body.code).toBe('KYC_REQUIRED');
      const replay = await post(COLLECT, body, key);
      expectReplayOf(replay, first);
      expect((await keyRows(merchantA, key))[0]).toMatchObject({ status_code: 403, completed_at: expect.any(String) });

      const notFoundKey = newKey('404');
      const unknown = momoCollectionBody('3f1c2d4e-0000-4000-8000-000000000000');
      const missing = await post(COLLECT, unknown, notFoundKey);
      expect(missing.status).toBe(404);
      expectReplayOf(await post(COLLECT, unknown, notFoundKey), missing);
      expect(await transactionsWith(merchantA, body.reference)).toBe(0);
    });

    it('a 400 INVALID_REQUEST (nothing changed) is not kept: the corrected request runs under the same key', async () => {
      const key = newKey('400');
      const body = momoCollectionBody(customerA);
      const invalid = await post(COLLECT, { ...body, amount: -5 }, key);
      expect(invalid.status).toBe(400);
      expect(invalid.body.details).toEqual([{ field: 'amount', issue: expect.any(String) }]);
      expect(await keyRows(merchantA, key)).toEqual([]);
      const corrected = await post(COLLECT, body, key);
      expectExecuted(corrected);
      expectReplayOf(await post(COLLECT, body, key), corrected);
    });

    it('a 5xx is not kept: the claim is dropped and a retry with the key executes', async () => {
      const key = newKey('500');
      const body = momoCollectionBody(customerA);
      failNextCall(services.collections, 'initiateCollection');
      const failed = await post(COLLECT, body, key);
      expect(failed.status).toBe(500);
      expect(failed.body).toEqual({ status: 'error', code: 'SERVER_ERROR', message: 'An unexpected error occurred' });
      expect(await keyRows(merchantA, key)).toEqual([]);
      const retry = await post(COLLECT, body, key);
      expectExecuted(retry);
      expect(await transactionsWith(merchantA, body.reference)).toBe(1);
    });

    it('answers that never reached the handler are not kept (a bad token, malformed JSON)', async () => {
      const key = newKey('early');
      const body = momoCollectionBody(customerA);
      expect((await post(COLLECT, body, key, 'not-a-token')).status).toBe(401);
      const malformed = await request(app.url, 'POST', COLLECT, {
        token: tokenA,
        raw: '{"amount":',
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
      });
      expect(malformed.status).toBe(400);
      expect(await keyRows(merchantA, key)).toEqual([]);
      expectExecuted(await post(COLLECT, body, key));
    });
  });

  describe('the header itself', () => {
    it.each([
      ['empty', ''],
      ['256 characters', 'k'.repeat(256)],
      ['a control character (tab)', 'a\tb'],
      ['a character outside ASCII', 'clé-1'],
    ])('%s → 400 INVALID_REQUEST naming Idempotency-Key, nothing created', async (_label, key) => {
      const before = await allTransactions();
      const rows = await allKeyRows();
      const body = momoCollectionBody(customerA);
      const res = await rawRequest(app.url, 'POST', COLLECT, {
        headers: { authorization: `Bearer ${tokenA}`, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        status: 'error',
        code: 'INVALID_REQUEST',
        message: 'Idempotency-Key must be 1 to 255 printable ASCII characters',
        details: [{ field: 'Idempotency-Key', issue: 'must be 1 to 255 printable ASCII characters' }],
      });
      expect(await allTransactions()).toBe(before);
      expect(await allKeyRows()).toBe(rows);
    });

    it('255 printable characters, spaces and punctuation included, are a key', async () => {
      const key = `${newKey('edge')} ~!"#$%&'()*+,./:;<=>?@[\\]^_\`{|}`.padEnd(255, 'x');
      const body = momoCollectionBody(customerA);
      const first = await post(COLLECT, body, key);
      expectExecuted(first);
      expectReplayOf(await post(COLLECT, body, key), first);
    });

    it('two Idempotency-Key headers → 400', async () => {
      const res = await rawRequest(app.url, 'POST', COLLECT, {
        headers: { authorization: `Bearer ${tokenA}`, 'content-type': 'application/json', 'idempotency-key': [newKey(), newKey()] },
        body: JSON.stringify(momoCollectionBody(customerA)),
      });
      expectKeyProblem(res as unknown as HttpResult, /Send one Idempotency-Key header/);
    });

    it('the secret-bearing routes refuse it (a secret is never returned twice): webhook secret rotation, admin merchant creation', async () => {
      const secretsBefore = await sql(app, 'select webhook_secret_sealed, previous_webhook_secrets from merchant where id = ?', [merchantA.merchant.id]);
      const rotate = await post('/v1/webhooks/secret/rotate', undefined, newKey('rotate'));
      expectKeyProblem(rotate, /not accepted on POST \/v1\/webhooks\/secret\/rotate: .*shown only once/);
      expect(await sql(app, 'select webhook_secret_sealed, previous_webhook_secrets from merchant where id = ?', [merchantA.merchant.id])).toEqual(
        secretsBefore,
      );
      // Without the header it rotates as before.
      expect((await post('/v1/webhooks/secret/rotate', undefined)).status).toBe(200);

      const merchants = Number((await sql(app, 'select count(*) as n from merchant'))[0].n);
      const created = await request(app.url, 'POST', '/v1/admin/merchants', {
        body: { name: 'Never created' },
        headers: { authorization: `Bearer ${TEST_ADMIN_KEY}`, 'idempotency-key': newKey('admin') },
      });
      expectKeyProblem(created, /not accepted on POST \/v1\/admin\/merchants/);
      expect(Number((await sql(app, 'select count(*) as n from merchant'))[0].n)).toBe(merchants);
    });

    it('is ignored where it means nothing (OAuth): no row is written', async () => {
      const rows = await allKeyRows();
      const res = await request(app.url, 'POST', '/v1/oauth/token', {
        body: { grant_type: 'client_credentials', client_id: merchantA.merchant.clientId, client_secret: merchantA.clientSecret },
        headers: { 'idempotency-key': newKey('oauth') },
      });
      expect(res.status).toBe(200);
      expect(await allKeyRows()).toBe(rows);
    });
  });

  // Last: these move the app's clock forward (tokens are re-issued at the new time).
  describe('time (the injected clock)', () => {
    const freshToken = async (merchant: MerchantCredentials) => (await app.token(merchant)).accessToken;

    it('a claim abandoned by a process that died blocks its key only until the lock timeout, then is taken over', async () => {
      const key = newKey('abandoned');
      const body = momoCollectionBody(customerA);
      // What a crash between claim and answer leaves: a claim, never completed.
      const crashed = await services.idempotency.claim(merchantA.merchant.id, key, {
        method: 'POST',
        route: '/v1/crossborder/global-collection',
        params: {},
        body,
      });
      expect(crashed.outcome).toBe('claimed');
      const lockTimeoutMs = services.idempotency.limits.lockTimeoutMs;
      expect((await post(COLLECT, body, key)).status).toBe(409);
      app.clock.advance(lockTimeoutMs - 1);
      const stillHeld = await post(COLLECT, body, key, await freshToken(merchantA));
      expect({ status: stillHeld.status, code: stillHeld.body.code }).toEqual({ status: 409, code: 'INVALID_STATE' });
      // Another request under the abandoned key is a mismatch, not a takeover.
      app.clock.advance(1);
      const token = await freshToken(merchantA);
      expectKeyProblem(await post(COLLECT, { ...body, amount: 1700 }, key, token), /different request/);
      const taken = await post(COLLECT, body, key, token);
      expectExecuted(taken);
      expectReplayOf(await post(COLLECT, body, key, token), taken);
      expect(await transactionsWith(merchantA, body.reference)).toBe(1);
    });

    it('a slow request whose claim was taken over cannot overwrite the answer of the one that took it', async () => {
      const key = newKey('slow');
      const body = momoCollectionBody(customerA);
      const token = await freshToken(merchantA);
      const hold = holdNextCall(services.collections, 'initiateCollection');
      let slow: Promise<HttpResult> | undefined;
      try {
        slow = post(COLLECT, body, key, token);
        await hold.entered;
        app.clock.advance(services.idempotency.limits.lockTimeoutMs);
        const taker = await post(COLLECT, body, key, await freshToken(merchantA));
        expectExecuted(taker);
        hold.release();
        // The slow one executes too, late: the reference rule refuses it, and its answer is not stored.
        const late = await slow;
        expect({ status: late.status, code: late.body.code }).toEqual({ status: 409, code: 'DUPLICATE_REQUEST' });
        expectReplayOf(await post(COLLECT, body, key, await freshToken(merchantA)), taker);
        expect(await transactionsWith(merchantA, body.reference)).toBe(1);
      } finally {
        hold.restore();
        await slow?.catch(() => undefined);
      }
    });

    it('a key is remembered for 24 h: replayed until then, absent (and purged) from then on', async () => {
      const key = newKey('day');
      const body = momoCollectionBody(customerA);
      const first = await post(COLLECT, body, key, await freshToken(merchantA));
      expectExecuted(first);
      app.clock.advance(24 * HOUR - 1);
      expectReplayOf(await post(COLLECT, body, key, await freshToken(merchantA)), first);
      app.clock.advance(1);
      // Expired: the key is free for any request; this one is new (a new reference) and runs.
      const token = await freshToken(merchantA);
      const other = momoCollectionBody(customerA);
      const again = await post(COLLECT, other, key, token);
      expectExecuted(again);
      expect(again.body.data.reference).not.toBe(first.body.data.reference);
      expectReplayOf(await post(COLLECT, other, key, token), again);

      // The purge deletes what has expired (the earlier tests' keys) and keeps the rest. (The periodic
      // sweep runs the same purge every minute, so it may have taken some already.)
      const expired = async () =>
        Number((await sql(app, 'select count(*) as n from idempotency_key where created_at <= ?', [new Date(app.clock.now().getTime() - 24 * HOUR)]))[0].n);
      const before = await expired();
      const kept = (await allKeyRows()) - before;
      expect(await services.idempotency.purgeExpired()).toBeLessThanOrEqual(before);
      expect(await expired()).toBe(0);
      expect(await allKeyRows()).toBe(kept);
      expect(kept).toBeGreaterThan(0);
      expect(await keyRows(merchantA, key)).toHaveLength(1);
    });
  });
});
