import { runCli } from '../../helpers/engine';
import { request } from '../../helpers/http';
import { TEST_ADMIN_KEY, createTestApp, type TestApp } from '../../helpers/test-app';

/**
 * Issue 34, L1 and L8: an operator adjustment's reference stands for one adjustment. Reused with
 * the same amount, sign and currency it is a retry (200, nothing posted again); with another it is
 * 409 DUPLICATE_REQUEST saying what differs, on the admin API and the CLI alike. A signed amount is
 * read strictly: "- 5" is not −5.
 */

let app: TestApp;
let merchantId: string;
let token: string;

const adjust = (body: Record<string, unknown>, id = merchantId) =>
  request(app.url, 'POST', `/v1/admin/merchants/${id}/adjustments`, { token: TEST_ADMIN_KEY, body });
const available = async (currency: string) =>
  ((await request(app.url, 'GET', '/v1/balances', { token })).body.data as Array<{ currency: string; available: number }>).find((b) => b.currency === currency)!
    .available;
const adjustmentsPosted = async () => (await request(app.url, 'GET', '/v1/balance-transactions?type=adjustment', { token })).body.data.length as number;

beforeAll(async () => {
  app = await createTestApp({ env: { SANDBOX_OPENING_BALANCE: '1000000' } });
  const merchant = await app.createMerchant('Adjusted');
  merchantId = merchant.merchant.id;
  token = (await app.token(merchant)).accessToken;
});

afterAll(async () => {
  await app?.close();
});

describe('an adjustment reference reused', () => {
  it('with the same amount, sign and currency: 200 "already posted", nothing posted again', async () => {
    const first = await adjust({ currency: 'KES', amount: '500.00', reason: 'Goodwill credit', reference: 'ADJ-SAME' });
    expect(first.status).toBe(201);
    // The same value however it is written (a number, another number of decimals).
    for (const amount of ['500.00', 500, '500']) {
      const again = await adjust({ currency: 'KES', amount, reason: 'Goodwill credit', reference: 'ADJ-SAME' });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ status: 'success', message: 'Adjustment already posted under this reference; nothing changed' });
    }
    expect(await available('KES')).toBe(1_000_500);
  });

  it('with another amount, sign or currency: 409 DUPLICATE_REQUEST naming what differs, and nothing changes', async () => {
    const first = await adjust({ currency: 'NGN', amount: '-250.00', reason: 'Chargeback fee', reference: 'ADJ-DIFF' });
    expect(first.status).toBe(201);
    const before = await available('NGN');
    const posted = await adjustmentsPosted();
    const cases: Array<[Record<string, unknown>, string[], RegExp]> = [
      [{ currency: 'NGN', amount: '-300.00' }, ['amount'], /amount is -300; the adjustment posted under this reference is an adjustment of -250/],
      [{ currency: 'NGN', amount: '250.00' }, ['amount'], /amount is 250; the adjustment posted under this reference is a debit of -250/],
      [{ currency: 'GHS', amount: '-250.00' }, ['currency'], /currency is GHS; the adjustment posted under this reference is in NGN/],
      [{ currency: 'KES', amount: '10' }, ['currency', 'amount'], /different currency and amount/],
    ];
    for (const [body, fields, message] of cases) {
      const res = await adjust({ reason: 'Chargeback fee', reference: 'ADJ-DIFF', ...body });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ status: 'error', code: 'DUPLICATE_REQUEST' });
      expect(res.body.message).toMatch(message);
      expect(res.body.message).toMatch(/ADJ-DIFF/);
      expect(res.body.details.map((d: { field: string }) => d.field)).toEqual(fields);
    }
    expect(await available('NGN')).toBe(before);
    expect(await adjustmentsPosted()).toBe(posted);
  });

  it('by another merchant is that merchant’s own adjustment (the reference is per merchant)', async () => {
    const other = await app.createMerchant('Other');
    const res = await adjust({ currency: 'NGN', amount: '99', reason: 'Its own', reference: 'ADJ-DIFF' }, other.merchant.id);
    expect(res.status).toBe(201);
  });

  it('the CLI: the same adjustment again exits 0 ("posted": false); another under the reference exits non-zero with the message', async () => {
    const args = (amount: string, currency = 'KES') => [
      merchantId,
      '--currency',
      currency,
      `--amount=${amount}`,
      '--reason',
      'CLI',
      '--reference',
      'ADJ-CLI-34',
    ];
    const first = await runCli(app.db.url, 'ledger-adjust', args('12.50'));
    expect(first.exitCode).toBe(0);
    expect(first.output.posted).toBe(true);
    const retry = await runCli(app.db.url, 'ledger-adjust', args('12.50'));
    expect(retry.exitCode).toBe(0);
    expect(retry.output.posted).toBe(false);
    const before = await available('KES');
    const other = await runCli(app.db.url, 'ledger-adjust', args('-12.50'));
    expect(other.exitCode).toBe(1);
    expect(other.output).toBeNull();
    expect(other.stderr).toMatch(
      /^ledger:adjust failed: DUPLICATE_REQUEST: An adjustment with reference ADJ-CLI-34 was already posted with a different amount/m,
    );
    expect(other.stderr).toMatch(/a credit of 12\.5/);
    expect(await available('KES')).toBe(before);
  });
});

describe('an adjustment amount is read strictly (L8)', () => {
  it('"- 5", "--5", "+5", "-+5", "5e2", "0x10", "-", "- 5.00" are 400 INVALID_REQUEST naming amount, and post nothing', async () => {
    const before = await available('UGX');
    const posted = await adjustmentsPosted();
    const refused = ['- 5', '--5', '+5', '-+5', '5e2', '-5e2', '0x10', '-0x10', '-', '- 5.00', '−5', '5-', '', '-0', 'NaN', '-Infinity'];
    for (const [i, amount] of refused.entries()) {
      const res = await adjust({ currency: 'UGX', amount, reason: 'Strict', reference: `ADJ-STRICT-${i}` });
      expect({ amount, status: res.status }).toEqual({ amount, status: 400 });
      expect(res.body).toMatchObject({ status: 'error', code: 'INVALID_REQUEST' });
      expect(res.body.details?.[0]?.field).toBe('amount');
    }
    expect(await available('UGX')).toBe(before);
    expect(await adjustmentsPosted()).toBe(posted);
  });

  it('surrounding whitespace is trimmed, as in every amount ("  -5 " is −5, " 5" is 5); a JSON number’s sign is its own', async () => {
    const before = await available('UGX');
    expect((await adjust({ currency: 'UGX', amount: '  -5 ', reason: 'Trimmed', reference: 'ADJ-TRIM-1' })).status).toBe(201);
    expect((await adjust({ currency: 'UGX', amount: ' 5', reason: 'Trimmed', reference: 'ADJ-TRIM-2' })).status).toBe(201);
    expect((await adjust({ currency: 'UGX', amount: -7, reason: 'Number', reference: 'ADJ-NUM' })).status).toBe(201);
    expect(await available('UGX')).toBe(before - 7);
  });

  it('the CLI refuses "- 5" with a non-zero exit, naming amount', async () => {
    const res = await runCli(app.db.url, 'ledger-adjust', [merchantId, '--currency', 'UGX', '--amount=- 5', '--reason', 'x', '--reference', 'ADJ-CLI-SPACE']);
    expect(res.exitCode).toBe(1);
    expect(res.stderr).toMatch(/INVALID_REQUEST: .*amount/);
  });
});
