import fc from 'fast-check';
import WebSocket from 'ws';
import type { Client } from 'graphql-ws';
import { Decimal } from '../../../src/shared/money';
import { graphql, request } from '../../helpers/http';
import { PAYMENT_FIELDS, cardPaymentBody, cardPaymentInput, initiatePayment, verifyPayment } from '../../helpers/payments';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { newReference, sql } from '../../helpers/transactions';
import { eventually } from '../../helpers/wait';
import { setEndpoint, verifyDelivery } from '../../helpers/webhooks';
import { connect, subscribeLive } from '../../helpers/ws';
import type { MerchantCredentials } from '../../../src/modules/merchants/merchant.service';

/**
 * Issue 18, point 1: a card payment of 99999999999999.99 NGN was charged, then stuck
 * (its record could not be written as a JSON number) and broke every read of its
 * merchant. The amount domain (docs/contract.md §1): 15 significant digits counting the
 * currency's decimals, enforced before anything is written or charged, so every accepted
 * amount is written exactly on every door; and amounts with more digits than the
 * currency allows are refused however they arrive (a JSON number JSON.parse would round).
 */

const INITIATE = `mutation($input: InitiatePaymentInput!) { initiatePayment(input: $input) { ${PAYMENT_FIELDS} } }`;
const TRANSACTION = `query($r: String!) { transaction(reference: $r) { reference amount currency } }`;
const SUBSCRIPTION = `subscription { transactionStatusChanged { reference amount currency status } }`;

let app: TestApp;
let merchant: MerchantCredentials;
let token: string;
let receiver: Receiver;
let socket: Client;

const charges = async () => Number((await sql(app, 'select count(*)::int as n from sandbox_card_charge'))[0].n);
const rowsOf = async (reference: string) => sql(app, 'select id from transaction where external_reference = ?', [reference]);

beforeAll(async () => {
  app = await createTestApp();
  merchant = await app.createMerchant('Amounts');
  token = (await app.token(merchant)).accessToken;
  receiver = await startReceiver(() => 200);
  await setEndpoint(app.url, token, receiver.url);
  socket = connect(app, token);
});

afterAll(async () => {
  await socket?.dispose();
  await receiver?.close();
  await app?.close();
});

describe('the attack: an amount no answer could carry', () => {
  it('99999999999999.99 NGN by card is refused on REST before anything is written or charged', async () => {
    const before = await charges();
    for (const amount of ['99999999999999.99', Number('99999999999999.99'), '10000000000000.00']) {
      const reference = newReference('huge');
      const res = await initiatePayment(app, token, cardPaymentBody({ reference, amount }));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ status: 'error', code: 'INVALID_REQUEST', details: [{ field: 'amount', issue: 'must be at most 9999999999999.99' }] });
      expect(await rowsOf(reference)).toHaveLength(0);
    }
    expect(await charges()).toBe(before);
  });

  it('is refused on GraphQL too, with the same code', async () => {
    const before = await charges();
    const reference = newReference('huge-gql');
    const res = await graphql(app.url, INITIATE, { token, variables: { input: cardPaymentInput({ reference, amount: '99999999999999.99' }) } });
    expect(res.body.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_REQUEST' });
    expect(res.body.errors?.[0]?.message).toContain('amount must be at most 9999999999999.99');
    expect(await rowsOf(reference)).toHaveLength(0);
    expect(await charges()).toBe(before);
  });

  it('a quote whose conversion leaves the domain is a 400, not a 500', async () => {
    const res = await request(app.url, 'GET', '/v1/crossborder/rates?source_currency=USD&destination_currency=UGX&amount=9999999999999.99', { token });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 'error', code: 'INVALID_REQUEST' });
    expect(res.body.message).toMatch(/amount is too large: it converts to more than the largest UGX amount, 999999999999999/);
  });
});

describe('more digits than the currency allows, however they arrive', () => {
  const JSON_AMOUNT = '1500.000000000000000000000000000001';

  it('REST: a JSON number that JSON.parse would read as 1500 is refused, naming amount', async () => {
    const before = await charges();
    const reference = newReference('digits');
    const body = JSON.stringify(cardPaymentBody({ reference, amount: 0 })).replace('"amount":0', `"amount":${JSON_AMOUNT}`);
    expect(body).toContain(JSON_AMOUNT);
    const res = await request(app.url, 'POST', '/v1/payments/initiate', { token, raw: body, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'INVALID_REQUEST', details: [{ field: 'amount', issue: 'must have at most 2 decimal places' }] });
    expect(await rowsOf(reference)).toHaveLength(0);
    expect(await charges()).toBe(before);
  });

  it('GraphQL over HTTP: the same number as a variable is refused', async () => {
    const reference = newReference('digits-gql');
    const variables = JSON.stringify({ input: cardPaymentInput({ reference, amount: 0 }) }).replace('"amount":0', `"amount":${JSON_AMOUNT}`);
    const raw = `{"query":${JSON.stringify(INITIATE)},"variables":${variables}}`;
    const res = await request(app.url, 'POST', '/graphql', { token, raw, headers: { 'content-type': 'application/json' } });
    expect(res.body.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_REQUEST' });
    expect(res.body.errors?.[0]?.message).toContain('amount must have at most 2 decimal places');
    expect(await rowsOf(reference)).toHaveLength(0);
  });

  it('GraphQL over WebSocket: the same number in a subscribe message is refused', async () => {
    const reference = newReference('digits-ws');
    const ws = new WebSocket(app.url.replace('http://', 'ws://') + '/graphql', 'graphql-transport-ws');
    const messages: any[] = [];
    ws.on('message', (data) => messages.push(JSON.parse(String(data))));
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    ws.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: `Bearer ${token}` } }));
    expect(await eventually(async () => messages.some((m) => m.type === 'connection_ack'))).toBe(true);
    const variables = JSON.stringify({ input: cardPaymentInput({ reference, amount: 0 }) }).replace('"amount":0', `"amount":${JSON_AMOUNT}`);
    ws.send(`{"id":"1","type":"subscribe","payload":{"query":${JSON.stringify(INITIATE)},"variables":${variables}}}`);
    expect(await eventually(async () => messages.some((m) => m.id === '1' && (m.type === 'next' || m.type === 'error')))).toBe(true);
    ws.close();
    const answer = messages.find((m) => m.id === '1');
    const errors = answer.type === 'next' ? answer.payload.errors : answer.payload;
    expect(errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_REQUEST' });
    expect(errors?.[0]?.message).toContain('amount must have at most 2 decimal places');
    expect(await rowsOf(reference)).toHaveLength(0);
  });
});

describe('accepted → serializable → round-trips exactly, on every door', () => {
  /**
   * Card payments in a currency of each minor unit; amounts of 1 to 15 significant digits, every magnitude. The
   * currencies are ones our card processor takes with no least or most of its own, which the sandbox applies too
   * (docs/providers.md, "Rules").
   */
  const CURRENCIES = [
    ['GHS', 2],
    ['GBP', 2],
    ['UGX', 0],
    ['XOF', 0],
  ] as const;
  const samples = fc.sample(
    fc
      .tuple(fc.constantFrom(...CURRENCIES), fc.integer({ min: 1, max: 15 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.boolean())
      .map(([[currency, minorUnit], digits, at, asNumber]) => {
        const low = 10n ** BigInt(digits - 1);
        const units = low + BigInt(Math.floor(at * Number(10n ** BigInt(digits) - 1n - low)));
        const amount = new Decimal(units.toString()).div(new Decimal(10).pow(minorUnit));
        return { currency, minorUnit, amount, asNumber };
      }),
    { seed: 18, numRuns: 16 },
  );
  // The edges of the domain, always.
  samples.push(
    { currency: 'GHS', minorUnit: 2, amount: new Decimal('9999999999999.99'), asNumber: true },
    { currency: 'UGX', minorUnit: 0, amount: new Decimal('999999999999999'), asNumber: true },
    { currency: 'GBP', minorUnit: 2, amount: new Decimal('0.01'), asNumber: true },
  );

  it('REST initiation, verify, the list, GraphQL, the signed webhook and the subscription all carry the exact amount', async () => {
    const sub = await subscribeLive(app.url, socket, SUBSCRIPTION);
    const exact = (value: unknown, amount: Decimal) => value !== null && value !== undefined && new Decimal(String(value)).eq(amount);
    const references: string[] = [];

    for (const [i, { currency, minorUnit, amount, asNumber }] of samples.entries()) {
      const text = amount.toFixed(minorUnit);
      // Half through REST (as a JSON number or as text), half through GraphQL (the Decimal scalar takes text).
      let reference: string;
      if (i % 2 === 0) {
        const res = await initiatePayment(app, token, cardPaymentBody({ amount: asNumber ? Number(text) : text, currency }));
        expect({ text, status: res.status }).toEqual({ text, status: 200 });
        expect(typeof res.body.data.amount).toBe('number');
        expect({ text, exact: exact(res.body.data.amount, amount) }).toEqual({ text, exact: true });
        reference = res.body.data.reference;
      } else {
        const res = await graphql(app.url, INITIATE, { token, variables: { input: cardPaymentInput({ amount: text, currency }) } });
        expect({ text, errors: res.body.errors }).toEqual({ text, errors: undefined });
        expect(res.body.data.initiatePayment.amount).toBe(text);
        reference = res.body.data.initiatePayment.reference;
      }
      references.push(reference);

      const verified = await verifyPayment(app, token, reference);
      expect(verified.status).toBe(200);
      expect({ text, exact: exact(verified.body.data.amount, amount) }).toEqual({ text, exact: true });
      const read = await graphql(app.url, TRANSACTION, { token, variables: { r: reference } });
      expect(read.body.data.transaction.amount).toBe(text);
    }

    // The list holds every one of them, each exact.
    const list = await request(app.url, 'GET', '/v1/transactions?limit=100', { token });
    expect(list.status).toBe(200);
    for (const [i, reference] of references.entries()) {
      const row = list.body.data.find((t: any) => t.reference === reference);
      expect({ reference, exact: exact(row?.amount, samples[i]!.amount) }).toEqual({ reference, exact: true });
    }

    // Each signed webhook (payment.successful) and each subscription event carries the amount exactly.
    const webhookOf = (reference: string) => receiver.received.find((r) => JSON.parse(r.body).data?.reference === reference);
    expect(await eventually(async () => references.every((r) => webhookOf(r)), { attempts: 300, everyMs: 100 })).toBe(true);
    const eventOf = (reference: string) => sub.received.find((m) => m.data?.transactionStatusChanged?.reference === reference);
    expect(await eventually(async () => references.every((r) => eventOf(r)), { attempts: 300, everyMs: 100 })).toBe(true);
    for (const [i, reference] of references.entries()) {
      const { amount, minorUnit } = samples[i]!;
      const delivered = verifyDelivery(merchant.webhookSecret, webhookOf(reference)!);
      expect(typeof delivered.data.amount).toBe('number');
      expect({ reference, exact: exact(delivered.data.amount, amount) }).toEqual({ reference, exact: true });
      expect(eventOf(reference)!.data.transactionStatusChanged.amount).toBe(amount.toFixed(minorUnit));
    }
    sub.stop();
  }, 120_000);
});

describe('a row stored before the domain was enforced', () => {
  it('never breaks a read or a list: its amount is written as exact text', async () => {
    const ok = await initiatePayment(app, token, cardPaymentBody());
    expect(ok.status).toBe(200);
    const reference = ok.body.data.reference as string;
    // Only a row from before this rule can hold such an amount: the edge refuses it now.
    await sql(app, `update transaction set amount = '99999999999999.99' where reference = ?`, [reference]);

    const verified = await verifyPayment(app, token, reference);
    expect(verified.status).toBe(200);
    expect(verified.body.data.amount).toBe('99999999999999.99');
    const status = await request(app.url, 'GET', `/v1/crossborder/global-transfer/${reference}`, { token });
    expect(status.status).toBe(200);
    const list = await request(app.url, 'GET', '/v1/transactions', { token });
    expect(list.status).toBe(200);
    expect(list.body.data.find((t: any) => t.reference === reference)?.amount).toBe('99999999999999.99');
    const gql = await graphql(app.url, TRANSACTION, { token, variables: { r: reference } });
    expect(gql.body.data.transaction.amount).toBe('99999999999999.99');
  });
});
