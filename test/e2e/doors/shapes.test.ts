import fs from 'node:fs';
import path from 'node:path';
import { buildSchema, getNamedType, isObjectType, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import { approvedCustomer } from '../../helpers/factories';
import { graphql, request, type HttpResult } from '../../helpers/http';
import { cardPaymentBody, CARDS } from '../../helpers/payments';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { bankCollectionBody, momoCollectionBody, transferBody } from '../../helpers/transactions';
import { eventually } from '../../helpers/wait';
import { setEndpoint } from '../../helpers/webhooks';

/**
 * The golden answers: one scripted merchant's day through every door (REST answers, GraphQL answers with every
 * field of their types, the CSV export, the OpenAPI document and the webhook bodies its receiver got), compared
 * byte for byte with test/fixtures/shapes/answers.json after the values that differ from run to run (ids, the
 * service's references, secrets, the wall clock) are replaced by placeholders. Key order, number formats, nulls
 * and descriptions are compared as sent. A change to any shape fails here; a deliberate one is recorded with
 * `UPDATE_SHAPES=1 npx jest test/e2e/doors/shapes.test.ts` and reviewed in the diff of the fixture.
 */
const FIXTURE = path.resolve(__dirname, '../../fixtures/shapes/answers.json');

/** Values that differ from run to run, each replaced by a placeholder naming what it was. */
const VOLATILE: Array<[RegExp, string]> = [
  [/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>'],
  [/\b(col|trf|pay|rfd|bt|msg|txn|qt)_[A-Za-z0-9]{8,}/g, '<$1_ref>'],
  [/\bevt_[A-Za-z0-9_-]{8,}/g, '<evt_id>'],
  [/\b(cs|plink)_[A-Za-z0-9_-]{24}\b/g, '<$1_id>'],
  // A payment link's QR code encodes its URL, whose port varies.
  [/"(qr_svg|qrSvg)":"(?:[^"\\]|\\.)*"/g, '"$1":"<svg>"'],
  [/\bsbx_([a-z]+)_[0-9a-f]{8,}/g, 'sbx_$1_<id>'],
  // Times the database stamps (the ledger's), not the test's manual clock (2026-11-22).
  [/(?!2026-11-22)20\d\d-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, '<database-time>'],
  [/\/sandbox\/3ds\/[A-Za-z0-9_-]{20,}/g, '/sandbox/3ds/<handle>'],
  [/"fingerprint":"[A-Za-z0-9_-]{10,}"/g, '"fingerprint":"<fingerprint>"'],
  [/fingerprint":\s*"[A-Za-z0-9_-]{10,}"/g, 'fingerprint":"<fingerprint>"'],
  [/"(client_id|clientId|client_secret|clientSecret|webhook_secret|webhookSecret)":"[^"]+"/g, '"$1":"<secret>"'],
  [/"(request_id|requestId)":"[^"]+"/g, '"$1":"<request-id>"'],
  [/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>'],
  // When a delivery went out: its worker's moment on the manual clock, which the script moves on meanwhile.
  [/"(deliveredAt|delivered_at)":"[^"]+"/g, '"$1":"<delivery-time>"'],
  [/"(after|cursor|endCursor|startCursor|next_cursor)":"[^"]+"/g, '"$1":"<cursor>"'],
];

function normalise(text: string): string {
  let out = text;
  for (const [pattern, placeholder] of VOLATILE) out = out.replace(pattern, placeholder);
  return out;
}

const byNormalisedText = (a: unknown, b: unknown) => (normalise(JSON.stringify(a)) < normalise(JSON.stringify(b)) ? -1 : 1);

/** A selection of every field of `type`, nested types included (to `depth`), arguments left to their defaults. */
function selectAll(schema: GraphQLSchema, type: GraphQLObjectType, depth = 3): string {
  const fields = Object.values(type.getFields())
    .filter((f) => f.args.every((a) => a.type.toString().endsWith('!') === false))
    .map((f) => {
      const named = getNamedType(f.type);
      if (!isObjectType(named)) return f.name;
      if (depth === 0) return '';
      return `${f.name} { ${selectAll(schema, named, depth - 1)} }`;
    })
    .filter(Boolean);
  return fields.join(' ');
}

describe('golden answers: every door’s shapes, byte for byte', () => {
  let app: TestApp;
  let receiver: Receiver;
  let token: string;
  let customerUuid: string;
  const answers: Record<string, string> = {};
  const schema = buildSchema(fs.readFileSync(path.resolve(__dirname, '../../../schema.graphql'), 'utf8'));

  /**
   * Each answer as the client got it: status, content type and the body's text. Balance transactions posted in one
   * statement share their database time, so their order among themselves varies: theirs are put in one order first.
   */
  const keep = (name: string, res: HttpResult, sortItems?: (body: any) => any[]) => {
    let text = res.text;
    if (sortItems) {
      const body = JSON.parse(text);
      sortItems(body).sort(byNormalisedText);
      text = JSON.stringify(body);
    }
    answers[name] = normalise(`${res.status} ${res.headers.get('content-type') ?? ''}\n${text}`);
    return res;
  };
  const rest = async (name: string, method: string, url: string, body?: unknown, headers?: Record<string, string>, sortItems?: (body: any) => any[]) =>
    keep(name, await request(app.url, method, url, { token, body, headers }), sortItems);
  const gql = async (name: string, query: string, variables?: Record<string, unknown>, sortItems?: (body: any) => any[]) => {
    const res = await graphql(app.url, query, { token, variables });
    if (sortItems) sortItems(res.body).sort(byNormalisedText);
    answers[name] = normalise(`${res.status}\n${JSON.stringify(res.body)}`);
    return res;
  };
  const tick = () => app.clock.advance(60_000);

  beforeAll(async () => {
    receiver = await startReceiver(() => 200);
    app = await createTestApp({ env: { SANDBOX_SETTLE_MS: '600000', WEBHOOK_RETRY_SCHEDULE: '200ms,200ms,200ms' } });
    const credentials = await app.createMerchant('Golden Merchant');
    ({ accessToken: token } = await app.token(credentials));
    await setEndpoint(app.url, token, receiver.url);
    customerUuid = (await approvedCustomer(app, token, { customerid: 'golden-customer-1' })).customer_uuid;
  });
  afterAll(async () => {
    await app?.close();
    await receiver?.close();
  });

  it('answers as recorded', async () => {
    await rest('merchant', 'GET', '/v1/merchant');
    await rest('customer', 'GET', `/v1/customer/${customerUuid}`);
    await rest('customer.kyc', 'GET', `/v1/customer/${customerUuid}/kyc`);
    await rest('customers', 'GET', '/v1/customers');
    tick();

    // A mobile money collection, decided; a bank collection left processing.
    const momo = await rest(
      'collection.initiate',
      'POST',
      '/v1/crossborder/global-collection',
      momoCollectionBody(customerUuid, { reference: 'golden-col-1' }),
    );
    await rest('collection.status', 'GET', `/v1/crossborder/global-transfer/${momo.body.data.reference}`);
    tick();
    await rest('collection.simulate', 'POST', `/v1/sandbox/transactions/${momo.body.data.reference}/simulate`, { outcome: 'successful' });
    tick();
    const bank = await rest(
      'collection.bank.initiate',
      'POST',
      '/v1/crossborder/global-collection',
      bankCollectionBody(customerUuid, { reference: 'golden-bcol-1' }),
    );
    await rest('collection.bank.status', 'GET', `/v1/crossborder/global-transfer/${bank.body.data.reference}`);
    tick();

    // A transfer on a quote, and one that fails.
    await rest('topup', 'POST', '/v1/sandbox/balance/top-up', { currency: 'USD', amount: '1000' });
    const quote = await rest('rate', 'GET', '/v1/crossborder/rates?source_currency=USD&destination_currency=KES&amount=100');
    const transfer = await rest(
      'transfer.initiate',
      'POST',
      '/v1/crossborder/global-transfer',
      transferBody(customerUuid, { reference: 'golden-trf-1', quote_id: quote.body.data.quote_id }),
    );
    await rest('transfer.status', 'GET', `/v1/crossborder/global-transfer/${transfer.body.data.reference}`);
    tick();
    const failing = await rest(
      'transfer2.initiate',
      'POST',
      '/v1/crossborder/global-transfer',
      transferBody(customerUuid, { reference: 'golden-trf-2', amount: 10 }),
    );
    tick();
    await rest('transfer2.simulate', 'POST', `/v1/sandbox/transactions/${failing.body.data.reference}/simulate`, { outcome: 'failed' });
    tick();

    // Card payments: one charged, one waiting for 3-D Secure; a refund of part of the first.
    const paid = await rest('payment.initiate', 'POST', '/v1/payments/initiate', cardPaymentBody({ reference: 'golden-pay-1', amount: '1000.00' }));
    await rest('payment.verify', 'GET', `/v1/payments/verify/${paid.body.data.reference}`);
    tick();
    await rest('payment.3ds.initiate', 'POST', '/v1/payments/initiate', cardPaymentBody({ reference: 'golden-pay-2', card: { number: CARDS.threeDs } }));
    tick();
    const refund = await rest('refund.create', 'POST', '/v1/refunds', {
      payment_reference: paid.body.data.reference,
      amount: '300.00',
      reason: 'Damaged item',
      reference: 'golden-rfd-1',
    });
    await rest('refund.get', 'GET', `/v1/refunds/${refund.body.data.reference}`);
    tick();

    // Hosted checkout: a session and a payment link.
    const session = await rest('checkout.session.create', 'POST', '/v1/checkout/sessions', {
      amount: '2500.00',
      currency: 'NGN',
      reference: 'golden-cs-1',
      customer: { email: 'ada@example.com', name: 'Ada Obi' },
      redirect_url: 'https://shop.example/orders/1',
      metadata: { order_id: '1' },
    });
    await rest('checkout.session.get', 'GET', `/v1/checkout/sessions/${session.body.data.id}`);
    const link = await rest('payment-link.create', 'POST', '/v1/payment-links', {
      name: 'Golden link',
      currency: 'NGN',
      slug: 'golden-link',
      min_amount: '100',
    });
    await rest('payment-link.get', 'GET', `/v1/payment-links/${link.body.data.id}`);
    tick();

    // Bad input and a missing record: the envelope.
    await rest('error.validation', 'POST', '/v1/crossborder/global-collection', momoCollectionBody(customerUuid, { amount: 'abc', reference: 'golden-bad' }));
    await rest('error.not-found', 'GET', '/v1/crossborder/global-transfer/golden-nothing');

    // Lists, history, export, the books.
    await rest('transactions', 'GET', '/v1/transactions?limit=50');
    await rest('transaction.events', 'GET', `/v1/transactions/${momo.body.data.reference}/events`);
    await rest('transactions.csv', 'GET', '/v1/transactions/export.csv');
    await rest('balances', 'GET', '/v1/balances');
    await rest('balance-transactions', 'GET', '/v1/balance-transactions?limit=50', undefined, undefined, (b) => b.data);
    await rest('statement.json', 'GET', '/v1/reports/statement?currency=USD&from=2026-11-01&to=2026-12-01', undefined, { accept: 'application/json' });
    await rest('statement.csv', 'GET', '/v1/reports/statement?currency=USD&from=2026-11-01&to=2026-12-01');
    await rest('countries', 'GET', '/v1/crossborder/countries');
    await rest('openapi', 'GET', '/v1/openapi.json');

    // GraphQL: every field of each type.
    const query = schema.getQueryType()!;
    const of = (field: string) => getNamedType(query.getFields()[field]!.type) as GraphQLObjectType;
    await gql('gql.merchant', `{ merchant { ${selectAll(schema, of('merchant'))} } }`);
    await gql('gql.customer', `query($u: String!) { customer(uuid: $u) { ${selectAll(schema, of('customer'))} } }`, { u: customerUuid });
    await gql('gql.customers', `{ customers(first: 10) { ${selectAll(schema, of('customers'))} } }`);
    await gql('gql.transactions', `{ transactions(first: 50) { ${selectAll(schema, of('transactions'))} } }`);
    await gql('gql.balances', `{ balances { ${selectAll(schema, of('balances'))} } }`);
    await gql(
      'gql.balanceTransactions',
      `{ balanceTransactions(first: 50) { ${selectAll(schema, of('balanceTransactions'))} } }`,
      undefined,
      (b) => b.data.balanceTransactions.edges,
    );
    await gql('gql.error', `{ transaction(reference: "golden-nothing") { reference } }`);
    await gql('gql.checkoutSession', `query($id: ID!) { checkoutSession(id: $id) { ${selectAll(schema, of('checkoutSession'))} } }`, {
      id: session.body.data.id,
    });
    await gql('gql.paymentLinks', `{ paymentLinks(first: 10) { ${selectAll(schema, of('paymentLinks'))} } }`);

    // Webhooks: every event delivered (their order of arrival varies: sorted by body), then their records.
    const events = await request(app.url, 'GET', '/v1/webhooks/events?limit=100', { token });
    const expected = events.body.data.length as number;
    expect(await eventually(async () => receiver.received.length >= expected, { attempts: 400, everyMs: 25 })).toBe(true);
    answers['webhooks.bodies'] = normalise(
      receiver.received
        .map((r) => r.body)
        .sort()
        .join('\n'),
    );
    await gql('gql.webhookEvents', `{ webhookEvents(first: 100) { ${selectAll(schema, of('webhookEvents'), 2)} } }`);

    const recorded = fs.existsSync(FIXTURE) ? (JSON.parse(fs.readFileSync(FIXTURE, 'utf8')) as Record<string, string>) : undefined;
    if (process.env.UPDATE_SHAPES === '1' || !recorded) {
      if (process.env.CI) throw new Error(`${FIXTURE} is missing: record it with UPDATE_SHAPES=1 and commit it`);
      fs.mkdirSync(path.dirname(FIXTURE), { recursive: true });
      fs.writeFileSync(FIXTURE, `${JSON.stringify(answers, null, 1)}\n`);
      return;
    }
    expect(Object.keys(answers)).toEqual(Object.keys(recorded));
    for (const name of Object.keys(recorded)) expect({ name, answer: answers[name] }).toEqual({ name, answer: recorded[name] });
  });
});
