import { RequestContext } from '@mikro-orm/core';
import type { MerchantCredentials } from '../../../src/modules/merchants/merchant.service';
import { isQuoteLive } from '../../../src/modules/rates/rates.service';
import { expectedQuoteJson } from '../../helpers/fx';
import { request } from '../../helpers/http';
import { createTestApp, type TestApp } from '../../helpers/test-app';

const QUOTE_ID = /^qt_[0-9a-f]{24}$/;

describe('REST GET /v1/crossborder/rates', () => {
  let app: TestApp;
  let merchant: MerchantCredentials;
  let token: string;

  beforeAll(async () => {
    app = await createTestApp();
    merchant = await app.createMerchant('Rates Merchant');
    token = (await app.token(merchant)).accessToken;
  });
  afterAll(() => app.close());

  const rates = (query: string, auth: string | null = token) => request(app.url, 'GET', `/v1/crossborder/rates${query}`, { token: auth ?? undefined });

  it('prices USD→KES, stores the quote and returns it with expires_at 60 s ahead of the clock', async () => {
    const now = app.clock.now();
    const res = await rates('?source_currency=USD&destination_currency=KES&amount=100');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual({
      status: 'success',
      message: expect.any(String),
      data: {
        quote_id: expect.stringMatching(QUOTE_ID),
        source_currency: 'USD',
        destination_currency: 'KES',
        ...expectedQuoteJson('USD', 'KES', '100', now),
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + 60_000).toISOString(),
      },
    });
    expect(res.body.data.source_amount).toBe(100);
    expect(res.body.data.fee).toBe(1);
    expect(typeof res.body.data.destination_amount).toBe('number');
    expect((String(res.body.data.destination_amount).split('.')[1] ?? '').length).toBeLessThanOrEqual(2);
    expect(typeof res.body.data.rate).toBe('number');
    expect((String(res.body.data.rate).split('.')[1] ?? '').length).toBeLessThanOrEqual(8);

    const [row] = await app.service.orm.em.fork().execute(
      `select merchant_id, source_currency, destination_currency, source_amount::text, destination_amount::text, rate::text, fee::text,
                created_at, expires_at from fx_quote where id = ?`,
      [res.body.data.quote_id],
    );
    expect(row.merchant_id).toBe(merchant.merchant.id);
    expect([row.source_currency, row.destination_currency]).toEqual(['USD', 'KES']);
    expect(Number(row.source_amount)).toBe(100);
    expect(Number(row.rate)).toBe(res.body.data.rate);
    expect(Number(row.destination_amount)).toBe(res.body.data.destination_amount);
    expect(new Date(row.created_at).getTime()).toBe(now.getTime());
    expect(new Date(row.expires_at).getTime()).toBe(now.getTime() + 60_000);
  });

  it('lets its merchant, and only its merchant, read the stored quote back (for a transfer to lock)', async () => {
    const res = await rates('?source_currency=GBP&destination_currency=NGN&amount=250.5');
    expect(res.status).toBe(200);
    const { quote_id: quoteId } = res.body.data;
    const { rates: service } = app.service.app.services;
    const read = (merchantId: string, id: string) => RequestContext.create(app.service.orm.em, () => service.getQuote(merchantId, id));

    const quote = await read(merchant.merchant.id, quoteId);
    expect(quote).toMatchObject({ id: quoteId, merchantId: merchant.merchant.id, sourceCurrency: 'GBP', destinationCurrency: 'NGN' });
    expect(quote!.sourceAmount.toFixed()).toBe('250.5');
    expect(Number(quote!.rate.toFixed())).toBe(res.body.data.rate);
    expect(Number(quote!.destinationAmount.toFixed(2))).toBe(res.body.data.destination_amount);
    expect(Number(quote!.fee.toFixed(2))).toBe(res.body.data.fee);
    expect(quote!.expiresAt.toISOString()).toBe(res.body.data.expires_at);
    expect(isQuoteLive(quote!, app.clock.now())).toBe(true);
    expect(isQuoteLive(quote!, new Date(app.clock.now().getTime() + 60_000))).toBe(false);

    const other = await app.createMerchant('Other Rates Merchant');
    expect(await read(other.merchant.id, quoteId)).toBeUndefined();
    expect(await read(merchant.merchant.id, 'qt_000000000000000000000000')).toBeUndefined();
    expect(await read(merchant.merchant.id, 'not-a-quote-id')).toBeUndefined();
  });

  it.each([
    ['USD', 'UGX', '100'],
    ['GBP', 'XOF', '99.99'],
    ['KES', 'XAF', '12345.67'],
    ['USD', 'RWF', '0.37'],
  ])('shows %s→%s destination amounts without a decimal point', async (source, destination, amount) => {
    const now = app.clock.now();
    const res = await rates(`?source_currency=${source}&destination_currency=${destination}&amount=${amount}`);
    expect(res.status).toBe(200);
    expect(Number.isInteger(res.body.data.destination_amount)).toBe(true);
    expect(JSON.stringify(res.body.data.destination_amount)).toMatch(/^\d+$/);
    expect(res.body.data).toMatchObject(expectedQuoteJson(source, destination, amount, now));
  });

  it('takes whole amounts of zero-decimal source currencies and charges a whole-unit fee', async () => {
    const now = app.clock.now();
    const res = await rates('?source_currency=UGX&destination_currency=KES&amount=50000');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject(expectedQuoteJson('UGX', 'KES', '50000', now));
    expect(res.body.data).toMatchObject({ source_amount: 50000, fee: 500 });
    const xof = await rates('?source_currency=XOF&destination_currency=GHS&amount=12345');
    expect(xof.body.data).toMatchObject({ source_amount: 12345, fee: 123 });
  });

  it('accepts lower-case currency codes and answers them in upper case', async () => {
    const res = await rates('?source_currency=usd&destination_currency=kes&amount=1');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ source_currency: 'USD', destination_currency: 'KES' });
  });

  it('quotes the same currency on both sides at rate 1, fee still charged', async () => {
    const res = await rates('?source_currency=USD&destination_currency=USD&amount=100.25');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ rate: 1, source_amount: 100.25, destination_amount: 100.25, fee: 1 });
  });

  it('gives the same rate within a minute and moves it in the next minute', async () => {
    // Align to the start of a minute bucket first.
    const ms = app.clock.now().getTime();
    app.clock.advance(60_000 - (ms % 60_000));
    const start = app.clock.now();
    const first = await rates('?source_currency=USD&destination_currency=KES&amount=100');
    app.clock.advance(59_000);
    const sameMinute = await rates('?source_currency=USD&destination_currency=KES&amount=100');
    expect(sameMinute.body.data.quote_id).not.toBe(first.body.data.quote_id);
    expect(sameMinute.body.data.rate).toBe(first.body.data.rate);
    expect(sameMinute.body.data.destination_amount).toBe(first.body.data.destination_amount);

    app.clock.advance(1_000);
    const nextMinute = await rates('?source_currency=USD&destination_currency=KES&amount=100');
    expect(nextMinute.body.data.rate).not.toBe(first.body.data.rate);
    expect(nextMinute.body.data).toMatchObject(expectedQuoteJson('USD', 'KES', '100', app.clock.now()));
    expect(first.body.data).toMatchObject(expectedQuoteJson('USD', 'KES', '100', start));

    // Small movement: within ±0.5 % of the first minute's rate (plus spread rounding).
    const ratio = Number(nextMinute.body.data.rate) / Number(first.body.data.rate);
    expect(Math.abs(ratio - 1)).toBeLessThan(0.0101);
  });

  it.each([
    ['a missing amount', '?source_currency=USD&destination_currency=KES', 'amount', 'is required'],
    ['an empty amount', '?source_currency=USD&destination_currency=KES&amount=', 'amount', 'is required'],
    ['a zero amount', '?source_currency=USD&destination_currency=KES&amount=0', 'amount', 'must be greater than 0'],
    ['a negative amount', '?source_currency=USD&destination_currency=KES&amount=-5', 'amount', 'must be greater than 0'],
    ['too many decimals for USD', '?source_currency=USD&destination_currency=KES&amount=100.123', 'amount', 'must have at most 2 decimal places'],
    ['decimals for UGX', '?source_currency=UGX&destination_currency=KES&amount=100.5', 'amount', 'must be a whole number in this currency'],
    ['a non-number amount', '?source_currency=USD&destination_currency=KES&amount=ten', 'amount', 'must be a decimal number, e.g. "100.50"'],
    ['an exponent amount', '?source_currency=USD&destination_currency=KES&amount=1e3', 'amount', 'must not use exponent notation'],
    ['a NaN amount', '?source_currency=USD&destination_currency=KES&amount=NaN', 'amount', 'must be a finite number'],
    ['an amount that converts to nothing', '?source_currency=KES&destination_currency=USD&amount=0.01', 'amount', 'is too small: it converts to 0 USD'],
    ['an unsupported source currency', '?source_currency=EUR&destination_currency=KES&amount=100', 'source_currency', 'is not a supported currency'],
    ['an unsupported destination currency', '?source_currency=USD&destination_currency=JPY&amount=100', 'destination_currency', 'is not a supported currency'],
    ['a malformed currency', '?source_currency=US&destination_currency=KES&amount=100', 'source_currency', 'must be an ISO 4217 code, e.g. KES'],
    ['a missing currency', '?destination_currency=KES&amount=100', 'source_currency', 'is required'],
  ])('answers 400 INVALID_REQUEST for %s', async (_label, query, field, issue) => {
    const res = await rates(query);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 'error', code: 'INVALID_REQUEST', message: expect.any(String), details: [{ field, issue }] });
  });

  it('reports every problem of one request together', async () => {
    const res = await rates('?source_currency=EUR&destination_currency=JPY&amount=-1');
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: any) => d.field)).toEqual(['source_currency', 'destination_currency', 'amount']);
  });

  it('stores nothing for a refused request', async () => {
    const em = app.service.orm.em.fork();
    const [{ n: before }] = await em.execute('select count(*)::int as n from fx_quote');
    await rates('?source_currency=USD&destination_currency=KES&amount=0');
    await rates('?source_currency=EUR&destination_currency=KES&amount=1');
    const [{ n: after }] = await em.execute('select count(*)::int as n from fx_quote');
    expect(after).toBe(before);
  });

  it('needs a bearer token', async () => {
    const res = await rates('?source_currency=USD&destination_currency=KES&amount=100', null);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('INVALID_TOKEN');
  });
});
