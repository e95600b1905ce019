import { RequestContext } from '@mikro-orm/core';
import type { MerchantCredentials } from '../../../src/modules/merchants/merchant.service';
import { expectedQuote } from '../../helpers/fx';
import { graphql, request } from '../../helpers/http';
import { createTestApp, type TestApp } from '../../helpers/test-app';

const RATE = `query Rate($source: String!, $destination: String!, $amount: Decimal!) {
  rate(sourceCurrency: $source, destinationCurrency: $destination, amount: $amount) {
    quoteId sourceCurrency destinationCurrency rate sourceAmount destinationAmount fee createdAt expiresAt
  }
}`;

describe('GraphQL rate query', () => {
  let app: TestApp;
  let merchant: MerchantCredentials;
  let token: string;

  beforeAll(async () => {
    app = await createTestApp();
    merchant = await app.createMerchant('GraphQL Rates Merchant');
    token = (await app.token(merchant)).accessToken;
  });
  afterAll(() => app.close());

  const rate = (variables: Record<string, unknown>, auth: string | null = token) => graphql(app.url, RATE, { variables, token: auth ?? undefined });
  const errorOf = (res: Awaited<ReturnType<typeof rate>>) => {
    expect(res.body.errors).toHaveLength(1);
    return res.body.errors![0]!;
  };

  it('prices USD→KES exactly as the rate table says and stores the quote for 60 s', async () => {
    const now = app.clock.now();
    const res = await rate({ source: 'USD', destination: 'KES', amount: '100' });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    const expected = expectedQuote('USD', 'KES', '100', now);
    expect(res.body.data.rate).toEqual({
      quoteId: expect.stringMatching(/^qt_[0-9a-f]{24}$/),
      sourceCurrency: 'USD',
      destinationCurrency: 'KES',
      rate: expected.rate,
      sourceAmount: '100.00',
      destinationAmount: expected.destination_amount,
      fee: '1.00',
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + 60_000).toISOString(),
    });

    const stored = await RequestContext.create(app.service.orm.em, () =>
      app.service.app.services.rates.getQuote(merchant.merchant.id, res.body.data.rate.quoteId),
    );
    expect(stored?.expiresAt.getTime()).toBe(now.getTime() + 60_000);
    expect(stored?.rate.toFixed()).toBe(expected.rate);
  });

  it('gives the same answer through GraphQL and REST in the same minute', async () => {
    const gql = await rate({ source: 'GBP', destination: 'UGX', amount: '10.5' });
    const rest = await request(app.url, 'GET', '/v1/crossborder/rates?source_currency=GBP&destination_currency=UGX&amount=10.5', { token });
    const { quoteId: _q, createdAt: _c, expiresAt: _e, ...figures } = gql.body.data.rate;
    // The same figures: GraphQL carries Decimal strings, REST exact JSON numbers.
    expect({
      ...figures,
      rate: Number(figures.rate),
      sourceAmount: Number(figures.sourceAmount),
      destinationAmount: Number(figures.destinationAmount),
      fee: Number(figures.fee),
    }).toEqual({
      sourceCurrency: rest.body.data.source_currency,
      destinationCurrency: rest.body.data.destination_currency,
      rate: rest.body.data.rate,
      sourceAmount: rest.body.data.source_amount,
      destinationAmount: rest.body.data.destination_amount,
      fee: rest.body.data.fee,
    });
    expect(figures.destinationAmount).toMatch(/^\d+$/);
  });

  it('accepts an Int amount, as a variable and as a literal', async () => {
    const variable = await rate({ source: 'USD', destination: 'XOF', amount: 250 });
    expect(variable.body.errors).toBeUndefined();
    expect(variable.body.data.rate.sourceAmount).toBe('250.00');
    expect(variable.body.data.rate.destinationAmount).toMatch(/^\d+$/);

    const literal = await graphql(app.url, '{ rate(sourceCurrency: "USD", destinationCurrency: "KES", amount: 100) { sourceAmount } }', { token });
    expect(literal.body.errors).toBeUndefined();
    expect(literal.body.data.rate.sourceAmount).toBe('100.00');
  });

  it('moves the rate with the minute bucket, deterministically', async () => {
    const ms = app.clock.now().getTime();
    app.clock.advance(60_000 - (ms % 60_000));
    const first = await rate({ source: 'USD', destination: 'NGN', amount: '1000' });
    app.clock.advance(30_000);
    const same = await rate({ source: 'USD', destination: 'NGN', amount: '1000' });
    expect(same.body.data.rate.rate).toBe(first.body.data.rate.rate);
    app.clock.advance(30_000);
    const next = await rate({ source: 'USD', destination: 'NGN', amount: '1000' });
    expect(next.body.data.rate.rate).not.toBe(first.body.data.rate.rate);
    expect(next.body.data.rate.rate).toBe(expectedQuote('USD', 'NGN', '1000', app.clock.now()).rate);
  });

  it('refuses a Float amount with a clear message, as a variable and as a literal', async () => {
    const variable = await rate({ source: 'USD', destination: 'KES', amount: 100.5 });
    expect(variable.status).toBe(400);
    expect(errorOf(variable).extensions?.code).toBe('INVALID_REQUEST');
    expect(errorOf(variable).message).toMatch(/Decimal does not accept a float.*string/);

    const literal = await graphql(app.url, '{ rate(sourceCurrency: "USD", destinationCurrency: "KES", amount: 100.5) { fee } }', { token });
    expect(literal.status).toBe(400);
    expect(errorOf(literal).extensions?.code).toBe('INVALID_REQUEST');
    expect(errorOf(literal).message).toMatch(/Decimal does not accept a float literal/);
  });

  it.each([
    ['an exponent string', '1e3'],
    ['a word', 'ten'],
    ['a boolean', true],
  ])('refuses %s as a Decimal', async (_label, amount) => {
    const res = await rate({ source: 'USD', destination: 'KES', amount });
    expect(res.status).toBe(400);
    expect(errorOf(res).extensions?.code).toBe('INVALID_REQUEST');
  });

  it.each([
    ['a zero amount', { source: 'USD', destination: 'KES', amount: '0' }, 'amount', 'must be greater than 0'],
    ['a negative amount', { source: 'USD', destination: 'KES', amount: '-5' }, 'amount', 'must be greater than 0'],
    ['too many decimals', { source: 'USD', destination: 'KES', amount: '1.001' }, 'amount', 'must have at most 2 decimal places'],
    ['decimals for XOF', { source: 'XOF', destination: 'KES', amount: '10.5' }, 'amount', 'must be a whole number in this currency'],
    ['an amount that converts to nothing', { source: 'UGX', destination: 'GBP', amount: '1' }, 'amount', 'is too small: it converts to 0 GBP'],
    ['an unsupported currency', { source: 'EUR', destination: 'KES', amount: '1' }, 'sourceCurrency', 'is not a supported currency'],
    ['a malformed currency', { source: 'USD', destination: 'K', amount: '1' }, 'destinationCurrency', 'must be an ISO 4217 code, e.g. KES'],
  ])('answers INVALID_REQUEST with details for %s', async (_label, variables, field, issue) => {
    const res = await rate(variables);
    const error = errorOf(res);
    expect(error.extensions?.code).toBe('INVALID_REQUEST');
    expect(error.extensions?.http?.status).toBe(400);
    expect(error.extensions?.details).toEqual([{ field, issue }]);
    expect(res.body.data).toBeNull();
  });

  it('needs a token', async () => {
    const res = await rate({ source: 'USD', destination: 'KES', amount: '1' }, null);
    expect(res.status).toBe(401);
    expect(errorOf(res).extensions?.code).toBe('INVALID_TOKEN');
  });
});
