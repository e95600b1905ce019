/**
 * Self-test of the Flutterwave v3 fake: it is as strict as Flutterwave's documentation and official Node SDK say, so
 * the connector's tests can trust it. Only loopback traffic: the fake, and a webhook receiver started here.
 */
import { createCipheriv, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { encrypt3des, FlutterwaveFake } from './flutterwave.fake';

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: any;
}

const agent = new http.Agent({ keepAlive: false });

/** One HTTP request to the fake (JSON body unless `raw`); rejects on a socket error or after timeoutMs. */
function call(
  fake: FlutterwaveFake,
  method: string,
  path: string,
  options: { body?: unknown; raw?: string; headers?: Record<string, string>; auth?: string | null; timeoutMs?: number } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  const auth = options.auth === undefined ? `Bearer ${fake.env().FLUTTERWAVE_SECRET_KEY}` : options.auth;
  if (auth !== null) headers.authorization = auth;
  let body: string | undefined = options.raw;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const target = new URL(path, fake.url);
    const req = http.request(
      { agent, host: '127.0.0.1', port: target.port, path: `${target.pathname}${target.search}`, method, headers, timeout: options.timeoutMs ?? 5000 },
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

async function until(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A webhook receiver on loopback; answers `status` and records every request. */
async function receiver(status = 200) {
  const received: { method: string; path: string; headers: http.IncomingHttpHeaders; body: string; json: any }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, json: JSON.parse(body) });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/flw/webhook`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const errorBody = (message: unknown = expect.any(String)) => ({ status: 'error', message, data: null });

const futureYear = String((new Date().getUTCFullYear() + 3) % 100).padStart(2, '0');

const cardPayload = (cardNumber: string, txRef: string, extra: Record<string, unknown> = {}) => ({
  card_number: cardNumber,
  cvv: '564',
  expiry_month: '09',
  expiry_year: futureYear,
  currency: 'NGN',
  amount: '100',
  email: 'developers@flutterwavego.com',
  fullname: 'Flutterwave Developers',
  phone_number: '09000000000',
  tx_ref: txRef,
  redirect_url: 'http://127.0.0.1:9/return',
  ...extra,
});

const chargeCard = (fake: FlutterwaveFake, payload: unknown, key = fake.env().FLUTTERWAVE_ENCRYPTION_KEY) =>
  call(fake, 'POST', '/v3/charges?type=card', { body: { public_key: 'FLWPUBK_TEST-x-X', client: encrypt3des(key, JSON.stringify(payload)) } });

const transferBody = (accountNumber: string, overrides: Record<string, unknown> = {}) => ({
  account_bank: '044',
  account_number: accountNumber,
  amount: 5500,
  narration: 'Supplier payout',
  currency: 'NGN',
  reference: `ref-${randomBytes(6).toString('hex')}`,
  callback_url: 'http://127.0.0.1:9/callback',
  debit_currency: 'NGN',
  ...overrides,
});

const ugBody = (phone: string, overrides: Record<string, unknown> = {}) => ({
  tx_ref: `ug-${randomBytes(6).toString('hex')}`,
  amount: '1500',
  currency: 'UGX',
  email: 'olufemi@flw.com',
  phone_number: phone,
  network: 'MTN',
  fullname: 'Olufemi Obafunmiso',
  ...overrides,
});

describe('FlutterwaveFake', () => {
  let fake: FlutterwaveFake;
  let hook: Awaited<ReturnType<typeof receiver>>;

  beforeEach(async () => {
    fake = await FlutterwaveFake.start({ decisionDelayMs: 20 });
    hook = await receiver();
    fake.webhookUrl = hook.url;
  });
  afterEach(async () => {
    await fake.close();
    await hook.close();
    expect(fake.internalErrors).toEqual([]);
  });
  afterAll(() => agent.destroy());

  describe('authorization, error shapes, faults', () => {
    it('hands out the four variables: base URL, a live secret key, a 24-character encryption key, the webhook hash; test-mode keys when asked', async () => {
      const env = fake.env();
      expect(Object.keys(env).sort()).toEqual(['FLUTTERWAVE_BASE_URL', 'FLUTTERWAVE_ENCRYPTION_KEY', 'FLUTTERWAVE_SECRET_KEY', 'FLUTTERWAVE_WEBHOOK_HASH']);
      expect(env.FLUTTERWAVE_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(env.FLUTTERWAVE_SECRET_KEY).toMatch(/^FLWSECK-[0-9a-f]{32}-X$/);
      expect(env.FLUTTERWAVE_ENCRYPTION_KEY).toMatch(/^[0-9a-f]{24}$/);
      expect(env.FLUTTERWAVE_WEBHOOK_HASH.length).toBeGreaterThan(8);
      const testMode = await FlutterwaveFake.start({ keys: 'test' });
      try {
        expect(testMode.env().FLUTTERWAVE_SECRET_KEY).toMatch(/^FLWSECK_TEST-[0-9a-f]{32}-X$/);
        expect(testMode.env().FLUTTERWAVE_ENCRYPTION_KEY).toMatch(/^FLWSECK_TEST[0-9a-f]{12}$/);
      } finally {
        await testMode.close();
      }
    });

    it('answers 401 without the Bearer secret key, with a wrong one, or with another scheme, and creates nothing', async () => {
      const missing = await call(fake, 'POST', '/v3/transfers', { body: transferBody('0690000040'), auth: null });
      expect(missing.status).toBe(401);
      expect(missing.json).toEqual(errorBody('Authorization required'));
      const wrong = await call(fake, 'POST', '/v3/transfers', { body: transferBody('0690000040'), auth: 'Bearer FLWSECK_TEST-0000-X' });
      expect(wrong.status).toBe(401);
      expect(wrong.json).toEqual(errorBody('Invalid authorization key'));
      const basic = await call(fake, 'GET', '/v3/balances', { auth: `Basic ${Buffer.from(fake.env().FLUTTERWAVE_SECRET_KEY).toString('base64')}` });
      expect(basic.status).toBe(401);
      for (const path of ['/v3/transactions/1/verify', '/v3/transfers/1', '/v3/transactions/verify_by_reference?tx_ref=x']) {
        expect((await call(fake, 'GET', path, { auth: null })).status).toBe(401);
      }
      expect(fake.transfers.size).toBe(0);
      const balances = await call(fake, 'GET', '/v3/balances');
      expect(balances.status).toBe(200);
      expect(balances.json).toMatchObject({ status: 'success', message: 'Wallet balances fetched' });
      expect(balances.json.data).toContainEqual({ currency: 'NGN', available_balance: expect.any(Number), ledger_balance: expect.any(Number) });
    });

    it('answers the documented 500 and 503 bodies to faults and while down, and 404 to an unknown route', async () => {
      fake.failNext('500', { path: '/v3/transfers' });
      const five = await call(fake, 'POST', '/v3/transfers', { body: transferBody('0690000040') });
      expect(five.status).toBe(500);
      expect(five.json).toEqual({ error_id: expect.stringMatching(/^ERRNO\d+T\d+$/), message: 'Application error. Please contact support', code: 'app_error' });
      expect(fake.transfers.size).toBe(0);

      fake.failNext('503');
      const unavailable = await call(fake, 'GET', '/v3/balances');
      expect(unavailable.status).toBe(503);
      expect(unavailable.json).toEqual(errorBody('An error occurred. Please contact support'));

      fake.failNext('accept-then-500', { path: '/v3/transfers' });
      const accepted = await call(fake, 'POST', '/v3/transfers', { body: transferBody('0690000040') });
      expect(accepted.status).toBe(500);
      expect(fake.transfers.size).toBe(1);

      fake.down = true;
      expect((await call(fake, 'GET', '/v3/balances')).status).toBe(503);
      fake.down = false;
      const unknown = await call(fake, 'GET', '/v3/nothing-here');
      expect(unknown.status).toBe(404);
      expect(unknown.json).toEqual(errorBody());
      expect(fake.requests.length).toBe(5);
    });

    it('answers 400 `{status: "error", message, data: null}` to bad bodies, and creates nothing', async () => {
      const cases: [string, unknown][] = [
        ['/v3/transfers', transferBody('0690000040', { account_bank: undefined })],
        ['/v3/transfers', transferBody('0690000040', { account_number: 690000040 })],
        ['/v3/transfers', transferBody('0690000040', { amount: -5 })],
        ['/v3/transfers', transferBody('0690000040', { amount: 'five' })],
        ['/v3/transfers', transferBody('0690000040', { currency: 'ngn' })],
        ['/v3/transfers', transferBody('0690000040', { narration: 'x'.repeat(101) })],
        ['/v3/transfers', transferBody('0690000040', { reference: 42 })],
        ['/v3/virtual-account-numbers', { email: 'not-an-email', is_permanent: false, amount: 100, tx_ref: 'va-1' }],
        ['/v3/virtual-account-numbers', { email: 'user@example.com', is_permanent: false, tx_ref: 'va-1' }],
        ['/v3/virtual-account-numbers', { email: 'user@example.com', is_permanent: true, tx_ref: 'va-1' }],
        ['/v3/virtual-account-numbers', { email: 'user@example.com', is_permanent: true, bvn: '123', tx_ref: 'va-1' }],
        ['/v3/virtual-account-numbers', { email: 'user@example.com', is_permanent: 'no', amount: 100 }],
        ['/v3/virtual-account-numbers', { email: 'user@example.com', amount: 100, currency: 'KES' }],
        ['/v3/charges?type=mobile_money_uganda', ugBody('256772123456', { currency: 'KES' })],
        ['/v3/charges?type=mobile_money_uganda', ugBody('256772123456', { network: 'VODAFONE' })],
        ['/v3/charges?type=mobile_money_uganda', ugBody('256772123456', { phone_number: undefined })],
        ['/v3/charges?type=mobile_money_uganda', ugBody('+256-772', {})],
        ['/v3/charges?type=mobile_money_uganda', ugBody('256772123456', { email: undefined })],
        ['/v3/charges?type=mobile_money_franco', ugBody('23700000020', { currency: 'XAF', network: undefined })],
        ['/v3/charges?type=mobile_money_rwanda', ugBody('250733456789', { currency: 'RWF', network: undefined })],
        ['/v3/charges?type=mobile_money_francophone', ugBody('23700000020', { currency: 'XAF', country: 'CM' })],
        ['/v3/charges', ugBody('256772123456')],
        ['/v3/validate-charge', { otp: '12345' }],
        ['/v3/validate-charge', { otp: '12', flw_ref: 'FLW-MOCK-1' }],
      ];
      for (const [path, body] of cases) {
        const res = await call(fake, 'POST', path, { body });
        expect({ path, body, status: res.status }).toEqual({ path, body, status: 400 });
        expect(res.json).toEqual(errorBody());
      }
      const notJson = await call(fake, 'POST', '/v3/transfers', { raw: '{"amount": ', headers: { 'content-type': 'application/json' } });
      expect(notJson.status).toBe(400);
      expect(notJson.json).toEqual(errorBody());
      const formEncoded = await call(fake, 'POST', '/v3/transfers', {
        raw: 'account_bank=044',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(formEncoded.status).toBe(400);
      expect(fake.transfers.size + fake.transactions.size + fake.virtualAccounts.size).toBe(0);
    });
  });

  describe('transfers and transfer.completed', () => {
    it('queues a transfer (status NEW, the documented fields), then SUCCESSFUL: one webhook with verif-hash, and the GET agrees', async () => {
      const body = transferBody('0690000040', { beneficiary_name: 'Alexis Sanchez', meta: { order: 'o-1' } });
      const res = await call(fake, 'POST', '/v3/transfers', { body });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({
        status: 'success',
        message: 'Transfer Queued Successfully',
        data: {
          id: expect.any(Number),
          account_number: '0690000040',
          bank_code: '044',
          full_name: 'Alexis Sanchez',
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/),
          currency: 'NGN',
          debit_currency: 'NGN',
          amount: 5500,
          fee: 26.875,
          status: 'NEW',
          reference: body.reference,
          meta: { order: 'o-1' },
          narration: 'Supplier payout',
          complete_message: '',
          requires_approval: 0,
          is_approved: 1,
          bank_name: 'ACCESS BANK NIGERIA',
        },
      });
      const id = res.json.data.id as number;
      expect(fake.transfers.get(id)).toMatchObject({ account_bank: '044', account_number: '0690000040', currency: 'NGN', reference: body.reference });

      await fake.webhookDelivered('transfer.completed', id);
      expect(hook.received).toHaveLength(1);
      const [sent] = hook.received;
      expect(sent.method).toBe('POST');
      expect(sent.headers['verif-hash']).toBe(fake.env().FLUTTERWAVE_WEBHOOK_HASH);
      expect(sent.headers['content-type']).toBe('application/json');
      expect(sent.json).toEqual({
        event: 'transfer.completed',
        'event.type': 'Transfer',
        data: expect.objectContaining({
          id,
          account_number: '0690000040',
          bank_name: 'ACCESS BANK NIGERIA',
          bank_code: '044',
          fullname: 'Alexis Sanchez',
          amount: 5500,
          fee: 26.875,
          status: 'SUCCESSFUL',
          reference: body.reference,
          complete_message: 'Successful',
          approver: null,
          requires_approval: 0,
          is_approved: 1,
        }),
      });
      expect(fake.webhooks).toEqual([{ event: 'transfer.completed', body: sent.json, status: 200 }]);

      const got = await call(fake, 'GET', `/v3/transfers/${id}`);
      expect(got.status).toBe(200);
      expect(got.json).toMatchObject({ status: 'success', message: 'Transfer fetched', data: { id, status: 'SUCCESSFUL', complete_message: 'Successful' } });

      await sleep(100);
      expect(hook.received).toHaveLength(1); // once
    });

    it('refuses a reused reference (400, no second transfer, no second webhook)', async () => {
      const body = transferBody('0690000032');
      const first = await call(fake, 'POST', '/v3/transfers', { body });
      expect(first.status).toBe(200);
      const again = await call(fake, 'POST', '/v3/transfers', { body: { ...body, amount: 9999 } });
      expect(again.status).toBe(400);
      expect(again.json).toEqual(errorBody(expect.stringContaining(body.reference)));
      expect([...fake.transfers.values()].filter((t) => t.reference === body.reference)).toHaveLength(1);
      await fake.webhookDelivered('transfer.completed', first.json.data.id);
      await sleep(80);
      expect(hook.received).toHaveLength(1);
    });

    it('fails an account ending 0001 with a documented complete_message, keeps one ending 0009 PENDING until completeTransfer', async () => {
      const failed = await call(fake, 'POST', '/v3/transfers', { body: transferBody('0690000001') });
      const pending = await call(fake, 'POST', '/v3/transfers', { body: transferBody('0690000009') });
      await fake.webhookDelivered('transfer.completed', failed.json.data.id);
      expect(hook.received[0].json.data).toMatchObject({ status: 'FAILED', complete_message: 'DISBURSE FAILED: Insufficient funds in customer wallet' });

      const pendingId = pending.json.data.id as number;
      await until(() => fake.transfers.get(pendingId).status === 'PENDING');
      expect((await call(fake, 'GET', `/v3/transfers/${pendingId}`)).json.data.status).toBe('PENDING');
      expect(hook.received).toHaveLength(1);

      await fake.completeTransfer(pendingId, 'FAILED', 'Account resolve failed');
      expect(hook.received).toHaveLength(2);
      expect(hook.received[1].json.data).toMatchObject({ id: pendingId, status: 'FAILED', complete_message: 'Account resolve failed' });
      expect((await call(fake, 'GET', `/v3/transfers/${pendingId}`)).json.data).toMatchObject({ status: 'FAILED', complete_message: 'Account resolve failed' });
      await expect(fake.completeTransfer(pendingId, 'SUCCESSFUL')).rejects.toThrow(/already FAILED/);
      expect((await call(fake, 'GET', '/v3/transfers/123')).status).toBe(404);
    });

    it('fails a mobile money payout without beneficiary_name, as Flutterwave’s sample list shows', async () => {
      const res = await call(fake, 'POST', '/v3/transfers', {
        body: transferBody('256772123456', { account_bank: 'MPS', currency: 'UGX', debit_currency: 'UGX' }),
      });
      expect(res.json.data).toMatchObject({ bank_code: 'MPS', bank_name: 'FA-BANK', fee: 500, full_name: 'N/A' });
      await fake.webhookDelivered('transfer.completed', res.json.data.id);
      expect(hook.received[0].json.data).toMatchObject({ status: 'FAILED', complete_message: 'beneficiary_name is required' });

      const named = await call(fake, 'POST', '/v3/transfers', {
        body: transferBody('256772123456', { account_bank: 'MPS', currency: 'UGX', beneficiary_name: 'Okello James' }),
      });
      await fake.webhookDelivered('transfer.completed', named.json.data.id);
      expect(hook.received[1].json.data).toMatchObject({ status: 'SUCCESSFUL', fullname: 'Okello James' });
    });

    it('refuses an M-Pesa payout without the sender in meta (sender, sender_country, mobile_number; an object or the SDK’s array of one)', async () => {
      const base = transferBody('254712345678', { account_bank: 'MPS', currency: 'KES', debit_currency: 'KES', beneficiary_name: 'Akinyi Kimwei' });
      const bare = await call(fake, 'POST', '/v3/transfers', { body: base });
      expect(bare.status).toBe(400);
      expect(bare.json).toEqual({ status: 'error', message: 'meta.sender is required for M-Pesa transfers', data: null });
      const partial = await call(fake, 'POST', '/v3/transfers', { body: { ...base, meta: { sender: 'Ada Obi', sender_country: 'NG' } } });
      expect(partial.json.message).toBe('meta.mobile_number is required for M-Pesa transfers');
      expect(fake.transfers.size).toBe(0);
      const full = await call(fake, 'POST', '/v3/transfers', {
        body: { ...base, meta: { sender: 'Ada Obi', sender_country: 'NG', mobile_number: '2348012345678' } },
      });
      expect(full.status).toBe(200);
      expect(full.json.data.meta).toEqual({ sender: 'Ada Obi', sender_country: 'NG', mobile_number: '2348012345678' });
      // The SDK's shape: an array of one object.
      const asArray = await call(fake, 'POST', '/v3/transfers', {
        body: {
          ...base,
          reference: `ref-${randomBytes(6).toString('hex')}`,
          meta: [{ sender: 'Ada Obi', sender_country: 'NG', mobile_number: '2348012345678' }],
        },
      });
      expect(asArray.status).toBe(200);
    });
  });

  describe('webhook delivery', () => {
    it('sends once and never retries, even when the receiver answers 500; dropWebhooks and a missing webhookUrl send nothing', async () => {
      await hook.close();
      hook = await receiver(500);
      fake.webhookUrl = hook.url;
      const res = await call(fake, 'POST', '/v3/transfers', { body: transferBody('0690000031') });
      await fake.webhookDelivered('transfer.completed', res.json.data.id);
      await sleep(150);
      expect(hook.received).toHaveLength(1);
      expect(fake.webhooks[0].status).toBe(500);

      fake.dropWebhooks = true;
      const dropped = await call(fake, 'POST', '/v3/transfers', { body: transferBody('0690000033') });
      await until(() => fake.transfers.get(dropped.json.data.id).status === 'SUCCESSFUL');
      expect(fake.droppedWebhooks).toEqual([
        { event: 'transfer.completed', body: expect.objectContaining({ data: expect.objectContaining({ id: dropped.json.data.id }) }), reason: 'dropWebhooks' },
      ]);
      await expect(fake.webhookDelivered('transfer.completed', dropped.json.data.id, 50)).rejects.toThrow(/dropped/);

      fake.dropWebhooks = false;
      fake.webhookUrl = null;
      const noUrl = await call(fake, 'POST', '/v3/transfers', { body: transferBody('0690000034') });
      await until(() => fake.droppedWebhooks.length === 2);
      expect(fake.droppedWebhooks[1]).toMatchObject({ reason: 'no webhookUrl', body: { data: { id: noUrl.json.data.id } } });
      expect(hook.received).toHaveLength(1);
    });

    it('resends on demand with sendWebhook, and refuses to send anywhere but 127.0.0.1', async () => {
      const status = await fake.sendWebhook('transfer.completed', { id: 1, status: 'SUCCESSFUL' });
      expect(status).toBe(200);
      expect(hook.received[0].json).toEqual({ event: 'transfer.completed', 'event.type': 'Transfer', data: { id: 1, status: 'SUCCESSFUL' } });
      expect(hook.received[0].headers['verif-hash']).toBe(fake.env().FLUTTERWAVE_WEBHOOK_HASH);

      fake.webhookUrl = 'http://localhost:9/hook';
      await expect(fake.sendWebhook('transfer.completed', { id: 2 })).rejects.toThrow(/only http:\/\/127\.0\.0\.1/);
      fake.webhookUrl = 'https://example.com/hook';
      await expect(fake.sendWebhook('transfer.completed', { id: 3 })).rejects.toThrow(/only http:\/\/127\.0\.0\.1/);
      expect(fake.webhookDeliveries).toHaveLength(1);
    });
  });

  describe('virtual accounts', () => {
    it('creates a dynamic account (the documented answer, expiring an hour later) that takes one payment: charge.completed', async () => {
      const res = await call(fake, 'POST', '/v3/virtual-account-numbers', {
        body: { email: 'user@example.com', is_permanent: false, tx_ref: 'va-order-1', amount: 2500, currency: 'NGN', narration: 'Acme Ltd' },
      });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({
        status: 'success',
        message: 'Virtual account created',
        data: {
          response_code: '02',
          response_message: 'Transaction in progress',
          flw_ref: expect.stringMatching(/^FLW-/),
          order_ref: expect.stringMatching(/^URF_\d+_\d+$/),
          account_number: expect.stringMatching(/^\d{10}$/),
          frequency: 'N/A',
          bank_name: expect.any(String),
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
          expiry_date: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
          note: 'Please make a bank transfer to Acme Ltd',
          amount: '2500.00',
        },
      });
      const { account_number: accountNumber, created_at: createdAt, expiry_date: expiry } = res.json.data;
      expect(Date.parse(`${expiry.replace(' ', 'T')}Z`) - Date.parse(`${createdAt.replace(' ', 'T')}Z`)).toBe(3600_000);

      await fake.payVirtualAccount(accountNumber);
      const [tx] = [...fake.transactions.values()];
      expect(tx).toMatchObject({ tx_ref: 'va-order-1', amount: 2500, status: 'successful', payment_type: 'bank_transfer' });
      expect(hook.received).toHaveLength(1);
      expect(hook.received[0].headers['verif-hash']).toBe(fake.env().FLUTTERWAVE_WEBHOOK_HASH);
      expect(hook.received[0].json).toMatchObject({
        event: 'charge.completed',
        'event.type': 'BANK_TRANSFER_TRANSACTION',
        data: { id: tx.id, tx_ref: 'va-order-1', amount: 2500, currency: 'NGN', status: 'successful', payment_type: 'bank_transfer' },
        meta_data: { originatorname: expect.any(String), bankname: expect.any(String) },
      });
      await expect(fake.payVirtualAccount(accountNumber)).rejects.toThrow(/already paid/);

      const verified = await call(fake, 'GET', '/v3/transactions/verify_by_reference?tx_ref=va-order-1');
      expect(verified.json).toMatchObject({ status: 'success', message: 'Transaction fetched successfully', data: { id: tx.id, status: 'successful' } });
      const fetched = await call(fake, 'GET', `/v3/virtual-account-numbers/${res.json.data.order_ref}`);
      expect(fetched.json.data.account_number).toBe(accountNumber);
    });

    it('cannot be paid after its expiry_date; a static NGN account needs a BVN (or NIN) and takes many payments', async () => {
      await fake.close();
      fake = await FlutterwaveFake.start({ decisionDelayMs: 20, virtualAccountTtlMs: 50 });
      fake.webhookUrl = hook.url;
      const dynamic = await call(fake, 'POST', '/v3/virtual-account-numbers', { body: { email: 'user@example.com', tx_ref: 'va-2', amount: '100' } });
      await sleep(80);
      await expect(fake.payVirtualAccount(dynamic.json.data.account_number)).rejects.toThrow(/expired/);

      const noBvn = await call(fake, 'POST', '/v3/virtual-account-numbers', { body: { email: 'user@example.com', is_permanent: true, tx_ref: 'va-3' } });
      expect(noBvn.status).toBe(400);
      expect(noBvn.json.message).toMatch(/bvn/);
      const staticVa = await call(fake, 'POST', '/v3/virtual-account-numbers', {
        body: { email: 'user@example.com', is_permanent: true, bvn: '12345678901', tx_ref: 'va-3' },
      });
      expect(staticVa.json.data).toMatchObject({ expiry_date: 'N/A', amount: null });
      await expect(fake.payVirtualAccount(staticVa.json.data.account_number)).rejects.toThrow(/amount/);
      await fake.payVirtualAccount(staticVa.json.data.account_number, '700');
      await fake.payVirtualAccount(staticVa.json.data.account_number, '300.50');
      expect(hook.received.map((r) => r.json.data.amount)).toEqual([700, 300.5]);
      expect(hook.received.map((r) => r.json.data.tx_ref)).toEqual(['va-3', 'va-3']);
      const ghs = await call(fake, 'POST', '/v3/virtual-account-numbers', {
        body: { email: 'user@example.com', is_permanent: true, currency: 'GHS', tx_ref: 'va-4' },
      });
      expect(ghs.status).toBe(200);
    });
  });

  describe('mobile money charges', () => {
    it('Uganda: "Charge initiated" with only meta.authorization {redirect, mode}, then decided by phone: successful → charge.completed', async () => {
      const body = ugBody('256772123456');
      const res = await call(fake, 'POST', '/v3/charges?type=mobile_money_uganda', { body });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({
        status: 'success',
        message: 'Charge initiated',
        meta: { authorization: { redirect: expect.stringContaining(fake.url), mode: 'redirect' } },
      });
      const [tx] = [...fake.transactions.values()];
      expect(tx).toMatchObject({ tx_ref: body.tx_ref, status: 'pending', currency: 'UGX', amount: 1500 });
      await fake.webhookDelivered('charge.completed', tx.id);
      expect(hook.received[0].json).toMatchObject({
        event: 'charge.completed',
        'event.type': 'MOBILEMONEYUG_TRANSACTION',
        data: { id: tx.id, tx_ref: body.tx_ref, status: 'successful', payment_type: 'mobilemoneyug', amount: 1500, currency: 'UGX' },
      });
      const verified = await call(fake, 'GET', `/v3/transactions/${tx.id}/verify`);
      expect(verified.json.data).toMatchObject({ id: tx.id, status: 'successful', amount: 1500, currency: 'UGX', tx_ref: body.tx_ref, flw_ref: tx.flw_ref });

      const dup = await call(fake, 'POST', '/v3/charges?type=mobile_money_uganda', { body });
      expect(dup.status).toBe(400);
      expect(dup.json).toEqual(errorBody(expect.stringMatching(/already exist/)));
    });

    it('M-Pesa answers the pending data; Francophone the callback mode; 0001 fails, 0009 stays pending until completeCharge', async () => {
      const mpesa = await call(fake, 'POST', '/v3/charges?type=mpesa', {
        body: { tx_ref: 'mp-1', amount: '10', currency: 'KES', email: 'a@b.co', phone_number: '254709920001' },
      });
      expect(mpesa.json).toMatchObject({
        status: 'success',
        message: 'Charge initiated',
        data: { tx_ref: 'mp-1', status: 'pending', auth_model: 'LIPA_MPESA', payment_type: 'mpesa' },
      });
      expect(mpesa.json.meta).toBeUndefined();

      const franco = await call(fake, 'POST', '/v3/charges?type=mobile_money_franco', {
        body: { tx_ref: 'fr-1', amount: '10', currency: 'XAF', country: 'CM', email: 'a@b.co', phone_number: '23700000009' },
      });
      expect(franco.json).toMatchObject({
        message: 'Charge initiated',
        data: { status: 'pending' },
        meta: { authorization: { mode: 'callback', redirect_url: null } },
      });

      await fake.webhookDelivered('charge.completed', mpesa.json.data.id);
      expect(hook.received[0].json).toMatchObject({ 'event.type': 'MPESA_TRANSACTION', data: { tx_ref: 'mp-1', status: 'failed' } });
      await sleep(60);
      expect(fake.transactions.get(franco.json.data.id).status).toBe('pending');
      await fake.completeCharge(franco.json.data.id, 'successful');
      expect(hook.received[1].json.data).toMatchObject({ tx_ref: 'fr-1', status: 'successful' });
      await expect(fake.completeCharge(franco.json.data.id, 'failed')).rejects.toThrow(/already successful/);
    });
  });

  describe('card charges (3DES client payload)', () => {
    it('encrypts as the SDK does: 3DES-ECB, the key’s bytes, PKCS#7, base64 (an openssl enc -des-ede3 vector)', () => {
      expect(encrypt3des('FLWSECK_TESTa1b2c3d4e5f6', '{"tx_ref":"vector-1","amount":100}')).toBe('BnpOmg1zgYxfHTzOLAZ47U9kvBikBshSBVA4jBxPJ8K9fdQOPjOzTQ==');
    });

    it('refuses a payload it cannot decrypt: another key, another mode, not base64, plain JSON, or no client', async () => {
      const payload = cardPayload('5531886652142950', 'bad-1');
      const otherKey = await chargeCard(fake, payload, 'FLWSECK_TEST000000000000');
      expect(otherKey.status).toBe(400);
      expect(otherKey.json).toEqual(errorBody('An error occured while attempting to decrypt some parameters'));
      const key = Buffer.from(fake.env().FLUTTERWAVE_ENCRYPTION_KEY, 'utf8');
      const cbc = createCipheriv('des-ede3-cbc', key, Buffer.alloc(8, 7));
      const cbcClient = Buffer.concat([cbc.update(JSON.stringify(payload), 'utf8'), cbc.final()]).toString('base64');
      for (const client of [
        cbcClient,
        'not base64 at all!',
        Buffer.from(JSON.stringify(payload)).toString('base64'),
        encrypt3des(key.toString(), '"a string"'),
      ]) {
        const res = await call(fake, 'POST', '/v3/charges?type=card', { body: { client } });
        expect(res.status).toBe(400);
        expect(res.json).toEqual(errorBody('An error occured while attempting to decrypt some parameters'));
      }
      const plain = await call(fake, 'POST', '/v3/charges?type=card', { body: payload });
      expect(plain.status).toBe(400);
      expect(plain.json).toEqual(errorBody('client is required'));
      for (const bad of [
        { card_number: '5531886652142951' },
        { cvv: '5' },
        { expiry_month: '13' },
        { expiry_year: '2032' },
        { expiry_year: '20' },
        { email: 'x' },
      ]) {
        const res = await chargeCard(fake, { ...payload, ...bad });
        expect({ bad, status: res.status }).toEqual({ bad, status: 400 });
        expect(res.json).toEqual(errorBody());
      }
      expect(fake.transactions.size).toBe(0);
    });

    it('PIN card: asks for the PIN, then an OTP (validate-charge), then successful: charge.completed, verify, refunds', async () => {
      const payload = cardPayload('5531886652142950', 'card-pin-1');
      const first = await chargeCard(fake, payload);
      expect(first.status).toBe(200);
      expect(first.json).toEqual({
        status: 'success',
        message: 'Charge authorization data required',
        meta: { authorization: { mode: 'pin', fields: ['pin'] } },
      });
      expect(fake.transactions.size).toBe(0);

      const wrongPin = await chargeCard(fake, { ...payload, authorization: { mode: 'pin', pin: '1111' } });
      expect(wrongPin.status).toBe(400);
      const second = await chargeCard(fake, { ...payload, authorization: { mode: 'pin', pin: '3310' } });
      expect(second.json).toMatchObject({
        status: 'success',
        message: 'Charge initiated',
        data: { tx_ref: 'card-pin-1', status: 'pending', auth_model: 'PIN', payment_type: 'card', card: { first_6digits: '553188', last_4digits: '2950' } },
        meta: { authorization: { mode: 'otp', endpoint: '/v3/validate-charge' } },
      });
      const { id, flw_ref: flwRef } = second.json.data;

      const wrongOtp = await call(fake, 'POST', '/v3/validate-charge', { body: { otp: '54321', flw_ref: flwRef } });
      expect(wrongOtp.status).toBe(400);
      expect(fake.transactions.get(id).status).toBe('pending');
      const validated = await call(fake, 'POST', '/v3/validate-charge', { body: { otp: '12345', flw_ref: flwRef, type: 'card' } });
      expect(validated.json).toMatchObject({ status: 'success', message: 'Charge validated', data: { id, status: 'successful' } });
      expect((await call(fake, 'POST', '/v3/validate-charge', { body: { otp: '12345', flw_ref: flwRef } })).status).toBe(400);

      await fake.webhookDelivered('charge.completed', id);
      expect(hook.received[0].json).toMatchObject({
        event: 'charge.completed',
        'event.type': 'CARD_TRANSACTION',
        data: { id, tx_ref: 'card-pin-1', status: 'successful', card: { last_4digits: '2950' } },
      });
      const verified = await call(fake, 'GET', `/v3/transactions/${id}/verify`);
      expect(verified.json).toMatchObject({
        status: 'success',
        message: 'Transaction fetched successfully',
        data: { id, status: 'successful', amount: 100, currency: 'NGN', tx_ref: 'card-pin-1' },
      });

      const partial = await call(fake, 'POST', `/v3/transactions/${id}/refund`, { body: { amount: 40, comments: 'Out of stock' } });
      expect(partial.json).toEqual({
        status: 'success',
        message: 'Transaction refund initiated',
        data: expect.objectContaining({
          tx_id: id,
          amount_refunded: 40,
          status: 'completed',
          destination: 'payment_source',
          meta: { source: 'availablebalance' },
        }),
      });
      const tooMuch = await call(fake, 'POST', `/v3/transactions/${id}/refund`, { body: { amount: 61 } });
      expect(tooMuch.status).toBe(400);
      const rest = await call(fake, 'POST', `/v3/transactions/${id}/refund`, { body: {} });
      expect(rest.json.data.amount_refunded).toBe(60);
      // GET /v3/refunds/:id: the refund as answered, with its status now; refundOutcome and completeRefund decide it.
      const fetched = await call(fake, 'GET', `/v3/refunds/${rest.json.data.id}`);
      expect(fetched.json).toMatchObject({
        status: 'success',
        message: 'Refund fetched',
        data: { id: rest.json.data.id, amount_refunded: 60, status: 'completed' },
      });
      expect((await call(fake, 'GET', '/v3/refunds/999999999')).status).toBe(404);
      expect((await call(fake, 'POST', `/v3/transactions/${id}/refund`, { body: {} })).status).toBe(400);

      const dupTxRef = await chargeCard(fake, { ...payload, authorization: { mode: 'pin', pin: '3310' } });
      expect(dupTxRef.status).toBe(400);
    });

    it('3DS card: mode redirect to the fake’s page; the page completes it and redirects with status, tx_ref and transaction_id', async () => {
      const payload = cardPayload('4187427415564246', 'card-3ds-1', { redirect_url: 'http://127.0.0.1:9/return?order=7' });
      const res = await chargeCard(fake, payload);
      expect(res.json).toMatchObject({
        status: 'success',
        message: 'Charge initiated',
        data: { status: 'pending', auth_model: 'VBVSECURECODE', processor_response: 'Pending Validation' },
        meta: { authorization: { mode: 'redirect', redirect: expect.stringContaining(`${fake.url}/mockvbvpage?ref=`) } },
      });
      const redirect = res.json.meta.authorization.redirect as string;
      expect(res.json.data.auth_url).toBe(redirect);
      const { id } = res.json.data;

      const page = await call(fake, 'GET', redirect.slice(fake.url.length), { auth: null });
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toMatch(/text\/html/);
      expect(fake.transactions.get(id).status).toBe('pending');

      const done = await call(fake, 'GET', `${redirect.slice(fake.url.length)}&outcome=success`, { auth: null });
      expect(done.status).toBe(302);
      const location = new URL(done.headers.location!);
      expect(`${location.origin}${location.pathname}`).toBe('http://127.0.0.1:9/return');
      expect(Object.fromEntries(location.searchParams)).toEqual({ order: '7', status: 'successful', tx_ref: 'card-3ds-1', transaction_id: String(id) });
      await fake.webhookDelivered('charge.completed', id);
      expect(hook.received[0].json.data).toMatchObject({ id, status: 'successful' });

      const declined = await chargeCard(fake, cardPayload('5438898014560229', 'card-3ds-2'));
      const path = (declined.json.meta.authorization.redirect as string).slice(fake.url.length);
      const form = await call(fake, 'POST', path, { raw: 'outcome=fail', headers: { 'content-type': 'application/x-www-form-urlencoded' }, auth: null });
      expect(form.status).toBe(302);
      expect(new URL(form.headers.location!).searchParams.get('status')).toBe('failed');
      expect(fake.transactions.get(declined.json.data.id).status).toBe('failed');
      const refund = await call(fake, 'POST', `/v3/transactions/${declined.json.data.id}/refund`, { body: { amount: 10 } });
      expect(refund.status).toBe(400);
      expect(refund.json).toEqual(errorBody(expect.stringMatching(/successful/)));
    });

    it('AVS card asks for the address, then redirects; the insufficient-funds card is declined; the NoAuth card succeeds', async () => {
      const avs = cardPayload('4556052704172643', 'card-avs-1');
      const first = await chargeCard(fake, avs);
      expect(first.json.meta.authorization).toEqual({ mode: 'avs_noauth', fields: ['city', 'address', 'state', 'country', 'zipcode'] });
      const address = { mode: 'avs_noauth', city: 'Hillside', address: '470 Mundet Pl', state: 'NJ', country: 'US', zipcode: '07205' };
      expect((await chargeCard(fake, { ...avs, authorization: { ...address, zipcode: undefined } })).status).toBe(400);
      const second = await chargeCard(fake, { ...avs, authorization: address });
      expect(second.json.meta.authorization.mode).toBe('redirect');

      const declined = await chargeCard(fake, cardPayload('5258585922666506', 'card-nsf-1'));
      expect(declined.json.data).toMatchObject({ status: 'failed', processor_response: 'Insufficient Funds' });
      await fake.webhookDelivered('charge.completed', declined.json.data.id);

      const noauth = await chargeCard(fake, cardPayload('5061460166976054667', 'card-noauth-1', { expiry_month: '10' }));
      expect(noauth.json.data).toMatchObject({ status: 'successful', auth_model: 'NOAUTH' });
      await fake.webhookDelivered('charge.completed', noauth.json.data.id);
      expect(hook.received.map((r) => r.json.data.status)).toEqual(['failed', 'successful']);
    });
  });

  describe('transactions', () => {
    it('answers 400 "No transaction was found for this id" to unknown ids and references', async () => {
      for (const path of ['/v3/transactions/999/verify', '/v3/transactions/abc/verify', '/v3/transactions/verify_by_reference?tx_ref=nope']) {
        const res = await call(fake, 'GET', path);
        expect(res.status).toBe(400);
        expect(res.json).toEqual(errorBody('No transaction was found for this id'));
      }
      const refund = await call(fake, 'POST', '/v3/transactions/999/refund', { body: { amount: 1 } });
      expect(refund.json).toEqual(errorBody('No transaction was found for this id'));
    });
  });

  describe('account resolution', () => {
    it('names the documented sample, a seeded holder, and refuses an unknown account or a missing field with 400', async () => {
      const sample = await call(fake, 'POST', '/v3/accounts/resolve', { body: { account_number: '0690000032', account_bank: '044' } });
      expect(sample.status).toBe(200);
      expect(sample.json).toEqual({
        status: 'success',
        message: 'Account details fetched',
        data: { account_number: '0690000032', account_name: 'Pastor Bright' },
      });

      fake.accounts.add('058', '0123456789', 'OKAFOR ADAEZE');
      const seeded = await call(fake, 'POST', '/v3/accounts/resolve', { body: { account_number: '0123456789', account_bank: '058' } });
      expect(seeded.json.data.account_name).toBe('OKAFOR ADAEZE');

      const wrongBank = await call(fake, 'POST', '/v3/accounts/resolve', { body: { account_number: '0123456789', account_bank: '044' } });
      expect(wrongBank.status).toBe(400);
      expect(wrongBank.json).toEqual(errorBody('Sorry, recipient account could not be validated. Please try again'));
      for (const body of [{ account_number: '0690000032' }, { account_bank: '044' }, { account_number: 'abc', account_bank: '044' }]) {
        expect((await call(fake, 'POST', '/v3/accounts/resolve', { body })).status).toBe(400);
      }
      expect((await call(fake, 'POST', '/v3/accounts/resolve', { body: { account_number: '0690000032', account_bank: '044' }, auth: null })).status).toBe(401);
      expect(fake.internalErrors).toEqual([]);
    });
  });
  describe('lists and balances (reconciliation)', () => {
    it('lists transactions of a day range, ten a page, newest first, with page_info; Bearer required; a bad date is 400', async () => {
      const day = new Date('2026-12-01T10:00:00Z');
      for (let i = 0; i < 12; i++)
        fake.seedTransaction({ tx_ref: `ref-${i}`, amount: 100 + i, currency: 'NGN', status: 'successful', created_at: new Date(day.getTime() + i * 1000) });
      fake.seedTransaction({ tx_ref: 'other-day', amount: 5, currency: 'NGN', status: 'failed', created_at: new Date('2026-12-02T00:00:01Z') });
      const first = await call(fake, 'GET', '/v3/transactions?from=2026-12-01&to=2026-12-01&page=1');
      expect(first.status).toBe(200);
      expect(first.json).toMatchObject({
        status: 'success',
        message: 'Transactions fetched',
        meta: { page_info: { total: 12, current_page: 1, total_pages: 2 } },
      });
      expect(first.json.data).toHaveLength(10);
      expect(first.json.data[0]).toMatchObject({ tx_ref: 'ref-11', amount: 111, currency: 'NGN', status: 'successful' });
      const second = await call(fake, 'GET', '/v3/transactions?from=2026-12-01&to=2026-12-01&page=2');
      expect(second.json.data.map((t: any) => t.tx_ref)).toEqual(['ref-1', 'ref-0']);
      expect((await call(fake, 'GET', '/v3/transactions?from=2026-12-02&to=2026-12-02')).json.data.map((t: any) => t.tx_ref)).toEqual(['other-day']);
      expect((await call(fake, 'GET', '/v3/transactions?from=yesterday')).status).toBe(400);
      expect((await call(fake, 'GET', '/v3/transactions', { auth: null })).status).toBe(401);
    });

    it('lists transfers newest first, filtered by status; seeded, altered or deleted records show as such', async () => {
      const a = fake.seedTransfer({ reference: 'trf-a', amount: 2500, currency: 'NGN', status: 'SUCCESSFUL', created_at: new Date('2026-12-01T09:00:00Z') });
      fake.seedTransfer({ reference: 'trf-b', amount: 10, currency: 'NGN', status: 'FAILED', created_at: new Date('2026-12-01T10:00:00Z') });
      const all = await call(fake, 'GET', '/v3/transfers?page=1');
      expect(all.json).toMatchObject({ status: 'success', message: 'Transfers fetched', meta: { page_info: { total: 2, current_page: 1, total_pages: 1 } } });
      expect(all.json.data.map((t: any) => t.reference)).toEqual(['trf-b', 'trf-a']);
      expect((await call(fake, 'GET', '/v3/transfers?status=failed')).json.data.map((t: any) => t.reference)).toEqual(['trf-b']);
      fake.transfers.get(a).amount = 2400;
      expect((await call(fake, 'GET', '/v3/transfers/' + a)).json.data.amount).toBe(2400);
      fake.transfers.delete(a);
      expect((await call(fake, 'GET', '/v3/transfers')).json.data.map((t: any) => t.reference)).toEqual(['trf-b']);
    });

    it('answers a balance per currency, as set', async () => {
      expect((await call(fake, 'GET', '/v3/balances/NGN')).json).toMatchObject({
        status: 'success',
        data: { currency: 'NGN', available_balance: 100_000_000 },
      });
      fake.setBalance('NGN', 1234.5);
      expect((await call(fake, 'GET', '/v3/balances/ngn')).json.data).toEqual({ currency: 'NGN', available_balance: 1234.5, ledger_balance: 1234.5 });
    });
  });

  describe('chargebacks', () => {
    /** A successful NoAuth card charge (a real one through the API, not seeded). */
    async function paidCard(txRef: string, amount = '2500') {
      const res = await chargeCard(fake, cardPayload('5061460166976054667', txRef, { amount }));
      expect(res.json.data.status).toBe('successful');
      await fake.webhookDelivered('charge.completed', res.json.data.id);
      return res.json.data as { id: number; flw_ref: string; tx_ref: string };
    }

    it('opens on a successful charge by tx_ref: chargeback.initiated with verif-hash, then listed as documented (no currency, 20 a page)', async () => {
      const charge = await paidCard('cb-open-1');
      hook.received.length = 0;
      const opened = await fake.openChargeback('cb-open-1', { amount: 1000 });
      expect(hook.received).toHaveLength(1);
      expect(hook.received[0].headers['verif-hash']).toBe(fake.env().FLUTTERWAVE_WEBHOOK_HASH);
      expect(hook.received[0].json).toEqual({ event: 'chargeback.initiated', data: opened });
      expect(opened).toEqual({
        id: expect.any(Number),
        amount: 1000,
        flw_ref: charge.flw_ref,
        status: 'initiated',
        stage: 'new',
        comment: 'Product/service not received',
        meta: {
          uploaded_proof: null,
          history: [
            expect.objectContaining({ action: 'initiated', stage: 'new', description: 'Debit and hold chargeback amount' }),
            expect.objectContaining({ action: 'notification', description: 'Email Notification Sent' }),
          ],
        },
        due_date: expect.stringMatching(/T15:59:59\.000Z$/),
        settlement_id: 'N/A',
        created_at: expect.stringMatching(/\.000Z$/),
        transaction_id: charge.id,
        tx_ref: 'cb-open-1',
      });
      expect(Date.parse(opened.due_date as string)).toBeGreaterThan(Date.now());

      const list = await call(fake, 'GET', '/v3/chargebacks');
      expect(list.status).toBe(200);
      expect(list.json).toEqual({
        status: 'success',
        message: 'Chargebacks fetched',
        data: [opened],
        meta: { page_info: { total: 1, current_page: 1, total_pages: 1, page_size: 20 } },
      });
      expect((await call(fake, 'GET', '/v3/chargebacks', { auth: null })).status).toBe(401);

      // Only a successful charge, for at most its amount.
      fake.seedTransaction({ tx_ref: 'cb-failed', amount: 100, currency: 'NGN', status: 'failed' });
      await expect(fake.openChargeback('cb-failed')).rejects.toThrow(/no successful transaction/);
      await expect(fake.openChargeback(charge.id, { amount: 2500.01 })).rejects.toThrow(/a chargeback of 2500.01/);
    });

    it('filters by status, flw_ref, currency, transaction id and day, newest first, twenty a page', async () => {
      const day = new Date('2026-11-20T08:00:00Z');
      const ids: number[] = [];
      for (let i = 0; i < 23; i++) {
        const tx = fake.seedTransaction({ tx_ref: `cb-${i}`, amount: 100 + i, currency: i < 3 ? 'GHS' : 'NGN', status: 'successful' });
        ids.push(tx);
        await fake.openChargeback(tx, { createdAt: new Date(day.getTime() + i * 60_000) });
      }
      const first = await call(fake, 'GET', '/v3/chargebacks?page=1');
      expect(first.json.meta.page_info).toEqual({ total: 23, current_page: 1, total_pages: 2, page_size: 20 });
      expect(first.json.data).toHaveLength(20);
      expect(first.json.data[0].tx_ref).toBe('cb-22');
      expect((await call(fake, 'GET', '/v3/chargebacks?page=2')).json.data.map((c: any) => c.tx_ref)).toEqual(['cb-2', 'cb-1', 'cb-0']);
      expect((await call(fake, 'GET', '/v3/chargebacks?currency=GHS')).json.data.map((c: any) => c.tx_ref)).toEqual(['cb-2', 'cb-1', 'cb-0']);
      const flwRef = fake.transactions.get(ids[5]).flw_ref;
      expect((await call(fake, 'GET', `/v3/chargebacks?flw_ref=${flwRef}`)).json.data.map((c: any) => c.tx_ref)).toEqual(['cb-5']);
      expect((await call(fake, 'GET', `/v3/chargebacks?id=${ids[7]}`)).json.data.map((c: any) => c.tx_ref)).toEqual(['cb-7']);
      expect((await call(fake, 'GET', '/v3/chargebacks?from=2026-11-21')).json.data).toEqual([]);
      expect((await call(fake, 'GET', '/v3/chargebacks?from=2026-11-20&to=2026-11-20')).json.meta.page_info.total).toBe(23);
      expect((await call(fake, 'GET', '/v3/chargebacks?from=someday')).status).toBe(400);

      const decline = await call(fake, 'PUT', `/v3/chargebacks/${first.json.data[0].id}`, { body: { action: 'decline', comment: 'Delivered' } });
      expect(decline.status).toBe(200);
      expect((await call(fake, 'GET', '/v3/chargebacks?status=declined')).json.data.map((c: any) => c.tx_ref)).toEqual(['cb-22']);
      expect((await call(fake, 'GET', '/v3/chargebacks?status=initiated')).json.meta.page_info.total).toBe(22);
    });

    it('accepts or declines once: the new status, its history, its webhook; a second answer, a bad body or an unknown id is refused', async () => {
      await paidCard('cb-answer-1');
      await paidCard('cb-answer-2');
      const a = await fake.openChargeback('cb-answer-1');
      const b = await fake.openChargeback('cb-answer-2', { stage: 'pre-arbitration' });
      hook.received.length = 0;

      const accepted = await call(fake, 'PUT', `/v3/chargebacks/${a.id}`, { body: { action: 'accept', comment: 'Refund due' } });
      expect(accepted.status).toBe(200);
      expect(accepted.json).toMatchObject({ status: 'success', message: 'Chargeback accepted', data: { id: a.id, status: 'accepted', stage: 'new' } });
      expect(accepted.json.data.meta.history.at(-1)).toMatchObject({ action: 'accept', stage: 'new', description: 'Merchant accepts claim' });
      await fake.webhookDelivered('chargeback.accepted', a.id as number);
      expect(hook.received.map((r) => [r.json.event, r.json.data.id])).toEqual([['chargeback.accepted', a.id]]);

      const again = await call(fake, 'PUT', `/v3/chargebacks/${a.id}`, { body: { action: 'decline', comment: 'Changed our mind' } });
      expect(again.status).toBe(400);
      expect(again.json).toEqual(errorBody('Chargeback has already been accepted'));

      for (const body of [{ comment: 'x' }, { action: 'refund', comment: 'x' }, { action: 'decline' }, { action: 'decline', comment: ' ' }]) {
        expect((await call(fake, 'PUT', `/v3/chargebacks/${b.id}`, { body })).status).toBe(400);
      }
      expect((await call(fake, 'PUT', '/v3/chargebacks/1', { body: { action: 'accept', comment: 'x' } })).json).toEqual(errorBody('Chargeback not found'));
      expect((await call(fake, 'PUT', `/v3/chargebacks/${b.id}`, { body: { action: 'accept', comment: 'x' }, auth: null })).status).toBe(401);
      expect(fake.chargebacks.byId.get(b.id as number)!.status).toBe('initiated');

      const declined = await call(fake, 'PUT', `/v3/chargebacks/${b.id}`, {
        body: { action: 'decline', comment: 'Service was delivered', prooflink: 'https://cdn.example.invalid/proof.png' },
      });
      expect(declined.json).toMatchObject({
        message: 'Chargeback declined',
        data: { status: 'declined', stage: 'pre-arbitration', meta: { uploaded_proof: 'https://cdn.example.invalid/proof.png' } },
      });
      await fake.webhookDelivered('chargeback.declined', b.id as number);

      // The bank decides: won (the lien lifted) → chargeback.won; a decided one cannot be decided again.
      await fake.decideChargeback(b.id as number, 'won');
      expect(hook.received.at(-1)!.json).toMatchObject({ event: 'chargeback.won', data: { id: b.id, status: 'won' } });
      await expect(fake.decideChargeback(b.id as number, 'lost')).rejects.toThrow(/already won/);
      expect((await call(fake, 'PUT', `/v3/chargebacks/${b.id}`, { body: { action: 'accept', comment: 'x' } })).json).toEqual(
        errorBody('Chargeback has already been won'),
      );
    });

    it('an unanswered chargeback is lost ("No merchant response"); the webhook is dropped like any other when asked', async () => {
      await paidCard('cb-lost');
      const cb = await fake.openChargeback('cb-lost');
      fake.dropWebhooks = true;
      await fake.decideChargeback(cb.id as number, 'lost');
      expect(fake.droppedWebhooks.at(-1)).toMatchObject({ event: 'chargeback.lost', reason: 'dropWebhooks' });
      const listed = (await call(fake, 'GET', '/v3/chargebacks?status=lost')).json.data;
      expect(listed).toHaveLength(1);
      expect(listed[0].meta.history.at(-1)).toMatchObject({ action: 'lost', description: 'No merchant response' });
    });
  });
});
