import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSchema, getNamedType, isInputObjectType, type GraphQLArgument, type GraphQLInputField, type GraphQLObjectType } from 'graphql';
import { approvedCustomer, enroll, enrollBody, kycBody } from '../../helpers/factories';
import { graphql, request, type HttpResult } from '../../helpers/http';
import { cardPaymentBody, cardPaymentInput } from '../../helpers/payments';
import { paymentLinkBody, sessionBody } from '../../helpers/checkout';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { dbFingerprint, dbRows, GqlSocket, randomLike, registeredRoutes } from '../../helpers/security';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { personOf } from '../../helpers/people';
import { DASHBOARD_HEADERS, signInDashboard, signInDashboardUser } from '../../helpers/accounts';
import { momoCollectionBody, momoCollectionInput, momoTransferInput, newReference, transferBody } from '../../helpers/transactions';
import { awaitDelivery, dbQuery, setEndpoint } from '../../helpers/webhooks';

/**
 * Broken object-level authorization, swept over every door: merchant B holds a
 * valid token and A's identifiers (customer uuids, references, event ids, a quote
 * id, list cursors). Every route and operation that takes one must answer B
 * exactly as it answers a random identifier of the same shape, change nothing of
 * A's, and never stream A's events. The routes and operations are enumerated from
 * what the app registered and from schema.graphql, so a new one fails the
 * coverage checks until it is swept here.
 */

interface Txn {
  reference: string;
  external_reference: string;
}

interface Tenant {
  merchantId: string;
  /** An API key's access token (the merchant's first key, developer). */
  token: string;
  /** A dashboard session of the merchant's owner: for what only a person may do (keys, team, audit log). */
  person: string;
  /** The id of the merchant's first API key. */
  apiKey: string;
  /** A viewer member's membership id, and a pending invitation's id. */
  member: string;
  invitation: string;
  /** The owner's dashboard session (its token family's id, as mySessions shows it). */
  session: string;
  customer: string;
  customerid: string;
  pending: string;
  quote: string;
  collection: Txn;
  transfer: Txn;
  payment: Txn;
  refund: Txn;
  /** A funding of the balance (issue 41), open: its account not yet paid into. */
  funding: Txn;
  events: string[];
  /** An open checkout session (`cs_…`) and two payment links (`plink_…`). */
  checkoutSession: string;
  links: string[];
  /** Payout destinations (`pdest_…`): the active one and a change pending approval. */
  destinations: string[];
  /** Manual payouts to A's active destination (issue 38): two, so a list of them has a cursor. */
  payouts: string[];
  /** Chargebacks of two more card payments (issue 39): two, so a list of them has a cursor; a file of the first's evidence. */
  disputes: string[];
  disputedPayments: string[];
  disputeFile: string;
}

const ok = async (res: Promise<HttpResult>, what: string, status = 200) => {
  const r = await res;
  if (r.status !== status) throw new Error(`${what}: ${r.status} ${r.text}`);
  return r.body;
};

const submitKycInput = {
  idType: 'NATIONAL_ID',
  idNumber: 'A12345678',
  idCountry: 'KE',
  dateOfBirth: '1990-04-12',
  address: { line1: '12 Moi Avenue', city: 'Nairobi', countryCode: 'KE' },
};

/** What must be identical between B's answer for A's id and its answer for a random id: everything but per-request headers. */
function comparable(res: HttpResult, id: string) {
  const headers: Record<string, string | null> = {};
  for (const name of ['content-type', 'content-length', 'cache-control', 'www-authenticate', 'set-cookie']) headers[name] = res.headers.get(name);
  return { status: res.status, headers, body: res.text.split(id).join('<id>') };
}

/** Fresh merchant with a KYC-approved customer, a second customer awaiting KYC, a quote, a collection, a transfer and a card payment. */
async function tenant(app: TestApp, name: string, webhookUrl?: string): Promise<Tenant> {
  const creds = await app.createMerchant(name);
  const token = (await app.token(creds)).accessToken;
  if (webhookUrl) await setEndpoint(app.url, token, webhookUrl);
  const customer = await approvedCustomer(app, token);
  const pending = await enroll(app, token);
  const quote = await ok(request(app.url, 'GET', '/v1/crossborder/rates?source_currency=USD&destination_currency=KES&amount=100', { token }), 'rate');
  const collection = await ok(
    request(app.url, 'POST', '/v1/crossborder/global-collection', { token, body: momoCollectionBody(customer.customer_uuid) }),
    'collection',
  );
  const transfer = await ok(request(app.url, 'POST', '/v1/crossborder/global-transfer', { token, body: transferBody(customer.customer_uuid) }), 'transfer');
  const payment = await ok(request(app.url, 'POST', '/v1/payments/initiate', { token, body: cardPaymentBody() }), 'payment');
  if (collection.data.status !== 'processing' || transfer.data.status !== 'processing' || payment.data.status !== 'successful') {
    throw new Error(`unexpected fixture states: ${collection.data.status} ${transfer.data.status} ${payment.data.status}`);
  }
  const refund = await ok(
    request(app.url, 'POST', '/v1/refunds', {
      token,
      body: { payment_reference: payment.data.reference, amount: '100.00', reason: 'Fixture refund', reference: newReference('rfd') },
    }),
    'refund',
  );
  const funding = await ok(
    request(app.url, 'POST', '/v1/balance/funding', { token, body: { currency: 'NGN', amount: '20000.00', reference: newReference('fnd') } }),
    'funding',
  );
  const disputes: string[] = [];
  const disputedPayments: string[] = [];
  for (const _ of [1, 2]) {
    const paid = await ok(request(app.url, 'POST', '/v1/payments/initiate', { token, body: cardPaymentBody() }), 'disputed payment');
    disputedPayments.push(paid.data.reference);
    const opened = await ok(
      request(app.url, 'POST', '/v1/sandbox/disputes', { token, body: { payment_reference: paid.data.reference, reason: 'general' } }),
      'dispute',
      201,
    );
    disputes.push(opened.data.id);
  }
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(Buffer.from('%PDF-1.4\n%%EOF\n'))]), 'receipt.pdf');
  const uploaded = await fetch(`${app.url}/v1/disputes/${disputes[0]}/files`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  if (uploaded.status !== 201) throw new Error(`dispute file: ${uploaded.status} ${await uploaded.text()}`);
  const disputeFile = ((await uploaded.json()) as { data: { id: string } }).data.id;
  const events = (await ok(request(app.url, 'GET', '/v1/webhooks/events?limit=100', { token }), 'events')).data.map((e: { id: string }) => e.id);
  const checkoutSession = (await ok(request(app.url, 'POST', '/v1/checkout/sessions', { token, body: sessionBody() }), 'checkout session')).data.id;
  const links: string[] = [];
  for (const _ of [1, 2]) links.push((await ok(request(app.url, 'POST', '/v1/payment-links', { token, body: paymentLinkBody() }), 'payment link')).data.id);
  const owner = await personOf(app, creds.merchant.id, 'owner');
  const person = owner.token;
  const destinations = await payoutDestinations(app, creds.merchant.id, owner.userId);
  const payouts: string[] = [];
  for (const _ of [1, 2])
    payouts.push((await ok(request(app.url, 'POST', '/v1/payouts', { token: person, body: { currency: 'NGN', amount: '500' } }), 'payout', 201)).data.id);
  const apiKey = (await ok(request(app.url, 'GET', '/v1/api-keys', { token: person }), 'api keys')).data[0].id;
  const viewer = await personOf(app, creds.merchant.id, 'viewer');
  const team = await graphql(app.url, '{ teamMembers { id email } }', { token: person });
  const member = team.body.data.teamMembers.find((m: { email: string }) => m.email === viewer.email).id;
  const invited = await graphql(app.url, 'mutation { inviteMember(email: "someone@invited.test", role: FINANCE) { id } }', { token: person });
  const sessions = await graphql(app.url, '{ mySessions { id } }', { token: person });
  if (!sessions.body.data?.mySessions?.[0]) throw new Error(`sessions: ${sessions.text}`);
  if (!invited.body.data) throw new Error(`invitation: ${invited.text}`);
  return {
    merchantId: creds.merchant.id,
    token,
    person,
    apiKey,
    member,
    invitation: invited.body.data.inviteMember.id,
    session: sessions.body.data.mySessions[0].id,
    customer: customer.customer_uuid,
    customerid: customer.customerid,
    pending: pending.customer_uuid,
    quote: quote.data.quote_id,
    collection: collection.data,
    transfer: transfer.data,
    payment: payment.data,
    refund: refund.data,
    funding: funding.data,
    events,
    checkoutSession,
    links,
    destinations,
    payouts,
    disputes,
    disputedPayments,
    disputeFile,
  };
}

/**
 * An active payout destination and a change pending approval, written straight to the table: the sandbox names no
 * holder "Tenant A", so the name check would refuse them through the API (test/e2e/payouts/destinations.test.ts).
 */
async function payoutDestinations(app: TestApp, merchantId: string, ownerId: string): Promise<string[]> {
  const ids = [1, 2].map((n) => `pdest_${merchantId.replace(/-/g, '').slice(0, 20)}000${n}`);
  const now = app.clock.now();
  for (const [i, id] of ids.entries()) {
    await dbQuery(
      app.db.url,
      `insert into payout_destination (id, merchant_id, currency, account_type, country_code, channel_id, network_id, bank_code, account_number,
         dial_code, account_name, name_checked, status, created_by, effective_at, created_at, activated_at)
       values ($1, $2, 'NGN', 'bank', 'NG', 'ng_bank_withdrawal', 'ng_gtbank', '058', $3, '+234', 'Adaeze Okafor', true, $4, $5, $6, $7, $6)`,
      [id, merchantId, `012345678${i}`, i === 0 ? 'active' : 'pending_approval', ownerId, i === 0 ? now : null, now],
    );
  }
  return ids;
}

describe('BOLA: merchant B with merchant A’s identifiers, through every door', () => {
  let app: TestApp;
  let receiver: Receiver;
  let A: Tenant;
  let B: Tenant;
  /** Every identifier of A's that B must never see. */
  let secretsOfA: string[];
  const cursorsOfA: Record<string, string> = {};

  beforeAll(async () => {
    // Transactions stay `processing` for the whole file unless simulated: a change to one of A's is B's doing.
    app = await createTestApp({ env: { SANDBOX_SETTLE_MS: '600000' } });
    receiver = await startReceiver();
    // A has a webhook endpoint (on loopback), so a resend that got through would show as a delivery.
    [A, B] = await Promise.all([tenant(app, 'Tenant A', receiver.url), tenant(app, 'Tenant B')]);
    for (const id of A.events) await awaitDelivery(app, A.token, id, (e) => e.delivery_status === 'delivered');
    // customer.kyc.approved, three payment.successful, and each chargeback's dispute.created and dispute.funds_withdrawn.
    expect(A.events).toHaveLength(8);
    secretsOfA = [
      A.merchantId,
      A.customer,
      A.customerid,
      A.pending,
      ...A.destinations,
      ...A.payouts,
      A.quote,
      ...[A.collection, A.transfer, A.payment, A.refund, A.funding].flatMap((t) => [t.reference, t.external_reference]),
      ...A.events,
      A.checkoutSession,
      ...A.links,
      ...A.disputes,
      ...A.disputedPayments,
      A.disputeFile,
    ];
    cursorsOfA.restCustomers = (await ok(request(app.url, 'GET', '/v1/customers?limit=1', { token: A.token }), 'customers')).meta.next_cursor;
    cursorsOfA.restEvents = (await ok(request(app.url, 'GET', '/v1/webhooks/events?limit=1', { token: A.token }), 'events')).meta.next_cursor;
    cursorsOfA.restLinks = (await ok(request(app.url, 'GET', '/v1/payment-links?limit=1', { token: A.token }), 'payment links')).meta.next_cursor;
    cursorsOfA.restPayouts = (await ok(request(app.url, 'GET', '/v1/payouts?limit=1', { token: A.token }), 'payouts')).meta.next_cursor;
    cursorsOfA.restDisputes = (await ok(request(app.url, 'GET', '/v1/disputes?limit=1', { token: A.token }), 'disputes')).meta.next_cursor;
    cursorsOfA.gqlDisputes = (
      await graphql(app.url, '{ disputes(first: 1) { pageInfo { endCursor } } }', { token: A.token })
    ).body.data.disputes.pageInfo.endCursor;
    cursorsOfA.gqlPayouts = (
      await graphql(app.url, '{ payouts(first: 1) { pageInfo { endCursor } } }', { token: A.token })
    ).body.data.payouts.pageInfo.endCursor;
    cursorsOfA.gqlLinks = (
      await graphql(app.url, '{ paymentLinks(first: 1) { pageInfo { endCursor } } }', { token: A.token })
    ).body.data.paymentLinks.pageInfo.endCursor;
    const balanceTxns = await ok(request(app.url, 'GET', '/v1/balance-transactions?limit=1', { token: A.token }), 'balance transactions');
    cursorsOfA.restBalance = balanceTxns.meta.next_cursor;
    cursorsOfA.gqlBalance = balanceTxns.meta.next_cursor;
    // A's balance transactions are A's secrets too.
    secretsOfA.push(
      ...(await ok(request(app.url, 'GET', '/v1/balance-transactions?limit=100', { token: A.token }), 'balance transactions')).data.map(
        (t: { id: string }) => t.id,
      ),
    );
    const gql = await graphql(
      app.url,
      '{ customers(first: 1) { pageInfo { endCursor } } transactions(first: 1) { pageInfo { endCursor } } webhookEvents(first: 1) { pageInfo { endCursor } } }',
      {
        token: A.token,
      },
    );
    cursorsOfA.gqlCustomers = gql.body.data.customers.pageInfo.endCursor;
    cursorsOfA.gqlTransactions = gql.body.data.transactions.pageInfo.endCursor;
    cursorsOfA.gqlEvents = gql.body.data.webhookEvents.pageInfo.endCursor;
    for (const [k, v] of Object.entries(cursorsOfA)) if (!v) throw new Error(`no cursor ${k}`);
  });
  afterAll(async () => {
    await app?.close();
    await receiver?.close();
  });

  // ---------------------------------------------------------------- REST
  interface RestCase {
    /** The registered route pattern it exercises, `METHOD /v1/...`. */
    route: string;
    label: string;
    id: () => string;
    path: (id: string) => string;
    body?: (id: string) => unknown;
    expected: { status: number; code: string };
    /** GET only: A's own read of the id succeeds (false where A's answer is 404 too: a collection is not a payment). */
    readableByOwner?: boolean;
    /** Called with the tenants' owner sessions, not their API keys: what only a person may do. */
    asPerson?: true;
  }
  const NOT_FOUND = { status: 404, code: 'NOT_FOUND' };
  const restCases = (): RestCase[] => {
    const refs = (t: Tenant) => [
      ['collection reference', t.collection.reference],
      ['collection external reference', t.collection.external_reference],
      ['transfer reference', t.transfer.reference],
      ['transfer external reference', t.transfer.external_reference],
      ['payment reference', t.payment.reference],
      ['payment external reference', t.payment.external_reference],
      ['refund reference', t.refund.reference],
      ['refund external reference', t.refund.external_reference],
      ['funding reference', t.funding.reference],
      ['funding external reference', t.funding.external_reference],
    ];
    const cases: RestCase[] = [];
    for (const [label, uuid] of [
      ['approved customer', A.customer],
      ['customer awaiting KYC', A.pending],
    ] as const) {
      for (const method of ['GET', 'HEAD']) {
        cases.push({ route: `${method} /v1/customer/:uuid`, label, id: () => uuid, path: (id) => `/v1/customer/${id}`, expected: NOT_FOUND });
        cases.push({ route: `${method} /v1/customer/:uuid/kyc`, label, id: () => uuid, path: (id) => `/v1/customer/${id}/kyc`, expected: NOT_FOUND });
      }
      cases.push({
        route: 'POST /v1/customer/:uuid/kyc',
        label,
        id: () => uuid,
        path: (id) => `/v1/customer/${id}/kyc`,
        body: () => kycBody(),
        expected: NOT_FOUND,
      });
    }
    for (const [label, ref] of refs(A)) {
      for (const method of ['GET', 'HEAD']) {
        cases.push({
          route: `${method} /v1/crossborder/global-transfer/:reference`,
          label: label!,
          id: () => ref!,
          path: (id) => `/v1/crossborder/global-transfer/${id}`,
          expected: NOT_FOUND,
        });
        cases.push({
          route: `${method} /v1/transactions/:reference/events`,
          label: label!,
          id: () => ref!,
          path: (id) => `/v1/transactions/${id}/events`,
          expected: NOT_FOUND,
        });
        cases.push({
          route: `${method} /v1/payments/verify/:reference`,
          label: label!,
          id: () => ref!,
          path: (id) => `/v1/payments/verify/${id}`,
          expected: NOT_FOUND,
          readableByOwner: label!.startsWith('payment'),
        });
        cases.push({
          route: `${method} /v1/refunds/:reference`,
          label: label!,
          id: () => ref!,
          path: (id) => `/v1/refunds/${id}`,
          expected: NOT_FOUND,
          readableByOwner: label!.startsWith('refund'),
        });
        cases.push({
          route: `${method} /v1/balance/funding/:reference`,
          label: label!,
          id: () => ref!,
          path: (id) => `/v1/balance/funding/${id}`,
          expected: NOT_FOUND,
          readableByOwner: label!.startsWith('funding'),
        });
      }
      for (const outcome of ['successful', 'failed']) {
        cases.push({
          route: 'POST /v1/sandbox/transactions/:reference/simulate',
          label: `${label} → ${outcome}`,
          id: () => ref!,
          path: (id) => `/v1/sandbox/transactions/${id}/simulate`,
          body: () => ({ outcome }),
          expected: NOT_FOUND,
        });
      }
    }
    for (const [i, eventId] of A.events.entries()) {
      for (const method of ['GET', 'HEAD']) {
        cases.push({
          route: `${method} /v1/webhooks/events/:id`,
          label: `event ${i}`,
          id: () => eventId,
          path: (id) => `/v1/webhooks/events/${id}`,
          expected: NOT_FOUND,
        });
      }
      cases.push({
        route: 'POST /v1/webhooks/events/:id/resend',
        label: `event ${i}`,
        id: () => eventId,
        path: (id) => `/v1/webhooks/events/${id}/resend`,
        expected: NOT_FOUND,
      });
    }
    // Identifiers in bodies: another merchant's customer or quote.
    cases.push({
      route: 'POST /v1/crossborder/global-collection',
      label: 'customer_uuid',
      id: () => A.customer,
      path: () => '/v1/crossborder/global-collection',
      body: (id) => momoCollectionBody(id),
      expected: NOT_FOUND,
    });
    cases.push({
      route: 'POST /v1/crossborder/global-transfer',
      label: 'customer_uuid',
      id: () => A.customer,
      path: () => '/v1/crossborder/global-transfer',
      body: (id) => transferBody(id),
      expected: NOT_FOUND,
    });
    cases.push({
      route: 'POST /v1/crossborder/global-transfer',
      label: 'quote_id (B’s own customer)',
      id: () => A.quote,
      path: () => '/v1/crossborder/global-transfer',
      body: (id) => transferBody(B.customer, { quote_id: id }),
      // Documented: someone else's quote is refused on quote_id, exactly like an unknown one.
      expected: { status: 400, code: 'INVALID_REQUEST' },
    });
    for (const ref of [A.payment.reference, A.payment.external_reference]) {
      cases.push({
        route: 'POST /v1/refunds',
        label: 'payment_reference',
        id: () => ref,
        path: () => '/v1/refunds',
        body: (id) => ({ payment_reference: id, amount: '1.00', reason: 'BOLA', reference: 'fixed-ref-r' }),
        expected: NOT_FOUND,
      });
    }
    cases.push({
      route: 'POST /v1/payments/initiate',
      label: 'customer_uuid',
      id: () => A.customer,
      path: () => '/v1/payments/initiate',
      body: (id) => cardPaymentBody({ customer_uuid: id }),
      expected: NOT_FOUND,
    });
    for (const method of ['GET', 'HEAD']) {
      cases.push({
        route: `${method} /v1/checkout/sessions/:id`,
        label: 'checkout session',
        id: () => A.checkoutSession,
        path: (id) => `/v1/checkout/sessions/${id}`,
        expected: NOT_FOUND,
      });
      for (const link of A.links) {
        cases.push({
          route: `${method} /v1/payment-links/:id`,
          label: 'payment link',
          id: () => link,
          path: (id) => `/v1/payment-links/${id}`,
          expected: NOT_FOUND,
        });
      }
    }
    for (const link of A.links) {
      cases.push({
        route: 'POST /v1/payment-links/:id/deactivate',
        label: 'payment link',
        id: () => link,
        path: (id) => `/v1/payment-links/${id}/deactivate`,
        expected: NOT_FOUND,
      });
    }
    for (const destination of A.destinations) {
      for (const [route, suffix] of [
        ['GET /v1/payout-destinations/:id', ''],
        ['HEAD /v1/payout-destinations/:id', ''],
        ['POST /v1/payout-destinations/:id/approve', '/approve'],
        ['POST /v1/payout-destinations/:id/cancel', '/cancel'],
      ] as const) {
        cases.push({
          route,
          label: 'payout destination',
          id: () => destination,
          path: (id) => `/v1/payout-destinations/${id}${suffix}`,
          expected: NOT_FOUND,
          asPerson: true,
        });
      }
    }
    for (const method of ['GET', 'HEAD']) {
      for (const suffix of ['', '/balance-transactions', '/report']) {
        cases.push({
          route: `${method} /v1/payouts/:id${suffix}`,
          label: 'payout',
          id: () => A.payouts[0]!,
          path: (id) => `/v1/payouts/${id}${suffix}`,
          expected: NOT_FOUND,
        });
      }
    }
    for (const dispute of A.disputes) {
      for (const method of ['GET', 'HEAD']) {
        cases.push({ route: `${method} /v1/disputes/:id`, label: 'dispute', id: () => dispute, path: (id) => `/v1/disputes/${id}`, expected: NOT_FOUND });
      }
      for (const suffix of ['evidence', 'submit', 'accept', 'files']) {
        cases.push({
          route: `POST /v1/disputes/:id/${suffix}`,
          label: 'dispute',
          id: () => dispute,
          path: (id) => `/v1/disputes/${id}/${suffix}`,
          expected: NOT_FOUND,
          ...(suffix === 'evidence' ? { body: () => ({ uncategorized_text: 'BOLA' }) } : {}),
        });
      }
      cases.push({
        route: 'POST /v1/sandbox/disputes/:id/simulate',
        label: 'dispute',
        id: () => dispute,
        path: (id) => `/v1/sandbox/disputes/${id}/simulate`,
        expected: NOT_FOUND,
        body: () => ({ outcome: 'won' }),
      });
    }
    // A's payments named in the body of a sandbox dispute: one never disputed (by both its references), and one whose chargeback is open.
    for (const ref of [A.payment.reference, A.payment.external_reference, A.disputedPayments[1]!]) {
      cases.push({
        route: 'POST /v1/sandbox/disputes',
        label: 'payment_reference',
        id: () => ref,
        path: () => '/v1/sandbox/disputes',
        body: (id) => ({ payment_reference: id, reason: 'general' }),
        expected: NOT_FOUND,
      });
    }
    for (const method of ['GET', 'HEAD']) {
      // A's file through A's dispute (through B's own dispute: test/e2e/disputes/evidence-files.test.ts).
      cases.push({
        route: `${method} /v1/disputes/:id/files/:file_id`,
        label: 'dispute file',
        id: () => A.disputes[0]!,
        path: (id) => `/v1/disputes/${id}/files/${A.disputeFile}`,
        expected: NOT_FOUND,
      });
    }
    for (const action of ['rotate', 'revoke']) {
      cases.push({
        route: `POST /v1/api-keys/:id/${action}`,
        label: 'api key',
        id: () => A.apiKey,
        path: (id) => `/v1/api-keys/${id}/${action}`,
        expected: NOT_FOUND,
        asPerson: true,
      });
    }
    return cases;
  };

  /** Routes whose path parameter is not a tenant's identifier, by path prefix, and why. */
  const NOT_TENANT_SCOPED: Array<[RegExp, string]> = [
    [/^\/v1\/sandbox\/3ds\//, 'public cardholder page: the unguessable handle is the credential (no token, no merchant)'],
    [/^\/checkout\/otp\//, 'public cardholder page: the handle (a MAC over the payment’s id) is the credential (test/e2e/rails/flutterwave-pin.test.ts)'],
    [/^\/checkout\/assets\//, 'the hosted checkout’s static assets: the same for everyone'],
    [/^\/checkout\/logos\//, 'a checkout page’s logo, addressed by its content’s SHA-256: as public as the payer pages that show it'],
    [
      /^\/checkout\/:id/,
      'public payer page: the unguessable session id is the credential; no token names a merchant, and a forged id is refused (test/e2e/checkout/pages.test.ts)',
    ],
    [/^\/pay\/:slug/, 'a payment link’s public page: meant to be shared; it opens a session of the link’s own merchant only'],
    [/^\/v1\/admin\//, 'operator API behind ADMIN_API_KEY: a merchant token is refused there (next test)'],
    [/^\/v1\/docs\//, 'public static documentation assets'],
    [/^\/dashboard\/assets\//, 'the dashboard’s public static files (its data comes through the API, swept here)'],
    [/^\/v1\/providers\//, 'providers’ callbacks: the per-transaction MAC is the credential, no merchant’s (test/e2e/rails/callbacks.test.ts)'],
  ];
  const notTenantScoped = (route: string) => NOT_TENANT_SCOPED.some(([prefix]) => prefix.test(route.split(' ')[1]!));

  it('coverage: every registered REST route with a path parameter is swept (or named as not tenant-scoped)', () => {
    const withParams = registeredRoutes(app)
      .filter((r) => r.path.includes(':'))
      .map((r) => `${r.method} ${r.path}`)
      .sort();
    expect(withParams.length).toBeGreaterThanOrEqual(10);
    const swept = new Set(restCases().map((c) => c.route));
    expect(withParams.filter((r) => !swept.has(r) && !notTenantScoped(r))).toEqual([]);
    // And every route swept here still exists.
    const all = new Set(registeredRoutes(app).map((r) => `${r.method} ${r.path}`));
    expect([...swept].filter((r) => !all.has(r))).toEqual([]);
  });

  it('REST: a merchant’s token opens no operator route (every registered /v1/admin route answers 401 INVALID_TOKEN)', async () => {
    const admin = registeredRoutes(app).filter((r) => r.path.startsWith('/v1/admin/') && r.method !== 'HEAD');
    expect(admin.length).toBeGreaterThanOrEqual(1);
    const before = await dbFingerprint(app.db.url);
    for (const r of admin) {
      for (const token of [A.token, B.token]) {
        const res = await request(app.url, r.method, r.path.replace(/:[A-Za-z]+/g, randomLike('00000000-0000-4000-8000-000000000000')), {
          token,
          ...(r.method === 'GET' ? {} : { body: { name: 'Not an operator', reason: 'x' } }),
        });
        expect([r.method, r.path, res.status, res.body?.code]).toEqual([r.method, r.path, 401, 'INVALID_TOKEN']);
      }
    }
    expect(await dbFingerprint(app.db.url)).toEqual(before);
  });

  it('REST: every route answers B for A’s id exactly as for a random id (404, same bytes), and nothing of A’s changes', async () => {
    const before = await dbFingerprint(app.db.url);
    const cases = restCases();
    const failures: string[] = [];
    for (const c of cases) {
      const aId = c.id();
      const rId = randomLike(aId);
      const method = c.route.split(' ')[0]!;
      const call = (id: string, tenant: Tenant) =>
        request(app.url, method, c.path(id), { token: c.asPerson ? tenant.person : tenant.token, ...(c.body ? { body: c.body(id) } : {}) });
      if (method === 'GET' && c.readableByOwner !== false) {
        // A's own read of the same id works: the id is real.
        const own = await call(aId, A);
        if (own.status !== 200) failures.push(`${c.route} (${c.label}): A's own read is ${own.status}`);
      }
      const attack = await call(aId, B);
      const random = await call(rId, B);
      if (attack.status !== c.expected.status || (method !== 'HEAD' && attack.body?.code !== c.expected.code)) {
        failures.push(`${c.route} (${c.label}): B got ${attack.status} ${attack.text.slice(0, 200)}`);
      }
      const [x, y] = [comparable(attack, aId), comparable(random, rId)];
      if (JSON.stringify(x) !== JSON.stringify(y)) failures.push(`${c.route} (${c.label}): A's id ${JSON.stringify(x)} ≠ random id ${JSON.stringify(y)}`);
      for (const secret of secretsOfA) if (attack.text.includes(secret)) failures.push(`${c.route} (${c.label}): the answer names ${secret}`);
    }
    expect(failures).toEqual([]);
    expect(cases.length).toBeGreaterThanOrEqual(50);
    // Not one row anywhere changed: no KYC submission, no simulation, no resend, no transaction, no delivery.
    expect(await dbFingerprint(app.db.url)).toEqual(before);
    // And as A sees it:
    for (const t of [A.collection, A.transfer]) {
      expect((await request(app.url, 'GET', `/v1/crossborder/global-transfer/${t.reference}`, { token: A.token })).body.data.status).toBe('processing');
    }
    expect((await request(app.url, 'GET', `/v1/customer/${A.pending}/kyc`, { token: A.token })).body.data.kyc_status).toBe('pending_kyc');
    for (const id of A.events) {
      expect((await request(app.url, 'GET', `/v1/webhooks/events/${id}`, { token: A.token })).body.data).toMatchObject({
        delivery_status: 'delivered',
        attempt_count: 1,
      });
    }
  });

  // ---------------------------------------------------------------- GraphQL
  interface GqlCase {
    /** `Type.field(argument path)`, as the coverage check derives it from schema.graphql. */
    covers: string[];
    label: string;
    id: () => string;
    query: string;
    variables: (id: string) => Record<string, unknown>;
    code: string;
    /** Run with the tenants' owner sessions, not their API keys: what only a person may do. */
    asPerson?: true;
  }
  const gqlCases = (): GqlCase[] => {
    const cases: GqlCase[] = [];
    for (const uuid of [A.customer, A.pending]) {
      cases.push({
        covers: ['Query.customer(uuid)'],
        label: 'customer',
        id: () => uuid,
        query: 'query($id: String!) { customer(uuid: $id) { uuid customerId } }',
        variables: (id) => ({ id }),
        code: 'NOT_FOUND',
      });
      cases.push({
        covers: ['Query.kyc(customerUuid)'],
        label: 'kyc',
        id: () => uuid,
        query: 'query($id: String!) { kyc(customerUuid: $id) { customerUuid kycStatus } }',
        variables: (id) => ({ id }),
        code: 'NOT_FOUND',
      });
    }
    cases.push({
      covers: ['Mutation.submitKyc(customerUuid)'],
      label: 'submitKyc',
      id: () => A.pending,
      query: 'mutation($id: String!, $input: SubmitKycInput!) { submitKyc(customerUuid: $id, input: $input) { customerUuid kycStatus } }',
      variables: (id) => ({ id, input: submitKycInput }),
      code: 'NOT_FOUND',
    });
    for (const t of [A.collection, A.transfer, A.payment]) {
      for (const ref of [t.reference, t.external_reference]) {
        cases.push({
          covers: ['Query.transaction(reference)'],
          label: `transaction ${ref}`,
          id: () => ref,
          query: 'query($id: String!) { transaction(reference: $id) { reference status } }',
          variables: (id) => ({ id }),
          code: 'NOT_FOUND',
        });
        cases.push({
          covers: ['Query.verifyPayment(reference)'],
          label: `verifyPayment ${ref}`,
          id: () => ref,
          query: 'query($id: String!) { verifyPayment(reference: $id) { reference status } }',
          variables: (id) => ({ id }),
          code: 'NOT_FOUND',
        });
        for (const outcome of ['SUCCESSFUL', 'FAILED']) {
          cases.push({
            covers: ['Mutation.simulateTransaction(reference)'],
            label: `simulate ${ref} ${outcome}`,
            id: () => ref,
            query: `mutation($id: String!) { simulateTransaction(reference: $id, outcome: ${outcome}) { reference status } }`,
            variables: (id) => ({ id }),
            code: 'NOT_FOUND',
          });
        }
      }
    }
    for (const eventId of A.events) {
      cases.push({
        covers: ['Query.webhookEvent(id)'],
        label: 'webhookEvent',
        id: () => eventId,
        query: 'query($id: String!) { webhookEvent(id: $id) { id type data } }',
        variables: (id) => ({ id }),
        code: 'NOT_FOUND',
      });
      cases.push({
        covers: ['Mutation.resendWebhookEvent(id)'],
        label: 'resend',
        id: () => eventId,
        query: 'mutation($id: String!) { resendWebhookEvent(id: $id) { id attemptCount } }',
        variables: (id) => ({ id }),
        code: 'NOT_FOUND',
      });
    }
    cases.push({
      covers: ['Mutation.initiateCollection(input.customerUuid)'],
      label: 'initiateCollection',
      id: () => A.customer,
      query: 'mutation($input: InitiateCollectionInput!) { initiateCollection(input: $input) { reference } }',
      variables: (id) => ({ input: momoCollectionInput(id, { reference: 'fixed-ref-c' }) }),
      code: 'NOT_FOUND',
    });
    cases.push({
      covers: ['Mutation.initiateTransfer(input.customerUuid)'],
      label: 'initiateTransfer',
      id: () => A.customer,
      query: 'mutation($input: InitiateTransferInput!) { initiateTransfer(input: $input) { reference } }',
      variables: (id) => ({ input: momoTransferInput(id, { reference: 'fixed-ref-t' }) }),
      code: 'NOT_FOUND',
    });
    cases.push({
      covers: ['Mutation.initiateTransfer(input.quoteId)'],
      label: 'initiateTransfer with A’s quote',
      id: () => A.quote,
      query: 'mutation($input: InitiateTransferInput!) { initiateTransfer(input: $input) { reference } }',
      variables: (id) => ({ input: momoTransferInput(B.customer, { quoteId: id, reference: 'fixed-ref-q' }) }),
      code: 'INVALID_REQUEST',
    });
    for (const ref of [A.payment.reference, A.payment.external_reference]) {
      cases.push({
        covers: ['Mutation.refundPayment(input.paymentReference)'],
        label: `refundPayment ${ref}`,
        id: () => ref,
        query: 'mutation($input: RefundPaymentInput!) { refundPayment(input: $input) { reference } }',
        variables: (id) => ({ input: { paymentReference: id, amount: '1.00', reason: 'BOLA', reference: 'fixed-ref-gr' } }),
        code: 'NOT_FOUND',
      });
    }
    cases.push({
      covers: ['Mutation.initiatePayment(input.customerUuid)'],
      label: 'initiatePayment',
      id: () => A.customer,
      query: 'mutation($input: InitiatePaymentInput!) { initiatePayment(input: $input) { reference } }',
      variables: (id) => ({ input: cardPaymentInput({ customerUuid: id, reference: 'fixed-ref-p' }) }),
      code: 'NOT_FOUND',
    });
    const teamCases: Array<[string, () => string, string]> = [
      ['changeMemberRole', () => A.member, 'mutation($id: ID!) { changeMemberRole(id: $id, role: SUPPORT) { id } }'],
      ['removeMember', () => A.member, 'mutation($id: ID!) { removeMember(id: $id) }'],
      ['transferOwnership', () => A.member, 'mutation($id: ID!) { transferOwnership(id: $id) { id } }'],
      ['resendInvitation', () => A.invitation, 'mutation($id: ID!) { resendInvitation(id: $id) { id } }'],
      ['revokeInvitation', () => A.invitation, 'mutation($id: ID!) { revokeInvitation(id: $id) { id } }'],
      ['endSession', () => A.session, 'mutation($id: ID!) { endSession(id: $id) }'],
    ];
    for (const [field, id, query] of teamCases) {
      cases.push({ covers: [`Mutation.${field}(id)`], label: field, id, query, variables: (v) => ({ id: v }), code: 'NOT_FOUND', asPerson: true });
    }
    cases.push({
      covers: ['Query.checkoutSession(id)'],
      label: 'checkoutSession',
      id: () => A.checkoutSession,
      query: 'query($id: ID!) { checkoutSession(id: $id) { id status } }',
      variables: (id) => ({ id }),
      code: 'NOT_FOUND',
    });
    for (const link of A.links) {
      cases.push({
        covers: ['Query.paymentLink(id)'],
        label: 'paymentLink',
        id: () => link,
        query: 'query($id: ID!) { paymentLink(id: $id) { id active } }',
        variables: (id) => ({ id }),
        code: 'NOT_FOUND',
      });
      cases.push({
        covers: ['Mutation.deactivatePaymentLink(id)'],
        label: 'deactivatePaymentLink',
        id: () => link,
        query: 'mutation($id: ID!) { deactivatePaymentLink(id: $id) { id active } }',
        variables: (id) => ({ id }),
        code: 'NOT_FOUND',
      });
    }
    for (const [field, query] of [
      ['payoutDestination', 'query($id: ID!) { payoutDestination(id: $id) { id status } }'],
      ['approvePayoutDestination', 'mutation($id: ID!) { approvePayoutDestination(id: $id) { id status } }'],
      ['cancelPayoutDestination', 'mutation($id: ID!) { cancelPayoutDestination(id: $id) { id status } }'],
    ] as const) {
      for (const destination of A.destinations) {
        cases.push({
          covers: [`${field === 'payoutDestination' ? 'Query' : 'Mutation'}.${field}(id)`],
          label: field,
          id: () => destination,
          query,
          variables: (id) => ({ id }),
          code: 'NOT_FOUND',
          asPerson: true,
        });
      }
    }
    cases.push({
      covers: ['Query.payout(id)'],
      label: 'payout',
      id: () => A.payouts[0]!,
      query: 'query($id: ID!) { payout(id: $id) { id amount report { net } balanceTransactions { id } } }',
      variables: (id) => ({ id }),
      code: 'NOT_FOUND',
    });
    for (const dispute of A.disputes) {
      for (const [covers, query] of [
        ['Query.dispute(id)', 'query($id: ID!) { dispute(id: $id) { id status } }'],
        ['Mutation.updateDisputeEvidence(id)', 'mutation($id: ID!) { updateDisputeEvidence(id: $id, input: { uncategorizedText: "BOLA" }) { id } }'],
        ['Mutation.submitDispute(id)', 'mutation($id: ID!) { submitDispute(id: $id) { id } }'],
        ['Mutation.acceptDispute(id)', 'mutation($id: ID!) { acceptDispute(id: $id) { id } }'],
        ['Mutation.simulateDisputeOutcome(id)', 'mutation($id: ID!) { simulateDisputeOutcome(id: $id, outcome: WON) { id } }'],
      ] as const) {
        cases.push({ covers: [covers], label: covers, id: () => dispute, query, variables: (id) => ({ id }), code: 'NOT_FOUND' });
      }
    }
    for (const ref of [A.disputedPayments[1]!, A.payment.reference]) {
      cases.push({
        covers: ['Mutation.simulateDispute(input.paymentReference)'],
        label: `simulateDispute of A’s payment ${ref}`,
        id: () => ref,
        query: 'mutation($input: SimulateDisputeInput!) { simulateDispute(input: $input) { id } }',
        variables: (id) => ({ input: { paymentReference: id, reason: 'GENERAL' } }),
        code: 'NOT_FOUND',
      });
    }
    for (const dispute of A.disputes) {
      cases.push({
        covers: ['Mutation.uploadDisputeFile(disputeId)'],
        label: 'uploadDisputeFile to A’s dispute',
        id: () => dispute,
        query: `mutation($id: ID!) { uploadDisputeFile(disputeId: $id, filename: "receipt.pdf", contentBase64: "${Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64')}") { id } }`,
        variables: (id) => ({ id }),
        code: 'NOT_FOUND',
      });
    }
    // A's file named in the evidence of B's own open dispute: refused on fileIds, as a file that does not exist is.
    cases.push({
      covers: ['Mutation.updateDisputeEvidence(input.fileIds)'],
      label: 'updateDisputeEvidence of B’s dispute naming A’s file',
      id: () => A.disputeFile,
      query: 'mutation($d: ID!, $f: ID!) { updateDisputeEvidence(id: $d, input: { fileIds: [$f] }) { id evidence { files { id } } } }',
      variables: (id) => ({ d: B.disputes[0], f: id }),
      code: 'INVALID_REQUEST',
    });
    for (const field of ['rotateApiKey', 'revokeApiKey']) {
      cases.push({
        covers: [`Mutation.${field}(id)`],
        label: field,
        id: () => A.apiKey,
        query: `mutation($id: ID!) { ${field}(id: $id) { __typename } }`,
        variables: (id) => ({ id }),
        code: 'NOT_FOUND',
        asPerson: true,
      });
    }
    return cases;
  };

  /** Lists (cursors and filters); checked by content in the lists test. */
  const LIST_COVERS = [
    'Query.customers(after)',
    'Query.transactions(after)',
    'Query.transactions(filter.customerUuid)',
    'Query.webhookEvents(after)',
    'Query.balanceTransactions(after)',
    'Query.auditLog(after)',
    'Query.paymentLinks(after)',
    'Query.payouts(after)',
    'Query.disputes(after)',
    'Query.disputes(paymentReference)',
    'Query.transactions(filter.paymentLinkId)',
  ];
  /** Arguments named like an identifier that name no merchant's record: the same public lists for everyone. */
  const NOT_RECORDS = [
    'Mutation.initiateCollection(input.channelId)',
    'Mutation.initiateCollection(input.networkId)',
    'Mutation.initiateTransfer(input.channelId)',
    'Mutation.initiateTransfer(input.networkId)',
  ];
  /** Subscriptions; checked over graphql-ws in the subscriptions test. */
  const SUBSCRIPTION_COVERS = ['Subscription.kycStatusChanged(customerUuid)', 'Subscription.transactionStatusChanged(reference)'];
  /** Identifiers the caller chooses for a new record: per merchant, checked in the reuse test. */
  const OWN_IDENTIFIER_COVERS = [
    'Mutation.enrollCustomer(input.customerId)',
    'Mutation.initiateCollection(input.reference)',
    'Mutation.initiatePayment(input.reference)',
    'Mutation.initiateTransfer(input.reference)',
    'Mutation.refundPayment(input.reference)',
    'Mutation.fundBalance(input.reference)',
    'Mutation.createCheckoutSession(input.reference)',
  ];

  it('coverage: every GraphQL operation argument that names a record is swept', () => {
    const schema = buildSchema(readFileSync(path.join(__dirname, '../../../schema.graphql'), 'utf8'));
    // Any argument named as an identifier: id, uuid, reference, a cursor, and every *Id, *Ids, *Uuid and *Reference
    // (disputeId, fileIds, quoteId, paymentReference…), so a new one is demanded here as soon as the schema has it.
    const ID_NAME = /^(id|uuid|reference|after|[a-z][A-Za-z]*(Id|Ids|Uuid|Reference))$/;
    const found: string[] = [];
    const walk = (type: string, field: string, prefix: string, args: ReadonlyArray<GraphQLArgument | GraphQLInputField>, depth: number) => {
      for (const arg of args) {
        const named = getNamedType(arg.type);
        if (isInputObjectType(named) && depth < 5) walk(type, field, `${prefix}${arg.name}.`, Object.values(named.getFields()), depth + 1);
        else if (ID_NAME.test(arg.name)) found.push(`${type}.${field}(${prefix}${arg.name})`);
      }
    };
    for (const root of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()] as GraphQLObjectType[]) {
      for (const f of Object.values(root.getFields())) walk(root.name, f.name, '', f.args, 0);
    }
    const covered = new Set([...gqlCases().flatMap((c) => c.covers), ...LIST_COVERS, ...SUBSCRIPTION_COVERS, ...OWN_IDENTIFIER_COVERS, ...NOT_RECORDS]);
    expect(found.length).toBeGreaterThanOrEqual(15);
    // The arguments the dispute operations take are among them (issue 39).
    expect(found).toEqual(expect.arrayContaining(['Mutation.uploadDisputeFile(disputeId)', 'Mutation.updateDisputeEvidence(input.fileIds)']));
    expect(found.filter((f) => !covered.has(f)).sort()).toEqual([]);
    expect([...covered].filter((c) => !found.includes(c)).sort()).toEqual([]);
  });

  it('GraphQL over HTTP and over the socket: B gets A’s ids answered exactly as random ids, and nothing of A’s changes', async () => {
    const before = await dbFingerprint(app.db.url);
    const keySocket = await GqlSocket.connect(app, B.token);
    const personSocket = await GqlSocket.connect(app, B.person);
    const failures: string[] = [];
    const cases = gqlCases();
    try {
      for (const c of cases) {
        const aId = c.id();
        const rId = randomLike(aId);
        const token = c.asPerson ? B.person : B.token;
        const socket = c.asPerson ? personSocket : keySocket;
        const attack = await graphql(app.url, c.query, { token, variables: c.variables(aId) });
        const random = await graphql(app.url, c.query, { token, variables: c.variables(rId) });
        if (attack.body?.data != null || attack.body?.errors?.[0]?.extensions?.code !== c.code)
          failures.push(`HTTP ${c.label}: ${attack.status} ${attack.text.slice(0, 200)}`);
        const [x, y] = [comparable(attack, aId), comparable(random, rId)];
        if (JSON.stringify(x) !== JSON.stringify(y)) failures.push(`HTTP ${c.label}: A's id ${JSON.stringify(x)} ≠ random id ${JSON.stringify(y)}`);
        const wsAttack = JSON.stringify(await socket.run(c.query, c.variables(aId)));
        const wsRandom = JSON.stringify(await socket.run(c.query, c.variables(rId)));
        if (!wsAttack.includes(`"code":"${c.code}"`)) failures.push(`socket ${c.label}: ${wsAttack.slice(0, 200)}`);
        if (wsAttack.split(aId).join('<id>') !== wsRandom.split(rId).join('<id>')) failures.push(`socket ${c.label}: ${wsAttack} ≠ ${wsRandom}`);
        // The id B sent may be named back (an unknown file's id, in the message): the comparison above shows a random one's answer
        // says the same; anything else of A's may not appear.
        const [attackText, wsText] = [attack.text.split(aId).join('<id>'), wsAttack.split(aId).join('<id>')];
        for (const secret of secretsOfA) if (attackText.includes(secret) || wsText.includes(secret)) failures.push(`${c.label}: the answer names ${secret}`);
      }
    } finally {
      await keySocket.close();
      await personSocket.close();
    }
    expect(failures).toEqual([]);
    expect(cases.length).toBeGreaterThanOrEqual(35);
    expect(await dbFingerprint(app.db.url)).toEqual(before);
  });

  // ---------------------------------------------------------------- lists
  it('B’s lists (REST and GraphQL, with A’s cursors and A’s customer as a filter) hold B’s items and never A’s', async () => {
    const before = await dbFingerprint(app.db.url);
    const rest = [
      '/v1/customers?limit=100',
      `/v1/customers?limit=100&after=${cursorsOfA.restCustomers}`,
      '/v1/webhooks/events?limit=100',
      `/v1/webhooks/events?limit=100&after=${cursorsOfA.restEvents}`,
      '/v1/webhooks/events?limit=100&type=payment.successful',
      '/v1/balances',
      '/v1/balance-transactions?limit=100',
      `/v1/balance-transactions?limit=100&after=${cursorsOfA.restBalance}`,
      `/v1/reports/statement?currency=NGN&from=2000-01-01T00:00:00Z&to=2099-01-01T00:00:00Z`,
      // Search by A's references and by the email both merchants' customers share (the factories' default); the CSV export.
      `/v1/transactions?limit=100&search=${A.payment.reference}`,
      `/v1/transactions?limit=100&search=${A.payment.external_reference}`,
      '/v1/transactions?limit=100&search=amina%40example.com',
      '/v1/transactions/export.csv',
      `/v1/transactions/export.csv?search=${A.payment.external_reference}`,
      `/v1/transactions/export.csv?customer_uuid=${A.customer}`,
      `/v1/transactions?limit=100&payment_link_id=${A.links[0]}`,
      '/v1/payment-links?limit=100',
      `/v1/payment-links?limit=100&after=${cursorsOfA.restLinks}`,
      '/v1/payouts?limit=100',
      `/v1/payouts?limit=100&after=${cursorsOfA.restPayouts}`,
      '/v1/payouts/upcoming?currency=NGN',
      '/v1/disputes?limit=100',
      `/v1/disputes?limit=100&after=${cursorsOfA.restDisputes}`,
      `/v1/disputes?limit=100&payment_reference=${A.disputedPayments[0]}`,
    ];
    const answers: Array<[string, string]> = [];
    for (const p of rest) {
      const res = await request(app.url, 'GET', p, { token: B.token });
      expect([p, res.status]).toEqual([p, 200]); // (the path in the expectation names the failing list)
      answers.push([p, res.text]);
    }
    const gql: Array<[string, Record<string, unknown>]> = [
      ['query { customers(first: 100) { edges { cursor node { uuid customerId } } } }', {}],
      ['query($a: String) { customers(first: 100, after: $a) { edges { node { uuid customerId } } } }', { a: cursorsOfA.gqlCustomers }],
      ['query { transactions(first: 100) { edges { node { reference externalReference customerUuid } } } }', {}],
      ['query($a: String) { transactions(first: 100, after: $a) { edges { node { reference externalReference } } } }', { a: cursorsOfA.gqlTransactions }],
      ['query($c: String) { transactions(first: 100, filter: { customerUuid: $c }) { edges { node { reference externalReference } } } }', { c: A.customer }],
      ['query { transactions(first: 100, filter: { type: PAYMENT }) { edges { node { reference externalReference } } } }', {}],
      ['query($s: String) { transactions(first: 100, search: $s) { edges { node { reference externalReference } } } }', { s: A.payment.reference }],
      ['query { transactions(first: 100, search: "AMINA@example.com") { edges { node { reference customer { customerUuid customerId email } } } } }', {}],
      ['query { webhookEvents(first: 100) { edges { node { id type data } } } }', {}],
      ['query($a: String) { webhookEvents(first: 100, after: $a) { edges { node { id type data } } } }', { a: cursorsOfA.gqlEvents }],
      ['query { balances { currency available pending reserved } }', {}],
      ['query { balanceTransactions(first: 100) { edges { node { id sourceReference } } } }', {}],
      ['query($a: String) { balanceTransactions(first: 100, after: $a) { edges { node { id sourceReference } } } }', { a: cursorsOfA.gqlBalance }],
      ['query($l: String) { transactions(first: 100, filter: { paymentLinkId: $l }) { edges { node { reference } } } }', { l: A.links[0] }],
      ['query { paymentLinks(first: 100) { edges { node { id slug } } } }', {}],
      ['query($a: String) { paymentLinks(first: 100, after: $a) { edges { node { id slug } } } }', { a: cursorsOfA.gqlLinks }],
      ['query { payouts(first: 100) { edges { node { id transactionReference } } } }', {}],
      ['query($a: String) { payouts(first: 100, after: $a) { edges { node { id transactionReference } } } }', { a: cursorsOfA.gqlPayouts }],
      ['query { disputes(first: 100) { edges { node { id paymentReference evidence { files { id } } } } } }', {}],
      ['query($a: String) { disputes(first: 100, after: $a) { edges { node { id paymentReference } } } }', { a: cursorsOfA.gqlDisputes }],
      ['query($r: String) { disputes(first: 100, paymentReference: $r) { edges { node { id } } } }', { r: A.disputedPayments[0] }],
      ['query { openDisputeCount }', {}],
    ];
    for (const [query, variables] of gql) {
      const res = await graphql(app.url, query, { token: B.token, variables });
      expect([query, res.status, res.body.errors]).toEqual([query, 200, undefined]);
      answers.push([query, res.text]);
    }
    const leaks = answers.flatMap(([what, text]) => secretsOfA.filter((s) => text.includes(s)).map((s) => `${what} names ${s}`));
    expect(leaks).toEqual([]);
    // The unfiltered lists are B's own, so "no A" above is not the emptiness of a broken list.
    const joined = answers.map(([, t]) => t).join('\n');
    for (const mine of [
      B.customer,
      B.pending,
      B.collection.reference,
      B.payment.reference,
      B.refund.reference,
      ...B.events,
      ...B.links,
      ...B.payouts,
      ...B.disputes,
    ])
      expect(joined).toContain(mine);
    expect(await dbFingerprint(app.db.url)).toEqual(before);
  });

  it('B’s owner reads B’s audit log only, with A’s cursors and A’s key as the actor (REST, the export, GraphQL)', async () => {
    const before = await dbFingerprint(app.db.url);
    // A's log holds its webhook endpoint's setting and its refund (by its key): two entries, so a cursor.
    const restCursor = (await ok(request(app.url, 'GET', '/v1/audit-logs?limit=1', { token: A.person }), 'audit log')).meta.next_cursor;
    const ofA = await graphql(app.url, '{ auditLog(first: 1) { pageInfo { endCursor } } }', { token: A.person });
    const gqlCursor = ofA.body.data.auditLog.pageInfo.endCursor;
    expect([typeof restCursor, typeof gqlCursor]).toEqual(['string', 'string']);
    const answers: Array<[string, string]> = [];
    for (const p of [
      '/v1/audit-logs?limit=100',
      `/v1/audit-logs?limit=100&after=${restCursor}`,
      `/v1/audit-logs?limit=100&actor=${A.apiKey}`,
      '/v1/audit-logs/export.csv',
      `/v1/audit-logs/export.csv?actor=${A.apiKey}`,
    ]) {
      const res = await request(app.url, 'GET', p, { token: B.person });
      expect([p, res.status]).toEqual([p, 200]);
      answers.push([p, res.text]);
    }
    const fields = 'edges { node { action actorId actorLabel targetId before after } }';
    for (const [query, variables] of [
      [`query { auditLog(first: 100) { ${fields} } }`, {}],
      [`query($a: String) { auditLog(first: 100, after: $a) { ${fields} } }`, { a: gqlCursor }],
      [`query($k: String) { auditLog(first: 100, filter: { actor: $k }) { ${fields} } }`, { k: A.apiKey }],
    ] as Array<[string, Record<string, unknown>]>) {
      const res = await graphql(app.url, query, { token: B.person, variables });
      expect([query, res.status, res.body.errors]).toEqual([query, 200, undefined]);
      answers.push([query, res.text]);
    }
    const leaks = answers.flatMap(([what, text]) => [...secretsOfA, A.apiKey].filter((s) => text.includes(s)).map((s) => `${what} names ${s}`));
    expect(leaks).toEqual([]);
    // B's own log is there (its refund), so "no A" is not the emptiness of a broken list.
    expect(answers[0]![1]).toContain(B.refund.reference);
    expect(await dbFingerprint(app.db.url)).toEqual(before);
  });

  it('POST /dashboard/session/switch: B’s person naming A’s merchant gets the bytes a random id gets (403), and B’s session stays', async () => {
    const person = await signInDashboardUser(app, B.merchantId);
    const signedIn = await signInDashboard(app, { email: person.email, password: person.password });
    expect(signedIn.res.body.data?.merchant_id).toBe(B.merchantId);
    const cookie = `dashboard_session=${signedIn.cookie}`;
    const switchTo = (merchantId: string) =>
      request(app.url, 'POST', '/dashboard/session/switch', { headers: { ...DASHBOARD_HEADERS, cookie }, body: { merchant_id: merchantId } });
    const before = await dbFingerprint(app.db.url);
    const randomId = randomLike(A.merchantId);
    const attack = await switchTo(A.merchantId);
    const random = await switchTo(randomId);
    expect([attack.status, attack.body.code]).toEqual([403, 'FORBIDDEN']);
    expect(comparable(attack, A.merchantId)).toEqual(comparable(random, randomId));
    expect(attack.headers.getSetCookie()).toEqual([]);
    expect(secretsOfA.filter((secret) => attack.text.includes(secret))).toEqual([]);
    // No session at A, no sign-in recorded there, nothing else written.
    expect(await dbFingerprint(app.db.url)).toEqual(before);
    // The cookie's session at B was not ended by the refusals: it still refreshes, at B.
    const refreshed = await request(app.url, 'POST', '/dashboard/session/refresh', { headers: { ...DASHBOARD_HEADERS, cookie } });
    expect(refreshed.status).toBe(200);
    const who = await graphql(app.url, '{ me { merchantId } }', { token: refreshed.body.data.access_token });
    expect(who.body.data.me.merchantId).toBe(B.merchantId);
  });

  // ---------------------------------------------------------------- identifiers the caller chooses
  it('identifiers a merchant chooses are its own: B reusing A’s customerid and references creates B’s records, with no 409 naming A’s', async () => {
    const enrolled = await request(app.url, 'POST', '/v1/customer/enroll', { token: B.token, body: enrollBody({ customerid: A.customerid }) });
    expect(enrolled.status).toBe(201);
    expect(enrolled.body.data.customer_uuid).not.toBe(A.customer);
    const paid = await request(app.url, 'POST', '/v1/payments/initiate', {
      token: B.token,
      body: cardPaymentBody({ reference: A.payment.external_reference }),
    });
    expect(paid.status).toBe(200);
    expect(paid.body.data).toMatchObject({ external_reference: A.payment.external_reference, status: 'successful' });
    expect(paid.body.data.reference).not.toBe(A.payment.reference);
    const collected = await graphql(
      app.url,
      'mutation($input: InitiateCollectionInput!) { initiateCollection(input: $input) { reference externalReference } }',
      {
        token: B.token,
        variables: { input: momoCollectionInput(B.customer, { reference: A.collection.external_reference }) },
      },
    );
    expect(collected.body.errors).toBeUndefined();
    expect(collected.body.data.initiateCollection.externalReference).toBe(A.collection.external_reference);
    const transferred = await graphql(app.url, 'mutation($input: InitiateTransferInput!) { initiateTransfer(input: $input) { reference externalReference } }', {
      token: B.token,
      variables: { input: momoTransferInput(B.customer, { reference: A.transfer.external_reference }) },
    });
    expect(transferred.body.errors).toBeUndefined();
    for (const text of [enrolled.text, paid.text, collected.text, transferred.text]) {
      for (const secret of [A.customer, A.payment.reference, A.collection.reference, A.transfer.reference]) expect(text).not.toContain(secret);
    }
    // Each merchant's lookup by that external reference finds its own record.
    for (const [t, mine] of [
      [A.payment, paid.body.data.reference],
      [A.collection, collected.body.data.initiateCollection.reference],
      [A.transfer, transferred.body.data.initiateTransfer.reference],
    ] as const) {
      expect((await request(app.url, 'GET', `/v1/crossborder/global-transfer/${t.external_reference}`, { token: A.token })).body.data.reference).toBe(
        t.reference,
      );
      expect((await request(app.url, 'GET', `/v1/crossborder/global-transfer/${t.external_reference}`, { token: B.token })).body.data.reference).toBe(mine);
    }
  });

  // ---------------------------------------------------------------- webhook settings
  it('webhook settings are per merchant: B reads only its own, and B setting and rotating its own changes nothing of A’s', async () => {
    const rowOfA = () => dbRows(app.db.url, 'select * from merchant where id = $1', [A.merchantId]);
    const before = await rowOfA();
    expect(before).toHaveLength(1);
    const mine = await request(app.url, 'GET', '/v1/merchant', { token: B.token });
    expect(mine.body.data).toMatchObject({ merchant_id: B.merchantId, webhook_url: null });
    expect((await graphql(app.url, '{ merchant { id webhookUrl } }', { token: B.token })).body.data.merchant).toEqual({ id: B.merchantId, webhookUrl: null });
    expect((await request(app.url, 'PUT', '/v1/webhooks/endpoint', { token: B.token, body: { url: `${receiver.url}/b` } })).status).toBe(200);
    expect((await request(app.url, 'POST', '/v1/webhooks/secret/rotate', { token: B.token })).status).toBe(200);
    expect((await graphql(app.url, 'mutation { rotateWebhookSecret { webhookSecret } }', { token: B.token })).body.errors).toBeUndefined();
    expect(await rowOfA()).toEqual(before);
    expect((await request(app.url, 'GET', '/v1/merchant', { token: A.token })).body.data.webhook_url).toBe(receiver.url);
    expect((await request(app.url, 'PUT', '/v1/webhooks/endpoint', { token: B.token, body: { url: null } })).status).toBe(200);
  });

  it('the name check setting is per merchant: B turning its own off (REST and GraphQL) changes nothing of A’s, whose transfers stay checked', async () => {
    const rowOfA = () => dbRows(app.db.url, 'select name_check, updated_at from merchant where id = $1', [A.merchantId]);
    const before = await rowOfA();
    expect(before).toEqual([expect.objectContaining({ name_check: true })]);
    expect((await request(app.url, 'PUT', '/v1/transfers/name-check', { token: B.token, body: { enabled: false } })).body.data).toEqual({ enabled: false });
    expect((await graphql(app.url, 'mutation { updateNameCheck(enabled: false) { enabled } }', { token: B.token })).body.data).toEqual({
      updateNameCheck: { enabled: false },
    });
    expect(await rowOfA()).toEqual(before);
    expect((await request(app.url, 'GET', '/v1/transfers/name-check', { token: A.token })).body.data).toEqual({ enabled: true });
    expect((await graphql(app.url, '{ nameCheck { enabled } }', { token: A.token })).body.data).toEqual({ nameCheck: { enabled: true } });
    // A's transfer to the sandbox's wallet 712345678 ("Grace Achieng Otieno") under another name is still refused.
    const refused = await request(app.url, 'POST', '/v1/crossborder/global-transfer', {
      token: A.token,
      body: transferBody(A.customer, { beneficiary_name: 'Somebody Else' }),
    });
    expect(refused.body.code).toBe('BENEFICIARY_NAME_MISMATCH');
    expect((await request(app.url, 'PUT', '/v1/transfers/name-check', { token: B.token, body: { enabled: true } })).status).toBe(200);
  });

  it('payout schedules are per merchant: B setting its own (REST and GraphQL) changes nothing of A’s, and each reads only its own', async () => {
    const [ownerA, ownerB] = [(await personOf(app, A.merchantId, 'owner')).token, (await personOf(app, B.merchantId, 'owner')).token];
    const weekly = { currency: 'NGN', interval: 'weekly', weekly_anchor: 'friday' };
    expect((await request(app.url, 'PUT', '/v1/payout-schedule', { token: ownerA, body: weekly })).status).toBe(200);
    const rowOfA = () => dbRows(app.db.url, 'select * from payout_schedule where merchant_id = $1', [A.merchantId]);
    const before = await rowOfA();
    expect(before).toHaveLength(1);
    expect((await request(app.url, 'GET', '/v1/payout-schedule?currency=NGN', { token: ownerB })).body.data).toMatchObject({
      interval: 'daily',
      is_default: true,
    });
    expect((await request(app.url, 'PUT', '/v1/payout-schedule', { token: ownerB, body: { currency: 'NGN', interval: 'manual' } })).status).toBe(200);
    const gql = await graphql(app.url, 'mutation { updatePayoutSchedule(input: { currency: "NGN", interval: MONTHLY, monthlyAnchor: 1 }) { interval } }', {
      token: ownerB,
    });
    expect(gql.body.data).toEqual({ updatePayoutSchedule: { interval: 'MONTHLY' } });
    expect(await rowOfA()).toEqual(before);
    expect((await request(app.url, 'GET', '/v1/payout-schedule?currency=NGN', { token: A.token })).body.data).toMatchObject({
      interval: 'weekly',
      weekly_anchor: 'friday',
    });
    expect((await graphql(app.url, '{ payoutSchedule(currency: "NGN") { interval } }', { token: B.token })).body.data).toEqual({
      payoutSchedule: { interval: 'MONTHLY' },
    });
  });

  // ---------------------------------------------------------------- subscriptions
  it('graphql-ws: X subscribing to V’s reference, external reference or customer receives nothing of V’s (proved by X’s own sentinel events)', async () => {
    const V = await tenant(app, 'Victim V');
    const X = await tenant(app, 'Attacker X');
    const vKyc = (await enroll(app, V.token)).customer_uuid;
    const [xKyc1, xKyc2] = [(await enroll(app, X.token)).customer_uuid, (await enroll(app, X.token)).customer_uuid];
    const TXN = 'reference externalReference status';
    const KYC = 'customerUuid kycStatus';

    // V watches its own records, to know when its events have been published.
    const vs = await GqlSocket.connect(app, V.token);
    vs.subscribe('v-txn', `subscription($r: String) { transactionStatusChanged(reference: $r) { ${TXN} } }`, { r: V.collection.external_reference });
    vs.subscribe('v-kyc', `subscription($c: String) { kycStatusChanged(customerUuid: $c) { ${KYC} } }`, { c: vKyc });

    // X asks for V's records by every name it knows, then (last on the socket) for everything of its own.
    const xs = await GqlSocket.connect(app, X.token);
    xs.subscribe('by-ref', `subscription($r: String) { transactionStatusChanged(reference: $r) { ${TXN} } }`, { r: V.collection.reference });
    xs.subscribe('by-ext', `subscription($r: String) { transactionStatusChanged(reference: $r) { ${TXN} } }`, { r: V.collection.external_reference });
    xs.subscribe('by-customer', `subscription($c: String) { kycStatusChanged(customerUuid: $c) { ${KYC} } }`, { c: vKyc });
    xs.subscribe('all-txn', `subscription { transactionStatusChanged { ${TXN} } }`);
    xs.subscribe('all-kyc', `subscription { kycStatusChanged { ${KYC} } }`);
    const dataOf = (id: string, field: string) =>
      xs
        .of(id)
        .filter((m) => m.type === 'next')
        .map((m) => m.payload.data[field]);

    try {
      // 1. X's subscriptions are live: X's own events arrive (the socket registered the earlier ones first).
      const warm = await ok(request(app.url, 'POST', '/v1/payments/initiate', { token: X.token, body: cardPaymentBody() }), 'warm-up payment');
      await xs.until(() => dataOf('all-txn', 'transactionStatusChanged').some((t) => t.reference === warm.data.reference), 'X warm-up transaction event');
      await ok(request(app.url, 'POST', `/v1/customer/${xKyc1}/kyc`, { token: X.token, body: kycBody() }), 'X kyc 1');
      await xs.until(() => dataOf('all-kyc', 'kycStatusChanged').some((k) => k.customerUuid === xKyc1 && k.kycStatus === 'APPROVED'), 'X warm-up KYC events');

      // 2. V's events happen, and reach V.
      await ok(
        request(app.url, 'POST', `/v1/sandbox/transactions/${V.collection.reference}/simulate`, { token: V.token, body: { outcome: 'successful' } }),
        'V simulate',
      );
      await vs.until(() => vs.of('v-txn').some((m) => m.type === 'next'), 'V’s transaction event');
      await ok(request(app.url, 'POST', `/v1/customer/${vKyc}/kyc`, { token: V.token, body: kycBody() }), 'V kyc');
      await vs.until(() => vs.of('v-kyc').some((m) => m.type === 'next' && m.payload.data.kycStatusChanged.kycStatus === 'APPROVED'), 'V’s KYC events');

      // 3. Sentinels: X's own events that match the same filters (X's references may equal V's strings: references are per merchant).
      const s1 = await ok(
        request(app.url, 'POST', '/v1/payments/initiate', { token: X.token, body: cardPaymentBody({ reference: V.collection.reference }) }),
        'sentinel 1',
      );
      const s2 = await ok(
        request(app.url, 'POST', '/v1/payments/initiate', { token: X.token, body: cardPaymentBody({ reference: V.collection.external_reference }) }),
        'sentinel 2',
      );
      await ok(request(app.url, 'POST', `/v1/customer/${xKyc2}/kyc`, { token: X.token, body: kycBody() }), 'X kyc 2');
      await xs.until(
        () =>
          xs.of('by-ref').length > 0 &&
          xs.of('by-ext').length > 0 &&
          dataOf('all-kyc', 'kycStatusChanged').some((k) => k.customerUuid === xKyc2 && k.kycStatus === 'APPROVED') &&
          dataOf('all-txn', 'transactionStatusChanged').some((t) => t.reference === s2.data.reference),
        'the sentinels',
      );

      // The first thing each filtered subscription received is X's sentinel: V's earlier event never came.
      expect(xs.of('by-ref')).toEqual([
        {
          id: 'by-ref',
          type: 'next',
          payload: { data: { transactionStatusChanged: { reference: s1.data.reference, externalReference: V.collection.reference, status: 'SUCCESSFUL' } } },
        },
      ]);
      expect(xs.of('by-ext')).toEqual([
        {
          id: 'by-ext',
          type: 'next',
          payload: {
            data: { transactionStatusChanged: { reference: s2.data.reference, externalReference: V.collection.external_reference, status: 'SUCCESSFUL' } },
          },
        },
      ]);
      // No X customer can have V's uuid, so this one has no sentinel of its own; the later-registered all-kyc's did arrive after V's events.
      expect(xs.of('by-customer')).toEqual([]);
      expect(dataOf('all-txn', 'transactionStatusChanged').map((t) => t.reference)).toEqual([warm.data.reference, s1.data.reference, s2.data.reference]);
      expect(dataOf('all-kyc', 'kycStatusChanged').every((k) => [xKyc1, xKyc2].includes(k.customerUuid))).toBe(true);
      const everything = JSON.stringify(xs.log);
      for (const secret of [V.merchantId, V.collection.reference, vKyc, V.customer]) {
        // V's strings appear only as X's own external references (the sentinels), never as V's records.
        if (secret === V.collection.reference) expect(everything.split(secret).length - 1).toBe(2);
        else expect(everything).not.toContain(secret);
      }
      expect(xs.closeCode).toBeNull();
    } finally {
      await vs.close();
      await xs.close();
    }
  });

  it('graphql-ws: disputeChanged delivers B’s own disputes only, never A’s (proved by B’s sentinel after A’s changes reached A)', async () => {
    const DISPUTE = 'id paymentReference status funds';
    const as = await GqlSocket.connect(app, A.token);
    const bs = await GqlSocket.connect(app, B.token);
    as.subscribe('a', `subscription { disputeChanged { ${DISPUTE} } }`);
    bs.subscribe('b', `subscription { disputeChanged { ${DISPUTE} } }`);
    const received = (socket: GqlSocket, id: string) =>
      socket
        .of(id)
        .filter((m) => m.type === 'next')
        .map((m) => m.payload.data.disputeChanged as { id: string; paymentReference: string; status: string });
    /** A new card payment of `t`'s and its chargeback, through the API. */
    const disputeOf = async (t: Tenant) => {
      const paid = await ok(request(app.url, 'POST', '/v1/payments/initiate', { token: t.token, body: cardPaymentBody() }), 'payment to dispute');
      const opened = await ok(
        request(app.url, 'POST', '/v1/sandbox/disputes', { token: t.token, body: { payment_reference: paid.data.reference, reason: 'general' } }),
        'dispute',
        201,
      );
      return opened.data as { id: string; payment_reference: string };
    };
    try {
      // 1. B's subscription is live: B's own dispute arrives.
      const warm = await disputeOf(B);
      await bs.until(() => received(bs, 'b').some((d) => d.id === warm.id), 'B’s warm-up dispute');

      // 2. A's dispute opens and is answered, and A hears both.
      const ofA = await disputeOf(A);
      await ok(request(app.url, 'POST', `/v1/disputes/${ofA.id}/evidence`, { token: A.token, body: { uncategorized_text: 'A’s evidence' } }), 'A evidence');
      await as.until(() => received(as, 'a').filter((d) => d.id === ofA.id).length >= 2, 'A’s dispute changes');

      // 3. B's sentinel: a change of B's own after A's, on the same subscription.
      await ok(request(app.url, 'POST', `/v1/disputes/${warm.id}/evidence`, { token: B.token, body: { uncategorized_text: 'B’s evidence' } }), 'B evidence');
      await bs.until(() => received(bs, 'b').filter((d) => d.id === warm.id).length >= 2, 'B’s sentinel');

      expect(received(bs, 'b').map((d) => [d.id, d.status])).toEqual([
        [warm.id, 'NEEDS_RESPONSE'],
        [warm.id, 'NEEDS_RESPONSE'],
      ]);
      const everything = JSON.stringify(bs.log);
      for (const secret of [ofA.id, ofA.payment_reference, ...secretsOfA]) expect(everything).not.toContain(secret);
      expect(bs.closeCode).toBeNull();
    } finally {
      await as.close();
      await bs.close();
    }
  });

  it('graphql-ws: eventRecorded (what `listen` forwards) delivers B’s own events only, never A’s, whatever types B names (proved by B’s sentinel after A’s event reached A)', async () => {
    const as = await GqlSocket.connect(app, A.token);
    const bs = await GqlSocket.connect(app, B.token);
    as.subscribe('a', 'subscription { eventRecorded { id type body } }');
    bs.subscribe('b-all', 'subscription { eventRecorded { id type body } }');
    bs.subscribe('b-typed', 'subscription { eventRecorded(types: ["payment.successful"]) { id type body } }');
    const received = (socket: GqlSocket, id: string) =>
      socket
        .of(id)
        .filter((m) => m.type === 'next')
        .map((m) => m.payload.data.eventRecorded as { id: string; type: string; body: string });
    const pay = async (t: Tenant) =>
      (await ok(request(app.url, 'POST', '/v1/payments/initiate', { token: t.token, body: cardPaymentBody() }), 'payment')).data.reference as string;
    const about = (socket: GqlSocket, id: string, reference: string) => received(socket, id).some((e) => JSON.parse(e.body).data.reference === reference);
    try {
      // 1. B's streams are live: B's own event arrives on both.
      const warm = await pay(B);
      await bs.until(() => about(bs, 'b-all', warm) && about(bs, 'b-typed', warm), 'B’s warm-up event');

      // 2. A's event is recorded, and reaches A.
      const ofA = await pay(A);
      await as.until(() => about(as, 'a', ofA), 'A’s event');

      // 3. B's sentinel, recorded after A's.
      const sentinel = await pay(B);
      await bs.until(() => about(bs, 'b-all', sentinel) && about(bs, 'b-typed', sentinel), 'B’s sentinel');

      for (const id of ['b-all', 'b-typed']) {
        expect(received(bs, id).map((e) => [e.type, JSON.parse(e.body).data.reference])).toEqual([
          ['payment.successful', warm],
          ['payment.successful', sentinel],
        ]);
      }
      const everything = JSON.stringify(bs.log);
      for (const secret of [ofA, ...received(as, 'a').map((e) => e.id), ...secretsOfA]) expect(everything).not.toContain(secret);
      expect(bs.closeCode).toBeNull();
    } finally {
      await as.close();
      await bs.close();
    }
  });
});
