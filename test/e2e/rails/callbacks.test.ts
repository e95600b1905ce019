import { CallbackUrls } from '../../../src/providers/routing';
import { deriveKey } from '../../../src/shared/crypto';
import { PublicAddress } from '../../../src/shared/public-address';
import { approvedCustomer } from '../../helpers/factories';
import { request } from '../../helpers/http';
import { notificationRows, txnRow } from '../../helpers/rails';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { bankCollectionBody, sql } from '../../helpers/transactions';
import { eventually } from '../../helpers/wait';

/**
 * The callback route is public: anyone can send anything. With a wrong token nothing is kept (404);
 * with a right one, any body at all is kept raw (once) and answered 200, never a 5xx, and it changes
 * no transaction by itself. The sandbox connector's callback address, as the service computes it
 * (the test app's ENCRYPTION_KEY is known here).
 */
describe('provider callbacks: junk and forged tokens', () => {
  let app: TestApp;
  let callbacks: CallbackUrls;
  let transactionId: string;
  let path: string;

  beforeAll(async () => {
    app = await createTestApp({ env: { SANDBOX_SETTLE_MS: '600000' } });
    const merchant = await app.createMerchant('Callback Junk');
    const { accessToken: token } = await app.token(merchant);
    const customer = await approvedCustomer(app, token);
    // A bank collection: the sandbox's status query says pending (the sender has not paid), so only a forged body could change it.
    const body = bankCollectionBody(customer.customer_uuid);
    expect((await request(app.url, 'POST', '/v1/crossborder/global-collection', { token, body })).status).toBe(200);
    transactionId = (await txnRow(app, body.reference))!.id;
    const address = new PublicAddress(app.url);
    callbacks = new CallbackUrls(deriveKey(Buffer.alloc(32, 7), 'provider-callback'), address);
    path = callbacks.url('sandbox', transactionId).slice(app.url.length);
  }, 60_000);
  afterAll(() => app?.close());

  const junk: Array<[string, string, string]> = [
    ['not JSON', 'text/plain', 'hello'],
    ['an empty body', 'application/json', ''],
    ['a JSON array', 'application/json', '[1,2,3]'],
    ['a JSON number', 'application/json', '1e309'],
    ['deeply nested JSON', 'application/json', `${'['.repeat(5000)}${']'.repeat(5000)}`],
    ['escaped NUL and a lone surrogate', 'application/json', '{"status":"\\u0000","referenceId":"\\udfff","Body":{"stkCallback":{"ResultCode":"\\u0000"}}}'],
    ['form data', 'application/x-www-form-urlencoded', 'a=1&b=2'],
    ['XML', 'application/xml', '<status>SUCCESSFUL</status>'],
    ['no content type', '', '{"status":"SUCCESSFUL"}'],
  ];

  it.each(junk)('%s: kept, answered 200, the transaction unchanged', async (_label, contentType, body) => {
    const res = await fetch(`${app.url}${path}`, { method: 'POST', headers: contentType ? { 'content-type': contentType } : {}, body });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true });
    expect((await notificationRows(app, transactionId)).some((n) => n.body === body)).toBe(true);
    expect(await eventually(async () => (await notificationRows(app, transactionId)).every((n) => n.processed_at !== null))).toBe(true);
    expect((await sql(app, 'select status from "transaction" where id = ?', [transactionId]))[0].status).toBe('processing');
  });

  it('a body over 64 KiB is refused (4xx) and not kept', async () => {
    const before = (await notificationRows(app, transactionId)).length;
    const res = await fetch(`${app.url}${path}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: `"${'x'.repeat(70_000)}"` });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ status: 'error', code: 'INVALID_REQUEST', message: 'Request body exceeds the limit of 65536 bytes' });
    expect(await notificationRows(app, transactionId)).toHaveLength(before);
  });

  it('wrong tokens are 404 and keep nothing: another MAC, another transaction’s id, another connector, junk', async () => {
    const before = (await notificationRows(app, transactionId)).length;
    const otherId = '00000000-0000-4000-8000-000000000001';
    const tokens = [
      `${transactionId}.${'A'.repeat(32)}`,
      callbacks.url('sandbox', otherId).split('/').pop()!,
      'x',
      `${transactionId}`,
      `${transactionId}.${'A'.repeat(31)}%00`,
      '..%2F..%2Fadmin',
    ];
    for (const token of tokens) {
      const res = await request(app.url, 'POST', `/v1/providers/sandbox/callback/${token}`, { body: { status: 'SUCCESSFUL' } });
      expect([404, 400]).toContain(res.status);
    }
    // The right token under another connector's name.
    const token = path.split('/').pop()!;
    for (const connector of ['mtn_momo', 'mpesa', 'SANDBOX', 'nobody']) {
      expect((await request(app.url, 'POST', `/v1/providers/${connector}/callback/${token}`, { body: {} })).status).toBe(404);
    }
    expect(await notificationRows(app, transactionId)).toHaveLength(before);
  });

  it('a duplicate is kept once', async () => {
    const body = '{"duplicate":true}';
    for (let i = 0; i < 3; i += 1) {
      expect((await fetch(`${app.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status).toBe(200);
    }
    expect((await notificationRows(app, transactionId)).filter((n) => n.body === body)).toHaveLength(1);
  });
});
