import type { Client } from 'graphql-ws';
import type { MerchantCredentials } from '../../../src/modules/merchants/merchant.service';
import { approvedCustomer, twoMerchants } from '../../helpers/factories';
import { graphql } from '../../helpers/http';
import { CARDS, PAYMENT_FIELDS, TEST_AMEX_CVC, TEST_CVC, cardPaymentInput } from '../../helpers/payments';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { openPage, submitPage } from '../../helpers/three-ds';
import { momoCollectionInput, newReference, transactionCount } from '../../helpers/transactions';
import { eventually } from '../../helpers/wait';
import { collect, connect, subscribeLive } from '../../helpers/ws';

const PAYMENT_REFERENCE = /^pay_[0-9a-f]{24}$/;
const FINGERPRINT = /^fp_[A-Za-z0-9_-]{22}$/;

const INITIATE = `mutation($input: InitiatePaymentInput!) { initiatePayment(input: $input) { ${PAYMENT_FIELDS} } }`;
const VERIFY = `query($reference: String!) { verifyPayment(reference: $reference) { ${PAYMENT_FIELDS} } }`;
const TRANSACTION = `query($reference: String!) { transaction(reference: $reference) { ${PAYMENT_FIELDS} } }`;
const LIST = `query($filter: TransactionFilter, $first: Int) {
  transactions(filter: $filter, first: $first) { edges { node { reference externalReference type status paymentMethod card { last4 } } } pageInfo { hasNextPage } }
}`;
const COLLECT = `mutation($input: InitiateCollectionInput!) { initiateCollection(input: $input) { reference externalReference type status } }`;
const STATUS_CHANGED = `subscription($r: String) { transactionStatusChanged(reference: $r) { ${PAYMENT_FIELDS} } }`;

type GqlResult = Awaited<ReturnType<typeof graphql<any>>>;
type GqlError = { message: string; locations?: Array<{ line: number; column: number }>; path?: unknown[]; extensions?: Record<string, any> };

const errorOf = (res: GqlResult): GqlError => {
  expect(res.body.errors).toHaveLength(1);
  return res.body.errors![0]!;
};
const ok = <T = any>(res: GqlResult, field: string): T => {
  expect(res.body.errors).toBeUndefined();
  return res.body.data![field] as T;
};

/** What one operation over graphql-ws produced: every `next` payload and the `error` payload, if any. */
interface WsOutcome {
  results: Array<{ data?: any; errors?: GqlError[] }>;
  error?: unknown;
}

/** Runs one operation (a query or mutation) over graphql-ws to its end. */
function wsRun(client: Client, query: string, variables?: Record<string, unknown>): Promise<WsOutcome> {
  return new Promise((resolve) => {
    const results: WsOutcome['results'] = [];
    client.subscribe(
      { query, ...(variables ? { variables } : {}) },
      {
        next: (value) => results.push(value as WsOutcome['results'][number]),
        error: (error) => resolve({ results, error }),
        complete: () => resolve({ results }),
      },
    );
  });
}

/**
 * The GraphQL errors of an operation over graphql-ws, wherever the protocol put
 * them: a variable-coercion failure arrives as a `next` with errors (execution
 * produced them), a syntax or validation failure as the `error` message.
 */
function wsErrors(outcome: WsOutcome): GqlError[] {
  if (outcome.error !== undefined) {
    if (!Array.isArray(outcome.error))
      throw new Error(`expected GraphQL errors, got a transport error: ${String((outcome.error as any)?.code ?? outcome.error)}`);
    return outcome.error as GqlError[];
  }
  return outcome.results.flatMap((r) => r.errors ?? []);
}

/** Where `fragment` starts in a one-line document, as graphql-js reports a location. */
function locationOf(document: string, fragment: string) {
  const index = document.indexOf(fragment);
  if (index < 0 || document.includes('\n')) throw new Error('locationOf: fragment not found, or a multi-line document');
  return { line: 1, column: index + 1 };
}

describe('GraphQL card payments (sandbox)', () => {
  let app: TestApp;
  let merchant: MerchantCredentials;
  let token: string;
  let otherToken: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    app = await createTestApp();
    const { mine, theirs } = await twoMerchants(app, 'GraphQL Card Merchant');
    [merchant, token, otherToken] = [mine.credentials, mine.token, theirs.token];
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.dispose()));
    await app.close();
  });

  const initiate = (input: Record<string, unknown>, auth = token) => graphql(app.url, INITIATE, { token: auth, variables: { input } });
  const verify = (reference: string, auth = token) => graphql(app.url, VERIFY, { token: auth, variables: { reference } });
  const read = (reference: string, auth = token) => graphql(app.url, TRANSACTION, { token: auth, variables: { reference } });
  const list = (filter: Record<string, unknown> | null, auth = token) => graphql(app.url, LIST, { token: auth, variables: { filter, first: 100 } });

  /** A socket for this merchant (or another), closed after all tests. */
  const socket = (auth = token) => {
    const client = connect(app, auth);
    clients.push(client);
    return client;
  };

  /** An input that must be refused with INVALID_REQUEST naming `field`, storing nothing. */
  async function refused(input: Record<string, unknown>, field: string) {
    const before = await transactionCount(app);
    const res = await initiate(input);
    const error = errorOf(res);
    expect(res.body.data ?? null).toBeNull();
    expect(error.extensions).toMatchObject({ code: 'INVALID_REQUEST', http: { status: 400 } });
    expect(error.extensions!.details).toEqual(expect.arrayContaining([{ field, issue: expect.any(String) }]));
    expect(error.path).toEqual(['initiatePayment']);
    expect(await transactionCount(app)).toBe(before);
    return error;
  }

  describe('initiatePayment with the sandbox test cards', () => {
    it('4242 4242 4242 4242: SUCCESSFUL at once, no next action', async () => {
      const now = app.clock.now().toISOString();
      const input = cardPaymentInput();
      const payment = ok(await initiate(input), 'initiatePayment');
      expect(payment).toEqual({
        reference: expect.stringMatching(PAYMENT_REFERENCE),
        externalReference: input.reference,
        type: 'PAYMENT',
        status: 'SUCCESSFUL',
        failureReason: null,
        amount: '2500.00',
        currency: 'NGN',
        paymentMethod: 'CARD',
        card: { brand: 'visa', last4: '4242', fingerprint: expect.stringMatching(FINGERPRINT) },
        nextAction: null,
        redirectUrl: null,
        description: 'Order 1001',
        customerUuid: null,
        createdAt: now,
        completedAt: now,
      });
    });

    it('4000 0025 0000 3155: REQUIRES_ACTION with a REDIRECT_TO_URL next action on the sandbox page', async () => {
      const input = cardPaymentInput({ card: { number: CARDS.threeDs }, redirectUrl: 'https://shop.example/return' });
      const payment = ok(await initiate(input), 'initiatePayment');
      expect(payment).toMatchObject({
        reference: expect.stringMatching(PAYMENT_REFERENCE),
        externalReference: input.reference,
        type: 'PAYMENT',
        status: 'REQUIRES_ACTION',
        failureReason: null,
        paymentMethod: 'CARD',
        card: { brand: 'visa', last4: '3155', fingerprint: expect.stringMatching(FINGERPRINT) },
        redirectUrl: 'https://shop.example/return',
        completedAt: null,
      });
      expect(payment.nextAction).toEqual({ type: 'REDIRECT_TO_URL', url: expect.any(String), expiresAt: expect.any(String) });
      const url = new URL(payment.nextAction.url);
      expect(url.origin).toBe(app.url);
      expect(url.pathname).toMatch(/^\/v1\/sandbox\/3ds\/[A-Za-z0-9_-]{43}$/);
      expect(payment.nextAction.url).not.toContain(payment.reference);
      // PAYMENT_ACTION_TTL_S defaults to 15 minutes, by the service's clock.
      expect(new Date(payment.nextAction.expiresAt).getTime() - app.clock.now().getTime()).toBe(900_000);
    });

    it('4000 0000 0000 9995: FAILED insufficient_funds', async () => {
      const payment = ok(await initiate(cardPaymentInput({ card: { number: CARDS.insufficientFunds } })), 'initiatePayment');
      expect(payment).toMatchObject({
        reference: expect.stringMatching(PAYMENT_REFERENCE),
        type: 'PAYMENT',
        status: 'FAILED',
        failureReason: 'insufficient_funds',
        card: { brand: 'visa', last4: '9995' },
        nextAction: null,
        completedAt: expect.any(String),
      });
    });

    it('any other Luhn-valid card: FAILED card_not_supported_in_sandbox', async () => {
      const payment = ok(await initiate(cardPaymentInput({ card: { number: CARDS.other } })), 'initiatePayment');
      expect(payment).toMatchObject({
        reference: expect.stringMatching(PAYMENT_REFERENCE),
        type: 'PAYMENT',
        status: 'FAILED',
        failureReason: 'card_not_supported_in_sandbox',
        card: { brand: 'mastercard', last4: '4444' },
        nextAction: null,
      });
    });

    it('American Express with its 4-digit CVC passes the checks (and the sandbox declines it)', async () => {
      const payment = ok(await initiate(cardPaymentInput({ card: { number: CARDS.amex, cvc: TEST_AMEX_CVC } })), 'initiatePayment');
      expect(payment).toMatchObject({
        status: 'FAILED',
        failureReason: 'card_not_supported_in_sandbox',
        card: { brand: 'amex', last4: '0005' },
        nextAction: null,
      });
    });

    it('paymentMethod defaults to CARD; a grouped number and a 2-digit year are accepted; fingerprints are per merchant', async () => {
      const { paymentMethod: _omitted, ...input } = cardPaymentInput({ card: { number: '4242 4242 4242 4242', expYear: 31 } });
      const a = ok(await initiate(input), 'initiatePayment');
      const b = ok(await initiate(cardPaymentInput({ card: { number: '4242-4242-4242-4242' } })), 'initiatePayment');
      const c = ok(await initiate(cardPaymentInput(), otherToken), 'initiatePayment');
      expect(a).toMatchObject({ status: 'SUCCESSFUL', paymentMethod: 'CARD', card: { last4: '4242' } });
      expect(b.card.fingerprint).toBe(a.card.fingerprint);
      expect(c.card.fingerprint).not.toBe(a.card.fingerprint);
    });
  });

  describe('verifyPayment', () => {
    it('by the service’s reference and by the merchant’s, the same record as initiatePayment answered', async () => {
      const input = cardPaymentInput({ card: { number: CARDS.threeDs } });
      const created = ok(await initiate(input), 'initiatePayment');
      expect(ok(await verify(created.reference), 'verifyPayment')).toEqual(created);
      expect(ok(await verify(input.reference), 'verifyPayment')).toEqual(created);
    });

    it('an unknown reference and another merchant’s payment (either reference) answer the identical NOT_FOUND', async () => {
      const input = cardPaymentInput();
      const mine = ok(await initiate(input), 'initiatePayment');
      const answers = [
        await verify('pay_000000000000000000000000', otherToken),
        await verify(mine.reference, otherToken),
        await verify(input.reference, otherToken),
      ];
      const errors = answers.map(errorOf);
      for (const [i, res] of answers.entries()) {
        expect(res.body.data ?? null).toBeNull();
        expect(errors[i]).toEqual({
          message: 'Payment not found',
          locations: errors[0]!.locations,
          path: ['verifyPayment'],
          extensions: { code: 'NOT_FOUND', http: { status: 404 } },
        });
      }
      // Nothing in the answer tells the two apart.
      expect(answers[1]!.text).toBe(answers[0]!.text);
      expect(answers[2]!.text).toBe(answers[0]!.text);
    });

    it('a collection’s reference is not a payment: NOT_FOUND, like an unknown one', async () => {
      const customer = await approvedCustomer(app, token);
      const collection = ok(
        await graphql(app.url, COLLECT, { token, variables: { input: momoCollectionInput(customer.customer_uuid) } }),
        'initiateCollection',
      );
      expect(collection.type).toBe('COLLECTION');
      const unknown = errorOf(await verify('pay_000000000000000000000000'));
      for (const reference of [collection.reference, collection.externalReference]) {
        const error = errorOf(await verify(reference));
        expect(error.extensions?.code).toBe('NOT_FOUND');
        expect(error.message).toBe(unknown.message);
      }
      // The generic query still finds it.
      expect(ok(await read(collection.reference), 'transaction')).toMatchObject({ reference: collection.reference, type: 'COLLECTION' });
    });

    it('needs a token', async () => {
      const res = await graphql(app.url, VERIFY, { variables: { reference: 'pay_000000000000000000000000' } });
      expect(res.body.errors?.[0]?.extensions?.code).toBe('INVALID_TOKEN');
    });
  });

  describe('payments among the transactions', () => {
    it('transaction(reference) shows a payment like verifyPayment does', async () => {
      const input = cardPaymentInput({ card: { number: CARDS.insufficientFunds } });
      const created = ok(await initiate(input), 'initiatePayment');
      expect(ok(await read(created.reference), 'transaction')).toEqual(created);
      expect(ok(await read(input.reference), 'transaction')).toEqual(ok(await verify(input.reference), 'verifyPayment'));
    });

    it('transactions(filter: { type: PAYMENT }) lists the payments only; type COLLECTION none of them', async () => {
      // A merchant of its own, so the lists hold exactly what this test made.
      const own = (await app.token(await app.createMerchant('GraphQL List Merchant'))).accessToken;
      const customer = await approvedCustomer(app, own);
      // Newest first is by createdAt (ties by a random id): the frozen test clock moves on between creations.
      const collection = ok(
        await graphql(app.url, COLLECT, { token: own, variables: { input: momoCollectionInput(customer.customer_uuid) } }),
        'initiateCollection',
      );
      app.clock.advance(1000);
      const first = ok(await initiate(cardPaymentInput(), own), 'initiatePayment');
      app.clock.advance(1000);
      const second = ok(await initiate(cardPaymentInput({ card: { number: CARDS.threeDs } }), own), 'initiatePayment');

      const payments = ok(await list({ type: 'PAYMENT' }, own), 'transactions');
      expect(payments.pageInfo.hasNextPage).toBe(false);
      expect(payments.edges.map((e: any) => e.node)).toEqual([
        {
          reference: second.reference,
          externalReference: second.externalReference,
          type: 'PAYMENT',
          status: 'REQUIRES_ACTION',
          paymentMethod: 'CARD',
          card: { last4: '3155' },
        },
        {
          reference: first.reference,
          externalReference: first.externalReference,
          type: 'PAYMENT',
          status: 'SUCCESSFUL',
          paymentMethod: 'CARD',
          card: { last4: '4242' },
        },
      ]);

      const collections = ok(await list({ type: 'COLLECTION' }, own), 'transactions');
      expect(collections.edges.map((e: any) => e.node)).toEqual([
        {
          reference: collection.reference,
          externalReference: collection.externalReference,
          type: 'COLLECTION',
          status: expect.any(String),
          paymentMethod: null,
          card: null,
        },
      ]);

      const all = ok(await list(null, own), 'transactions');
      expect(all.edges.map((e: any) => e.node.reference)).toEqual([second.reference, first.reference, collection.reference]);

      const bothFilters = ok(await list({ type: 'PAYMENT', status: 'SUCCESSFUL' }, own), 'transactions');
      expect(bothFilters.edges.map((e: any) => e.node.reference)).toEqual([first.reference]);

      // Another merchant sees none of them.
      const theirs = ok(await list({ type: 'PAYMENT' }, otherToken), 'transactions');
      const theirRefs = theirs.edges.map((e: any) => e.node.reference);
      expect(theirRefs).not.toContain(first.reference);
      expect(theirRefs).not.toContain(second.reference);
    });
  });

  describe('refusals', () => {
    it('a Luhn-invalid number: INVALID_REQUEST on card.number', async () => {
      const error = await refused(cardPaymentInput({ card: { number: CARDS.luhnInvalid } }), 'card.number');
      expect(error.extensions!.details[0].issue).toMatch(/Luhn/);
    });

    it('an expired card: INVALID_REQUEST on card.expYear (camelCase)', async () => {
      await refused(cardPaymentInput({ card: { expMonth: 10, expYear: 2026 } }), 'card.expYear');
      await refused(cardPaymentInput({ card: { expMonth: 1, expYear: 24 } }), 'card.expYear');
    });

    it('a month of 13: INVALID_REQUEST on card.expMonth (camelCase)', async () => {
      await refused(cardPaymentInput({ card: { expMonth: 13 } }), 'card.expMonth');
    });

    it('American Express with a 3-digit CVC (and Visa with 4): INVALID_REQUEST on card.cvc', async () => {
      const amex = await refused(cardPaymentInput({ card: { number: CARDS.amex, cvc: '123' } }), 'card.cvc');
      expect(amex.extensions!.details).toEqual([{ field: 'card.cvc', issue: 'must be 4 digits for American Express cards' }]);
      await refused(cardPaymentInput({ card: { cvc: '1234' } }), 'card.cvc');
    });

    it('the refusals’ field names are GraphQL’s, never the REST snake_case ones', async () => {
      for (const card of [{ expMonth: 13 }, { expMonth: 10, expYear: 2026 }, { number: CARDS.luhnInvalid }, { cvc: '12' }]) {
        const res = await initiate(cardPaymentInput({ card }));
        const fields = errorOf(res).extensions!.details.map((d: { field: string }) => d.field);
        expect(fields.every((f: string) => /^card\.(number|expMonth|expYear|cvc)$/.test(f))).toBe(true);
        expect(res.text).not.toMatch(/"field":"[^"]*_/);
      }
    });

    it('a reference used before (by a payment or a collection): DUPLICATE_REQUEST', async () => {
      const input = cardPaymentInput();
      ok(await initiate(input), 'initiatePayment');
      const before = await transactionCount(app);
      const again = errorOf(await initiate(cardPaymentInput({ reference: input.reference, card: { number: CARDS.insufficientFunds } })));
      expect(again.extensions).toMatchObject({ code: 'DUPLICATE_REQUEST', http: { status: 409 } });

      const customer = await approvedCustomer(app, token);
      const colInput = momoCollectionInput(customer.customer_uuid);
      ok(await graphql(app.url, COLLECT, { token, variables: { input: colInput } }), 'initiateCollection');
      const dup = errorOf(await initiate(cardPaymentInput({ reference: colInput.reference })));
      expect(dup.extensions?.code).toBe('DUPLICATE_REQUEST');
      expect(await transactionCount(app)).toBe(before + 1); // the collection only
    });
  });

  describe('card data is never echoed by an error', () => {
    const NUMBER = CARDS.success;
    // A reference without digits: nothing but a leak could put "913" (TEST_CVC) in an answer.
    const base = () => ({ ...cardPaymentInput(), reference: 'echo-check-ref' });
    const withCard = (card: Record<string, unknown>) => ({ ...base(), card: { ...base().card, ...card } });
    const withoutKey = (obj: Record<string, unknown>, key: string) => Object.fromEntries(Object.entries(obj).filter(([k]) => k !== key));
    /** One socket for every operation of this block (it must survive them all). */
    let client: Client;
    beforeAll(() => {
      client = socket();
    });

    /** Variables graphql-js refuses while coercing them: the message must name the variable and the path. */
    const variableCases: Array<[string, Record<string, unknown>, string]> = [
      ['the number as an Int', withCard({ number: Number(NUMBER) }), 'input.card.number'],
      ['the CVC as an Int', withCard({ cvc: Number(TEST_CVC) }), 'input.card.cvc'],
      ['expMonth given the card number as a string', withCard({ expMonth: NUMBER }), 'input.card.expMonth'],
      ['expYear given the CVC as a string', withCard({ expYear: TEST_CVC }), 'input.card.expYear'],
      ['the card number as an unknown field name inside card', withCard({ [NUMBER]: TEST_CVC }), 'input.card'],
      ['the card number, grouped, as an unknown field name inside card', withCard({ '4242 4242 4242 4242': TEST_CVC }), 'input.card'],
      ['a card without its CVC', { ...base(), card: withoutKey(base().card, 'cvc') }, 'input.card'],
      ['the whole card as a string', { ...base(), card: `${NUMBER} 12/30 ${TEST_CVC}` }, 'input.card'],
      ['the card number as paymentMethod', { ...base(), paymentMethod: NUMBER }, 'input.paymentMethod'],
      // A mistyped number is not Luhn-valid, so redaction cannot hide it: only the stripping of values does.
      ['a mistyped number as an Int', withCard({ number: Number(CARDS.luhnInvalid) }), 'input.card.number'],
      ['expMonth given a mistyped number as a string', withCard({ expMonth: CARDS.luhnInvalid }), 'input.card.expMonth'],
      ['a card with a mistyped number and no CVC', { ...base(), card: { ...withoutKey(base().card, 'cvc'), number: CARDS.luhnInvalid } }, 'input.card'],
    ];

    const literalCard = (parts: { number?: string; expMonth?: string; cvc?: string }) =>
      `{ number: ${parts.number ?? `"${NUMBER}"`}, expMonth: ${parts.expMonth ?? '12'}, expYear: 2030, cvc: ${parts.cvc ?? `"${TEST_CVC}"`} }`;
    const literalDocument = (card: string) =>
      `mutation { initiatePayment(input: { reference: "echo-check-ref", amount: "2500.00", currency: "NGN", card: ${card} }) { reference } }`;

    /** Documents whose literals validation refuses: the error must point at the literal. */
    const literalCases: Array<[string, string, string]> = [
      ['the number as an Int literal', literalDocument(literalCard({ number: NUMBER })), `number: ${NUMBER}`],
      ['the CVC as an Int literal', literalDocument(literalCard({ cvc: TEST_CVC })), `cvc: ${TEST_CVC}`],
      ['expMonth as the card number in a string literal', literalDocument(literalCard({ expMonth: `"${NUMBER}"` })), `expMonth: "${NUMBER}"`],
      ['expMonth as the card number in an Int literal (out of range)', literalDocument(literalCard({ expMonth: NUMBER })), `expMonth: ${NUMBER}`],
    ];

    /** No card number (plain or grouped) and no CVC anywhere in an answer. */
    function expectNoCardData(text: string) {
      expect(text).not.toContain(NUMBER);
      expect(text).not.toContain('4242 4242 4242 4242');
      expect(text).not.toContain(TEST_CVC);
      expect(text).not.toContain(CARDS.luhnInvalid);
    }

    describe('over HTTP', () => {
      it.each(variableCases)('%s', async (_name, input, path) => {
        const res = await initiate(input);
        expectNoCardData(res.text);
        expect(res.body.data).toBeUndefined();
        expect(res.body.errors!.length).toBeGreaterThan(0);
        for (const error of res.body.errors!) {
          expect(error.extensions).toMatchObject({ code: 'INVALID_REQUEST', http: { status: 400 } });
          expect(error.message).toContain('"$input"');
        }
        expect(res.body.errors!.map((e) => e.message).join('\n')).toContain(`at "${path}"`);
      });

      it.each(literalCases)('%s', async (_name, document, fragment) => {
        const res = await graphql(app.url, document, { token });
        expectNoCardData(res.text);
        const error = errorOf(res);
        expect(error.extensions).toMatchObject({ code: 'INVALID_REQUEST', http: { status: 400 } });
        // The message cannot carry the literal; its location points at the field that holds it.
        const field = locationOf(document, fragment);
        const value = { line: 1, column: field.column + fragment.indexOf(':') + 2 };
        expect(error.locations).toEqual([value]);
      });

      it('a card number written where a field name belongs (a syntax error)', async () => {
        const document = `mutation { initiatePayment(input: { reference: "echo-check-ref", amount: "2500.00", currency: "NGN", card: { ${NUMBER}: "${TEST_CVC}" } }) { reference } }`;
        const res = await graphql(app.url, document, { token });
        expectNoCardData(res.text);
        const error = errorOf(res);
        expect(error.extensions?.code).toBe('INVALID_REQUEST');
        expect(error.message).toMatch(/^Syntax Error/);
        expect(error.locations).toEqual([locationOf(document, NUMBER)]);
      });

      it('nothing was stored by any of them', async () => {
        const res = await verify('echo-check-ref');
        expect(errorOf(res).extensions?.code).toBe('NOT_FOUND');
      });
    });

    describe('over graphql-ws', () => {
      it('a valid initiatePayment over the socket is answered like over HTTP', async () => {
        const input = cardPaymentInput();
        const outcome = await wsRun(client, INITIATE, { input });
        expect(outcome.error).toBeUndefined();
        expect(outcome.results).toEqual([
          {
            data: {
              initiatePayment: expect.objectContaining({
                externalReference: input.reference,
                status: 'SUCCESSFUL',
                card: expect.objectContaining({ last4: '4242' }),
              }),
            },
          },
        ]);
      });

      it.each(variableCases)('%s', async (_name, input, path) => {
        const outcome = await wsRun(client, INITIATE, { input });
        expectNoCardData(JSON.stringify(outcome));
        expect(outcome.results.every((r) => r.data === undefined || r.data === null)).toBe(true);
        const errors = wsErrors(outcome);
        expect(errors.length).toBeGreaterThan(0);
        for (const error of errors) {
          expect(error.extensions).toMatchObject({ code: 'INVALID_REQUEST' });
          expect(error.message).toContain('"$input"');
        }
        expect(errors.map((e) => e.message).join('\n')).toContain(`at "${path}"`);
      });

      it.each(literalCases)('%s', async (_name, document, fragment) => {
        const outcome = await wsRun(client, document);
        expectNoCardData(JSON.stringify(outcome));
        const errors = wsErrors(outcome);
        expect(errors).toHaveLength(1);
        expect(errors[0]!.extensions).toMatchObject({ code: 'INVALID_REQUEST' });
        const field = locationOf(document, fragment);
        expect(errors[0]!.locations).toEqual([{ line: 1, column: field.column + fragment.indexOf(':') + 2 }]);
      });

      it('the same message over the socket as over HTTP', async () => {
        for (const [, input] of variableCases) {
          const http = (await initiate(input)).body.errors!.map((e) => e.message);
          const ws = wsErrors(await wsRun(client, INITIATE, { input })).map((e) => e.message);
          expect(ws).toEqual(http);
        }
      });

      it('the socket survives all of it', async () => {
        const outcome = await wsRun(client, '{ merchant { id } }');
        expect(outcome.results).toEqual([{ data: { merchant: { id: merchant.merchant.id } } }]);
      });
    });

    /**
     * Two shapes that leaked through the first version of withoutInputValues (which
     * cut values out instead of rebuilding the message). The `it` before each checks
     * the setup, so the check after it can only fail on a leak.
     *
     * 1. graphql-js reports the variable itself (no ` at "path"` after the value:
     *    a missing or unknown top-level field of the input). The value is then cut
     *    only up to the first "; " after " got invalid value ", which may be inside
     *    the value (a description "Two items; gift wrap"); the rest of the value is
     *    echoed: CVC, expiry, postal code (the number is hidden only because it is
     *    Luhn-valid and redacted afterwards; a mistyped one would show).
     * 2. A literal of the wrong kind is reported as `Expected value of type "CardInput!",
     *    found "…".`; `, found …` is cut only up to the first "; " inside the literal.
     */
    describe('shapes that once leaked', () => {
      const { currency: _missing, description: _replaced, ...rest } = cardPaymentInput({ reference: 'echo-check-ref' });
      // The merchant's own text, before the card: graphql-js prints the value in the client's key order.
      const semicolonInput = { description: 'Two items; gift wrap', ...rest };
      const semicolonLiteral = `mutation { initiatePayment(input: { reference: "echo-check-ref", amount: "2500.00", currency: "NGN", card: "${NUMBER}; ${TEST_CVC}" }) { reference } }`;

      it('setup: a missing top-level field with "; " in a text field is INVALID_REQUEST naming the field (HTTP and WS)', async () => {
        const res = await initiate(semicolonInput);
        expect(errorOf(res).extensions?.code).toBe('INVALID_REQUEST');
        expect(errorOf(res).message).toMatch(/^Variable "\$input" got an invalid value.*Field "currency" of required type "String!" was not provided\.$/);
        const errors = wsErrors(await wsRun(client, INITIATE, { input: semicolonInput }));
        expect(errors.map((e) => e.extensions?.code)).toEqual(['INVALID_REQUEST']);
        expect(errors[0]!.message).toBe(errorOf(res).message);
      });

      it('1: …and its answer does not echo the CVC (HTTP)', async () => {
        expectNoCardData((await initiate(semicolonInput)).text);
      });

      it('1: …and its answer does not echo the CVC (graphql-ws)', async () => {
        expectNoCardData(JSON.stringify(await wsRun(client, INITIATE, { input: semicolonInput })));
      });

      it('setup: a string literal with "; " where the card object belongs is INVALID_REQUEST (HTTP and WS)', async () => {
        const res = await graphql(app.url, semicolonLiteral, { token });
        expect(errorOf(res).extensions?.code).toBe('INVALID_REQUEST');
        expect(errorOf(res).message).toMatch(/^Expected value of type "CardInput"/);
        const errors = wsErrors(await wsRun(client, semicolonLiteral));
        expect(errors.map((e) => e.extensions?.code)).toEqual(['INVALID_REQUEST']);
        expect(errors[0]!.message).toBe(errorOf(res).message);
      });

      it('2: …and its answer does not echo the CVC (HTTP)', async () => {
        expectNoCardData((await graphql(app.url, semicolonLiteral, { token })).text);
      });

      it('2: …and its answer does not echo the CVC (graphql-ws)', async () => {
        expectNoCardData(JSON.stringify(await wsRun(client, semicolonLiteral)));
      });
    });
  });

  describe('transactionStatusChanged', () => {
    /** Subscribes by reference; returns once the server has set the stream up. */
    const subscribeTo = (client: Client, reference: string) => subscribeLive(app.url, client, STATUS_CHANGED, { r: reference });

    /**
     * A payment of this merchant that must reach `everything` after whatever came
     * before it: once it has, any earlier event has arrived too (one socket, events
     * in commit order), so "nothing else came" is shown without waiting on a timer.
     */
    async function sentinel(everything: ReturnType<typeof collect>) {
      const created = ok(await initiate(cardPaymentInput()), 'initiatePayment');
      expect(await eventually(async () => everything.received.some((m) => m.data?.transactionStatusChanged?.reference === created.reference))).toBe(true);
    }
    const ofReference = (sub: ReturnType<typeof collect>, reference: string) =>
      sub.received.filter((m) => m.data?.transactionStatusChanged?.reference === reference);

    it('a 3-D Secure payment: REQUIRES_ACTION as it is created, then its final SUCCESSFUL record once completed', async () => {
      const client = socket();
      const input = cardPaymentInput({ card: { number: CARDS.threeDs } });
      const everything = await subscribeLive(app.url, client, `subscription { transactionStatusChanged { reference status } }`);
      // By the merchant's reference, before the payment exists.
      const sub = await subscribeTo(client, input.reference);
      const created = ok(await initiate(input), 'initiatePayment');
      expect(created.status).toBe('REQUIRES_ACTION');

      // The cardholder's browser: GET the page (CSRF cookie + hidden field), POST the form.
      const page = await openPage(created.nextAction.url);
      expect(page.status).toBe(200);
      expect(page.cookie).toMatch(/^sbx_3ds_csrf=.+/);
      expect(page.csrf).toEqual(expect.any(String));
      const submitted = await submitPage(created.nextAction.url, page, 'complete');
      expect([200, 303]).toContain(submitted.status);

      expect(await eventually(async () => sub.received.length > 1)).toBe(true);
      await sentinel(everything); // no third event follows
      // Issue 24: the creation is a change too (REQUIRES_ACTION, with its page), then the outcome.
      expect(ofReference(everything, created.reference).map((m) => m.data.transactionStatusChanged.status)).toEqual(['REQUIRES_ACTION', 'SUCCESSFUL']);
      everything.stop();
      expect(sub.errors).toEqual([]);
      expect(sub.received).toHaveLength(2);
      expect(sub.received[0]!.data.transactionStatusChanged).toMatchObject({ status: 'REQUIRES_ACTION', nextAction: { type: 'REDIRECT_TO_URL' } });
      const event = sub.received[1]!.data.transactionStatusChanged;
      expect(event).toMatchObject({
        reference: created.reference,
        externalReference: input.reference,
        type: 'PAYMENT',
        status: 'SUCCESSFUL',
        failureReason: null,
        nextAction: null,
        completedAt: expect.any(String),
        card: created.card,
      });
      expect(event).toEqual(ok(await verify(created.reference), 'verifyPayment'));
      sub.stop();

      // The page decides once.
      const again = await openPage(created.nextAction.url);
      expect(again.status).toBe(409);
    });

    it('a 3-D Secure payment the cardholder fails: FAILED authentication_failed', async () => {
      const client = socket();
      const created = ok(await initiate(cardPaymentInput({ card: { number: CARDS.threeDs } })), 'initiatePayment');
      const sub = await subscribeTo(client, created.reference);
      const page = await openPage(created.nextAction.url);
      expect([200, 303]).toContain((await submitPage(created.nextAction.url, page, 'fail')).status);
      expect(await eventually(async () => sub.received.length > 0)).toBe(true);
      expect(sub.received[0]!.data.transactionStatusChanged).toMatchObject({
        reference: created.reference,
        status: 'FAILED',
        failureReason: 'authentication_failed',
      });
      sub.stop();
    });

    it('a payment decided at initiation (4000 0000 0000 9995, initiated over the same socket) is published: FAILED insufficient_funds', async () => {
      const client = socket();
      const input = cardPaymentInput({ card: { number: CARDS.insufficientFunds } });
      const everything = await subscribeLive(app.url, client, `subscription { transactionStatusChanged { reference status } }`);
      const sub = await subscribeTo(client, input.reference);
      const outcome = await wsRun(client, INITIATE, { input });
      expect(outcome.error).toBeUndefined();
      const created = outcome.results[0]!.data.initiatePayment;
      expect(created).toMatchObject({ status: 'FAILED', failureReason: 'insufficient_funds' });

      expect(await eventually(async () => sub.received.length > 0)).toBe(true);
      await sentinel(everything);
      expect(ofReference(everything, created.reference)).toHaveLength(1);
      everything.stop();
      expect(sub.received).toHaveLength(1);
      expect(sub.received[0]!.data.transactionStatusChanged).toEqual(created);
      sub.stop();
    });

    it('another merchant’s subscriber hears nothing of it', async () => {
      const theirs = socket(otherToken);
      const input = cardPaymentInput({ card: { number: CARDS.insufficientFunds } });
      const all = await subscribeLive(app.url, theirs, `subscription { transactionStatusChanged { reference } }`);
      const targeted = await subscribeTo(theirs, input.reference);
      const mine = await subscribeTo(socket(), input.reference);
      ok(await initiate(input), 'initiatePayment');
      expect(await eventually(async () => mine.received.length > 0)).toBe(true);
      // Their own sentinel payment, after mine: once it reaches them, mine would have too.
      const theirSentinel = ok(await initiate(cardPaymentInput(), otherToken), 'initiatePayment');
      expect(await eventually(async () => all.received.length > 0)).toBe(true);
      expect(all.received.map((m) => m.data.transactionStatusChanged.reference)).toEqual([theirSentinel.reference]);
      expect(targeted.received).toEqual([]);
      all.stop();
      targeted.stop();
      mine.stop();
    });
  });
});

describe('GraphQL card payments in production mode', () => {
  let app: TestApp;
  let token: string;

  beforeAll(async () => {
    app = await createTestApp({ env: { PAYMENTS_ENV: 'production' } });
    token = (await app.token(await app.createMerchant('GraphQL Live Merchant'))).accessToken;
  });
  afterAll(() => app.close());

  it('initiatePayment is refused with ROUTE_UNAVAILABLE saying no card was charged, and nothing is kept', async () => {
    const before = await transactionCount(app);
    const res = await graphql(app.url, INITIATE, { token, variables: { input: cardPaymentInput({ reference: newReference('gql-live') }) } });
    const error = errorOf(res);
    expect(res.body.data ?? null).toBeNull();
    expect(error.extensions).toMatchObject({ code: 'ROUTE_UNAVAILABLE' });
    expect(error.message).toBe('No provider serves card payments here; nothing was created or charged');
    expect(error.path).toEqual(['initiatePayment']);
    expect(await transactionCount(app)).toBe(before);
  });

  it('the card is still checked first: a Luhn-invalid number is INVALID_REQUEST', async () => {
    const res = await graphql(app.url, INITIATE, { token, variables: { input: cardPaymentInput({ card: { number: CARDS.luhnInvalid } }) } });
    expect(errorOf(res).extensions).toMatchObject({ code: 'INVALID_REQUEST', details: [{ field: 'card.number', issue: expect.any(String) }] });
  });
});
