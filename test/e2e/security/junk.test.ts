import { randomUUID } from 'node:crypto';
import { resolveAccountSchema } from '../../../src/modules/payees/payees.service';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  astFromValue,
  buildSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isNonNullType,
  print,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import type { z } from 'zod';
import { restKey } from '../../../src/transport/rest/field-names';
import { enrollCustomerSchema } from '../../../src/modules/customers/customer.service';
import { submitKycSchema } from '../../../src/modules/kyc/kyc.service';
import { operatorDecisionSchema } from '../../../src/modules/kyc/kyc-review.inputs';
import { resolveItemSchema } from '../../../src/modules/reconciliation/reconciliation.inputs';
import { createMerchantSchema } from '../../../src/modules/merchants/merchant.service';
import { signUpSchema } from '../../../src/modules/accounts/account.service';
import { resetPasswordSchema } from '../../../src/modules/accounts/password.service';
import { signInSchema } from '../../../src/modules/accounts/sign-in.service';
import { signInDashboardUser } from '../../helpers/accounts';
import { paymentSchema } from '../../../src/modules/transactions/kinds/payment/payment.service';
import { checkoutSessionSchema, paymentLinkSchema } from '../../../src/modules/checkout/checkout.schemas';
import { checkoutSettingsSchema } from '../../../src/modules/merchants/checkout-settings';
import { paymentLinkBody, sessionBody, sessionInput } from '../../helpers/checkout';
import { refundSchema } from '../../../src/modules/transactions/kinds/refund/refund.service';
import { fundingSchema } from '../../../src/modules/transactions/kinds/funding/funding.service';
import { setFeeSchema } from '../../../src/modules/ledger/fee-schedule';
import { PAYOUT_INTERVALS, WEEKDAYS } from '../../../src/modules/payouts/schedule/schedule.rules';
import { updateScheduleSchema } from '../../../src/modules/payouts/schedule/schedule.schemas';
import { canonicalTimeZone } from '../../../src/modules/payouts/schedule/zoned-time';
import { adjustmentSchema, topUpSchema } from '../../../src/modules/ledger/ledger.service';
import { collectionSchema } from '../../../src/modules/transactions/kinds/collection/collection.service';
import { transferSchema } from '../../../src/modules/transactions/kinds/transfer/transfer.service';
import { approvedCustomer, enroll, enrollBody, enrollInput, kycBody } from '../../helpers/factories';
import { graphql, request, type HttpResult } from '../../helpers/http';
import { CARDS, TEST_CVC, cardPaymentBody, cardPaymentInput } from '../../helpers/payments';
import { dbFingerprint, dbRows, GqlSocket, graphqlRefusalProblem, mapLimit, registeredRoutes, restRefusalProblem } from '../../helpers/security';
import { personOf } from '../../helpers/people';
import { createApiKeySchema } from '../../../src/modules/auth/api-keys';
import { addDestinationSchema } from '../../../src/modules/payouts/destinations/destination.service';
import { createPayoutSchema } from '../../../src/modules/payouts/payout.service';
import { evidenceSchema, sandboxDisputeSchema, simulateOutcomeSchema } from '../../../src/modules/disputes/dispute.service';
import { acceptInvitationSchema } from '../../../src/modules/team/invitation.service';
import { createTestApp, TEST_ADMIN_KEY, type TestApp } from '../../helpers/test-app';
import { openPage } from '../../helpers/three-ds';
import { momoCollectionBody, momoCollectionInput, newReference, transferBody } from '../../helpers/transactions';
import { SELECTABLE_EVENT_TYPES } from '../../../src/modules/outbox/event-types';

/**
 * Junk in every string field of every write operation, through REST and GraphQL
 * (HTTP, and a sample over the socket). The fields are enumerated from the
 * services' zod schemas and from schema.graphql's input types, so a new field is
 * swept without touching this file; a new write route or mutation fails the
 * coverage checks until it has a base request here.
 *
 * Each request is a valid base request with exactly one field replaced. A value
 * that field cannot take (by its own zod schema or GraphQL type; NUL, lone
 * surrogates and 100 KB always) must get a clean 4xx in the door's envelope and
 * write nothing (every table's fingerprint is unchanged). A value the field's
 * schema does take (an SQL fragment in free text) may be accepted: it must then
 * be stored verbatim, and never produce a 5xx.
 */

const CONCURRENCY = 8;

interface Junk {
  name: string;
  value: unknown;
  /** Refused by every field, whatever its schema says (the edge refuses NUL and lone surrogates; no field takes 100 KB). */
  always?: boolean;
}
const JUNK: Junk[] = [
  { name: 'NUL', value: 'a\u0000b', always: true },
  // JSON.stringify writes a lone surrogate as the escape \ud800: the body text carries it raw.
  { name: 'lone surrogate', value: 'x\ud800y', always: true },
  { name: '100 KB', value: 'a'.repeat(100 * 1024), always: true },
  { name: 'SQL OR', value: "' OR 1=1 --" },
  { name: 'SQL drop', value: "'; drop table merchant; --" },
  { name: 'number', value: 123 },
  { name: 'object', value: { a: 1 } },
  { name: 'array', value: ['a'] },
  { name: 'boolean', value: true },
  { name: 'null', value: null },
];

/** Every leaf of a zod object schema (nested objects walked), with the leaf's own schema. */
function zodLeaves(schema: z.ZodType, prefix: string[] = []): Array<{ path: string[]; schema: z.ZodType }> {
  const def = (schema as any)._zod.def;
  if (def.type === 'object') return Object.entries(def.shape as Record<string, z.ZodType>).flatMap(([k, s]) => zodLeaves(s, [...prefix, k]));
  if ((def.type === 'optional' || def.type === 'nullable') && (def.innerType as any)._zod.def.type === 'object') return zodLeaves(def.innerType, prefix);
  return [{ path: prefix, schema }];
}

const setAt = (obj: Record<string, any>, p: string[], value: unknown) => {
  const copy = structuredClone(obj);
  let target = copy;
  for (const key of p.slice(0, -1)) target = target[key] ??= {};
  target[p.at(-1)!] = value;
  return copy;
};

/** One REST write route: where its fields come from, and a valid request to put junk into. */
interface RestWrite {
  route: string;
  fields: Array<{ path: string[]; accepts: (v: unknown) => boolean }>;
  /** A valid request; `fresh` when it may be accepted (it needs its own customer, reference …). */
  base: (fresh: boolean) => Promise<{ path: string; body: Record<string, unknown>; headers?: Record<string, string>; token?: boolean }>;
  /** The sandbox 3-D Secure page answers in HTML. */
  html?: boolean;
}

/** A service schema's fields (the domain's names) as the REST door names them. */
const fromZod = (schema: z.ZodType) => zodLeaves(schema).map((l) => ({ path: l.path.map(restKey), accepts: (v: unknown) => l.schema.safeParse(v).success }));
/** Fields of the schemas the services keep to themselves (OAuth, webhooks, simulation, the 3-D Secure form), as their source declares them. */
const strings = (...names: string[]) => names.map((n) => ({ path: [n], accepts: (v: unknown) => typeof v === 'string' && v.length > 0 && v.length <= 512 }));
const oneOf = (name: string, values: unknown[]) => ({ path: [name], accepts: (v: unknown) => values.includes(v) });

interface Outcome {
  door: string;
  what: string;
  mustRefuse: boolean;
  status: number;
  problem: string | null;
  /** The stored/echoed value of an accepted SQL fragment, when the answer echoes it. */
  echoed?: boolean;
}

describe('junk in every string field of every write operation: a clean 4xx, never a 5xx, nothing written', () => {
  let app: TestApp;
  let schema: GraphQLSchema;
  const f: Record<string, any> = {};

  beforeAll(async () => {
    app = await createTestApp({ env: { SANDBOX_SETTLE_MS: '600000' } });
    schema = buildSchema(readFileSync(path.join(__dirname, '../../../schema.graphql'), 'utf8'));
    const m = await app.createMerchant('Junk Merchant');
    f.client = { client_id: m.merchant.clientId, client_secret: m.clientSecret };
    f.person = await signInDashboardUser(app, m);
    // The owner's session: every permission, so each operation's input is reached (a key would stop at FORBIDDEN for the team's and keys').
    f.token = (await personOf(app, m.merchant.id, 'owner')).token;
    f.approved = (await approvedCustomer(app, f.token)).customer_uuid;
    f.pending = (await enroll(app, f.token)).customer_uuid;
    f.submission = (await dbRows<{ id: string }>(app.db.url, 'select id from kyc_submission where customer_id = $1', [f.approved]))[0]!.id;
    const collection = await request(app.url, 'POST', '/v1/crossborder/global-collection', { token: f.token, body: momoCollectionBody(f.approved) });
    f.processing = collection.body.data.reference;
    const threeDs = await request(app.url, 'POST', '/v1/payments/initiate', { token: f.token, body: cardPaymentBody({ card: { number: CARDS.threeDs } }) });
    f.threeDsReference = threeDs.body.data.reference;
    f.merchantId = m.merchant.id;
    // A captured payment that refunds of 1.00 never exhaust.
    f.payment = (
      await request(app.url, 'POST', '/v1/payments/initiate', { token: f.token, body: cardPaymentBody({ amount: '900000.00' }) })
    ).body.data.reference;
    f.threeDsUrl = new URL(threeDs.body.data.next_action.url);
    f.page = await openPage(f.threeDsUrl.toString());
    // A hosted checkout session and a payment link, each page opened once for its CSRF pair.
    const session = await request(app.url, 'POST', '/v1/checkout/sessions', { token: f.token, body: sessionBody() });
    f.session = session.body.data.id;
    f.checkoutPage = await openPage(session.body.data.url, 'co_csrf');
    const link = await request(app.url, 'POST', '/v1/payment-links', { token: f.token, body: { name: 'Junk link', currency: 'NGN', min_amount: '100' } });
    f.slug = link.body.data.slug;
    f.linkPage = await openPage(link.body.data.url, 'co_csrf');
    // A reconciliation exception already resolved: whatever note gets through validation is refused as INVALID_STATE.
    f.reconciliationItem = randomUUID();
    const run = randomUUID();
    await dbRows(
      app.db.url,
      `insert into reconciliation_run (id, connector, window_from, window_to, status, started_at) values ($1, 'sandbox', now(), now(), 'completed', now())`,
      [run],
    );
    await dbRows(
      app.db.url,
      `insert into reconciliation_item (id, run_id, class, resolved_at, resolved_by, resolution_note) values ($1, $2, 'missing_here', now(), 'admin_api', 'seen')`,
      [f.reconciliationItem, run],
    );
    if (!f.page.cookie || !f.page.csrf || collection.body.data.status !== 'processing')
      throw new Error('fixture: no 3-D Secure form or no processing collection');
  });
  afterAll(() => app?.close());

  const freshPending = async () => (await enroll(app, f.token)).customer_uuid;
  /** A valid domestic payment (no customer, no KYC): mobile money in Ghana or a bank transfer in Nigeria, the country named. */
  const domesticPaymentBody = (method: 'momo' | 'bank_transfer') =>
    method === 'momo'
      ? {
          reference: newReference('jm'),
          amount: '25.00',
          currency: 'GHS',
          payment_method: 'momo',
          phone: '0241234567',
          network: 'MTN',
          country_code: 'GH',
          description: 'Junk test',
        }
      : { reference: newReference('jb'), amount: '15000.00', currency: 'NGN', payment_method: 'bank_transfer', country_code: 'NG', description: 'Junk test' };
  const domesticPaymentInput = () => ({ reference: newReference('gql-jd'), amount: '25.00', currency: 'GHS', countryCode: 'GH', description: 'Junk test' });
  /** The shared session's page, or (`fresh`, for junk that may be accepted and so pay) a new session's, with its CSRF pair. */
  const checkoutPageOf = async (fresh: boolean) => {
    if (!fresh) return { id: f.session as string, page: f.checkoutPage };
    const session = await request(app.url, 'POST', '/v1/checkout/sessions', { token: f.token, body: sessionBody() });
    return { id: session.body.data.id as string, page: await openPage(session.body.data.url, 'co_csrf') };
  };
  /** A POST /checkout/:id/pay of the page's form for `method`, every field of that form valid. */
  const payForm = async (fresh: boolean, fields: Record<string, string>) => {
    const { id, page } = await checkoutPageOf(fresh);
    return { path: `/checkout/${id}/pay`, body: { ...fields, csrf: page.csrf }, headers: { cookie: page.cookie } };
  };

  const restWrites = (): RestWrite[] => [
    {
      route: 'POST /v1/oauth/token',
      fields: strings('grant_type', 'client_id', 'client_secret', 'refresh_token', 'scope'),
      base: async () => ({ path: '/v1/oauth/token', body: { grant_type: 'client_credentials', ...f.client } }),
    },
    {
      route: 'POST /v1/oauth/revoke',
      fields: [...strings('token', 'client_id', 'client_secret'), oneOf('token_type_hint', ['refresh_token', 'access_token'])],
      // A token nobody issued: even a wrongly accepted request revokes nothing.
      base: async () => ({ path: '/v1/oauth/revoke', body: { token: `rt_${'x'.repeat(43)}`, ...f.client } }),
    },
    {
      route: 'POST /dashboard/session',
      fields: fromZod(signInSchema),
      base: async () => ({
        path: '/dashboard/session',
        body: { email: f.person.email, password: f.person.password },
        headers: { 'x-requested-with': 'fetch' },
      }),
    },
    {
      // A taken email: whatever gets through validation is answered 409, and nothing is made.
      route: 'POST /dashboard/sign-up',
      fields: fromZod(signUpSchema),
      base: async () => ({
        path: '/dashboard/sign-up',
        body: { email: f.person.email, password: 'a long enough password', business_name: 'Junk Co', country: 'KE' },
        headers: { 'x-requested-with': 'fetch' },
      }),
    },
    {
      // No session cookie: refused before the body is read.
      route: 'POST /dashboard/session/switch',
      fields: strings('merchant_id'),
      base: async () => ({ path: '/dashboard/session/switch', body: { merchant_id: f.person.merchantId }, headers: { 'x-requested-with': 'fetch' } }),
    },
    {
      route: 'POST /dashboard/email/verify',
      fields: strings('token'),
      base: async () => ({ path: '/dashboard/email/verify', body: { token: 've_none' }, headers: { 'x-requested-with': 'fetch' } }),
    },
    {
      route: 'POST /dashboard/password/forgot',
      fields: strings('email'),
      base: async () => ({ path: '/dashboard/password/forgot', body: { email: 'nobody@junk.example' }, headers: { 'x-requested-with': 'fetch' } }),
    },
    {
      route: 'POST /dashboard/password/reset',
      fields: fromZod(resetPasswordSchema),
      base: async () => ({
        path: '/dashboard/password/reset',
        body: { token: 'pr_none', password: 'a long enough password' },
        headers: { 'x-requested-with': 'fetch' },
      }),
    },
    {
      route: 'POST /v1/api-keys',
      fields: fromZod(createApiKeySchema),
      base: async () => ({ path: '/v1/api-keys', body: { label: 'Junk key', role: 'viewer' }, token: true }),
    },
    {
      // A link nobody issued: whatever gets through validation is refused, and nobody is made.
      route: 'POST /dashboard/invitations/accept',
      fields: fromZod(acceptInvitationSchema),
      base: async () => ({
        path: '/dashboard/invitations/accept',
        body: { token: 'inv_none', name: 'Junk Person', password: 'a long enough password' },
        headers: { 'x-requested-with': 'fetch' },
      }),
    },
    {
      route: 'POST /v1/admin/merchants',
      fields: fromZod(createMerchantSchema),
      base: async () => ({ path: '/v1/admin/merchants', body: { name: 'Junk Co' }, headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` } }),
    },
    ...['approve', 'reject'].map((decision) => ({
      route: `POST /v1/admin/kyc/:submissionId/${decision}`,
      fields: fromZod(operatorDecisionSchema),
      // An already decided submission: whatever gets through validation is refused as INVALID_STATE, never applied.
      base: async () => ({
        path: `/v1/admin/kyc/${f.submission}/${decision}`,
        body: { reason: 'Document unreadable', operator: 'alice' },
        headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` },
      }),
    })),
    {
      route: 'POST /v1/admin/reconciliation/items/:itemId/resolve',
      fields: fromZod(resolveItemSchema),
      base: async () => ({
        path: `/v1/admin/reconciliation/items/${f.reconciliationItem}/resolve`,
        body: { note: 'Checked with the provider' },
        headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` },
      }),
    },
    {
      route: 'POST /v1/customer/enroll',
      fields: fromZod(enrollCustomerSchema),
      base: async () => ({ path: '/v1/customer/enroll', body: enrollBody(), token: true }),
    },
    {
      route: 'POST /v1/customer/:uuid/kyc',
      fields: fromZod(submitKycSchema),
      base: async (fresh) => ({ path: `/v1/customer/${fresh ? await freshPending() : f.pending}/kyc`, body: kycBody(), token: true }),
    },
    {
      route: 'POST /v1/crossborder/global-collection',
      fields: fromZod(collectionSchema),
      base: async () => ({ path: '/v1/crossborder/global-collection', body: momoCollectionBody(f.approved), token: true }),
    },
    {
      route: 'POST /v1/crossborder/global-transfer',
      fields: fromZod(transferSchema),
      base: async () => ({ path: '/v1/crossborder/global-transfer', body: transferBody(f.approved), token: true }),
    },
    {
      route: 'POST /v1/payments/initiate',
      fields: fromZod(paymentSchema),
      base: async () => ({ path: '/v1/payments/initiate', body: cardPaymentBody(), token: true }),
    },
    {
      // A domestic mobile money payment (issue 37): junk reaches the phone's numbering plan, the network's lookup and
      // the country's check, which a card base refuses before (a field of another method).
      route: 'POST /v1/payments/initiate',
      fields: fromZod(paymentSchema).filter((fl) => fl.path[0] !== 'card'),
      base: async () => ({ path: '/v1/payments/initiate', body: domesticPaymentBody('momo'), token: true }),
    },
    {
      // A domestic bank transfer: junk in the country and the fields every method shares, on a bank transfer's path.
      route: 'POST /v1/payments/initiate',
      fields: fromZod(paymentSchema).filter((fl) => !['card', 'phone', 'network'].includes(fl.path[0]!)),
      base: async () => ({ path: '/v1/payments/initiate', body: domesticPaymentBody('bank_transfer'), token: true }),
    },
    {
      route: 'POST /v1/checkout/sessions',
      fields: fromZod(checkoutSessionSchema),
      base: async () => ({ path: '/v1/checkout/sessions', body: sessionBody(), token: true }),
    },
    {
      route: 'POST /v1/payment-links',
      fields: fromZod(paymentLinkSchema),
      base: async () => ({ path: '/v1/payment-links', body: paymentLinkBody({ description: 'Junk test' }), token: true }),
    },
    {
      // The merchant has no payout destination: a valid request is 409 INVALID_STATE, and nothing is held or sent.
      route: 'POST /v1/payouts',
      fields: fromZod(createPayoutSchema),
      base: async () => ({ path: '/v1/payouts', body: { currency: 'NGN', amount: '500' }, token: true }),
    },
    {
      // No such dispute: a valid body is 404, junk is 400 before the lookup; nothing is written either way.
      route: 'POST /v1/disputes/:id/evidence',
      fields: fromZod(evidenceSchema),
      base: async () => ({ path: '/v1/disputes/dp_AAAAAAAAAAAAAAAAAAAAAAAA/evidence', body: { product_description: 'A lamp' }, token: true }),
    },
    {
      // No such payment: a valid request is 404, and nothing is opened.
      route: 'POST /v1/sandbox/disputes',
      fields: fromZod(sandboxDisputeSchema),
      base: async () => ({ path: '/v1/sandbox/disputes', body: { payment_reference: 'PAY-none', reason: 'general' }, token: true }),
    },
    {
      route: 'POST /v1/sandbox/disputes/:id/simulate',
      fields: fromZod(simulateOutcomeSchema),
      base: async () => ({ path: '/v1/sandbox/disputes/dp_AAAAAAAAAAAAAAAAAAAAAAAA/simulate', body: { outcome: 'won' }, token: true }),
    },
    {
      route: 'PUT /v1/webhooks/endpoint',
      fields: [
        { path: ['url'], accepts: (v) => v === null || typeof v === 'string' },
        { path: ['event_types', '0'], accepts: (v) => (SELECTABLE_EVENT_TYPES as readonly unknown[]).includes(v) },
      ],
      base: async () => ({ path: '/v1/webhooks/endpoint', body: { url: null, event_types: ['collection.failed'] }, token: true }),
    },
    {
      route: 'PUT /v1/checkout/settings',
      fields: [
        // The image itself, in base64: no junk is a PNG or JPEG.
        { path: ['logo'], accepts: (v) => v === null },
        { path: ['embed_origins', '0'], accepts: (v) => typeof v === 'string' && URL.canParse(v) && new URL(v).origin === v && v.startsWith('https://') },
      ],
      base: async () => ({ path: '/v1/checkout/settings', body: { logo: null, embed_origins: ['https://shop.example'] }, token: true }),
    },
    {
      // Resolution writes nothing; the sandbox's table names the holder of 0123456781 (404 for …0000, 503 for …9999).
      route: 'POST /v1/accounts/resolve',
      fields: fromZod(resolveAccountSchema),
      base: async () => ({ path: '/v1/accounts/resolve', body: { country: 'NG', bank_code: '058', account_number: '0123456781' }, token: true }),
    },
    {
      // The merchant is not the sandbox's holder of 0123456781: a valid request is refused 422, and nothing is stored.
      route: 'POST /v1/payout-destinations',
      fields: fromZod(addDestinationSchema),
      base: async () => ({
        path: '/v1/payout-destinations',
        body: { country: 'NG', bank_code: '058', account_number: '0123456781', currency: 'NGN' },
        token: true,
      }),
    },
    {
      // The base is weekly: another interval, or a monthly anchor, is refused by the service whatever its value.
      route: 'PUT /v1/payout-schedule',
      fields: [
        { path: ['currency'], accepts: (v) => typeof v === 'string' && ['NGN', 'KES', 'GHS', 'USD'].includes(v.trim().toUpperCase()) },
        { path: ['interval'], accepts: (v) => v === 'weekly' && (PAYOUT_INTERVALS as readonly unknown[]).includes(v) },
        { path: ['weekly_anchor'], accepts: (v) => v === null || (WEEKDAYS as readonly unknown[]).includes(v) },
        { path: ['monthly_anchor'], accepts: (v) => v === null },
        { path: ['delay_days'], accepts: (v) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 30 },
        { path: ['cutoff_time'], accepts: (v) => typeof v === 'string' && /^([01]\d|2[0-3]):[0-5]\d$/.test(v) },
        { path: ['time_zone'], accepts: (v) => typeof v === 'string' && canonicalTimeZone(v) !== null },
      ],
      base: async () => ({
        path: '/v1/payout-schedule',
        body: { currency: 'NGN', interval: 'weekly', weekly_anchor: 'friday', delay_days: 1, cutoff_time: '16:00', time_zone: 'Africa/Lagos' },
        token: true,
      }),
    },
    {
      route: 'PUT /v1/transfers/name-check',
      fields: [{ path: ['enabled'], accepts: (v) => typeof v === 'boolean' }],
      base: async () => ({ path: '/v1/transfers/name-check', body: { enabled: true }, token: true }),
    },
    {
      route: 'POST /v1/sandbox/transactions/:reference/simulate',
      fields: [oneOf('outcome', ['successful', 'failed'])],
      base: async () => ({ path: `/v1/sandbox/transactions/${f.processing}/simulate`, body: { outcome: 'failed' }, token: true }),
    },
    {
      route: 'POST /v1/refunds',
      fields: fromZod(refundSchema),
      base: async () => ({
        path: '/v1/refunds',
        body: { payment_reference: f.payment, amount: '1.00', reason: 'Junk test', reference: newReference('rf') },
        token: true,
      }),
    },
    {
      route: 'POST /v1/balance/funding',
      fields: fromZod(fundingSchema),
      base: async () => ({ path: '/v1/balance/funding', body: { currency: 'NGN', amount: '20000.00', reference: newReference('fnd') }, token: true }),
    },
    {
      route: 'POST /v1/sandbox/balance/top-up',
      fields: fromZod(topUpSchema),
      base: async () => ({ path: '/v1/sandbox/balance/top-up', body: { currency: 'NGN', amount: '1.00' }, token: true }),
    },
    {
      route: 'POST /v1/admin/merchants/:merchantId/adjustments',
      fields: fromZod(adjustmentSchema),
      base: async () => ({
        path: `/v1/admin/merchants/${f.merchantId}/adjustments`,
        body: { currency: 'NGN', amount: '1.00', reason: 'Junk test', reference: newReference('adj') },
        headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` },
      }),
    },
    {
      route: 'PUT /v1/admin/merchants/:merchantId/fees',
      fields: fromZod(setFeeSchema),
      base: async () => ({
        path: `/v1/admin/merchants/${f.merchantId}/fees`,
        body: { kind: 'payment', currency: 'NGN', percent: '1.5' },
        headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` },
      }),
    },
    {
      route: 'POST /v1/sandbox/3ds/:handle',
      fields: [oneOf('decision', ['complete', 'fail']), ...strings('csrf')],
      base: async () => ({ path: f.threeDsUrl.pathname, body: { decision: 'fail', csrf: f.page.csrf }, headers: { cookie: f.page.cookie } }),
      html: true,
    },
    {
      // The hosted checkout's page: junk in the method (or any field of the method's form) is refused before an attempt
      // starts; the base asks for a bank transfer, whose form has no other field.
      route: 'POST /checkout/:id/pay',
      fields: strings('method', 'csrf'),
      base: async () => ({
        path: `/checkout/${f.session}/pay`,
        body: { method: 'bank_transfer', csrf: f.checkoutPage.csrf },
        headers: { cookie: f.checkoutPage.cookie },
      }),
      html: true,
    },
    {
      // The mobile money form: junk in the phone or the network is refused as a page before an attempt starts.
      route: 'POST /checkout/:id/pay',
      fields: strings('phone', 'network'),
      base: (fresh) => payForm(fresh, { method: 'momo', phone: '0803 123 4567', network: 'MTN' }),
      html: true,
    },
    {
      // The card form, with every field it may carry (the PIN and the billing address too): none is ever echoed or kept.
      route: 'POST /checkout/:id/pay',
      fields: strings(
        'card_number',
        'expiry_month',
        'expiry_year',
        'cvc',
        'pin',
        'postal_code',
        'address_line1',
        'address_city',
        'address_state',
        'address_country',
      ),
      base: (fresh) =>
        payForm(fresh, {
          method: 'card',
          card_number: CARDS.success,
          expiry_month: '12',
          expiry_year: '2030',
          cvc: TEST_CVC,
          pin: '3310',
          postal_code: '100001',
          address_line1: '12 Marina Road',
          address_city: 'Lagos',
          address_state: 'Lagos',
          address_country: 'NG',
        }),
      html: true,
    },
    {
      route: 'POST /checkout/:id/cancel',
      fields: strings('csrf'),
      base: async () => ({ path: `/checkout/${f.session}/cancel`, body: { csrf: f.checkoutPage.csrf }, headers: { cookie: f.checkoutPage.cookie } }),
      html: true,
    },
    {
      // A payment link's landing page: a refused field opens no session.
      route: 'POST /pay/:slug',
      fields: strings('amount', 'email', 'phone', 'name', 'csrf'),
      base: async () => ({
        path: `/pay/${f.slug}`,
        body: { amount: '1500', email: 'ada@example.com', csrf: f.linkPage.csrf },
        headers: { cookie: f.linkPage.cookie },
      }),
      html: true,
    },
    {
      // A forged handle (the sandbox charges no PIN card): refused as a page; the code's own checks, on a real payment,
      // are in test/e2e/rails/flutterwave-pin.test.ts.
      route: 'POST /checkout/otp/:handle',
      fields: strings('otp', 'csrf'),
      base: async () => ({
        path: `/checkout/otp/${randomUUID()}.${'A'.repeat(32)}`,
        body: { otp: '12345', csrf: f.page.csrf },
        headers: { cookie: f.page.cookie },
      }),
      html: true,
    },
  ];

  /** Write routes with nothing to sweep in a body, and why. */
  const NO_BODY: Record<string, string> = {
    'POST /v1/api-keys/:id/rotate': 'takes only the path parameter (swept in test/e2e/security/bola.test.ts)',
    'POST /v1/api-keys/:id/revoke': 'takes only the path parameter (swept in test/e2e/security/bola.test.ts)',
    'POST /v1/payout-destinations/:id/approve': 'takes only the path parameter (swept in test/e2e/security/bola.test.ts)',
    'POST /v1/payout-destinations/:id/cancel': 'takes only the path parameter (swept in test/e2e/security/bola.test.ts)',
    'POST /v1/disputes/:id/submit': 'takes only the path parameter (swept in test/e2e/security/bola.test.ts)',
    'POST /v1/disputes/:id/accept': 'takes only the path parameter (swept in test/e2e/security/bola.test.ts)',
    'POST /v1/disputes/:id/files':
      'takes a multipart file, not JSON fields (bad files: test/e2e/disputes/evidence-files.test.ts; path: test/e2e/security/bola.test.ts)',
    'POST /v1/webhooks/secret/rotate': 'takes no input',
    'POST /v1/webhooks/test-event': 'takes no input',
    'POST /dashboard/session/refresh': 'takes no body: its input is the session cookie (junk cookies: test/e2e/rest/dashboard-session.test.ts)',
    'POST /dashboard/session/sign-out': 'takes no body: the session cookie and the bearer token (test/e2e/rest/dashboard-session.test.ts)',
    'POST /dashboard/email/resend': 'takes no body: the bearer token (test/e2e/accounts/sign-in.test.ts)',
    'POST /v1/webhooks/events/:id/resend': 'takes only the path parameter (swept below)',
    'POST /v1/payment-links/:id/deactivate': 'takes only the path parameter (swept below)',
    'POST /v1/admin/merchants/:merchantId/disable': 'takes only the path parameter (swept below)',
    'POST /v1/admin/merchants/:merchantId/enable': 'takes only the path parameter (swept below)',
    'POST /v1/providers/:connector/callback/:token': 'takes any body, raw, and keeps it (junk swept in test/e2e/rails/callbacks.test.ts)',
    'PUT /v1/providers/:connector/callback/:token': 'the same, as MTN sends it',
    'POST /v1/providers/:connector/webhook': 'takes any body, raw, once its sender is authenticated (test/e2e/rails/flutterwave.test.ts)',
  };

  it('coverage: every registered REST write route is swept', () => {
    const writes = registeredRoutes(app)
      .filter((r) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method))
      .map((r) => `${r.method} ${r.path}`);
    const swept = new Set(restWrites().map((w) => w.route));
    expect(writes.filter((r) => !swept.has(r) && !(r in NO_BODY) && r !== 'POST /graphql')).toEqual([]);
    expect(restWrites().every((w) => w.fields.length > 0)).toBe(true);
  });

  it('the checkout page’s pay forms swept are valid as they are: each starts an attempt (so a refusal is the junk’s)', async () => {
    for (const w of restWrites().filter((r) => r.route === 'POST /checkout/:id/pay' && r.fields.length > 2)) {
      const base = await w.base(true);
      const res = await fetch(`${app.url}${base.path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: app.url, 'sec-fetch-site': 'same-origin', ...base.headers },
        body: new URLSearchParams(base.body as Record<string, string>).toString(),
      });
      expect({ fields: w.fields.map((fl) => fl.path[0]), status: res.status }).toEqual({ fields: w.fields.map((fl) => fl.path[0]), status: 303 });
      const id = base.path.split('/')[2]!;
      const attempts = await dbRows<{ n: string }>(app.db.url, 'select count(*) as n from "transaction" where checkout_session_id = $1', [id]);
      expect(Number(attempts[0]!.n)).toBe(1);
    }
  });

  it('the payment bases swept are valid as they are, one per method, through both doors: each starts a payment (so a refusal is the junk’s)', async () => {
    const rest = [];
    for (const w of restWrites().filter((r) => r.route === 'POST /v1/payments/initiate')) {
      const base = await w.base(true);
      const res = await request(app.url, 'POST', base.path, { token: f.token, body: base.body });
      rest.push([res.status, res.body?.data?.payment_method, res.body?.data?.country_code ?? null]);
    }
    expect(rest).toEqual([
      [200, 'card', null],
      [200, 'momo', 'GH'],
      [200, 'bank_transfer', 'NG'],
    ]);
    const gql = [];
    for (const variant of [undefined, ...GQL_VARIANTS.initiatePayment!.map((v) => v.name)]) {
      const res = await graphql(app.url, 'mutation ($input: InitiatePaymentInput!) { initiatePayment(input: $input) { paymentMethod countryCode } }', {
        token: f.token,
        variables: await gqlBase('initiatePayment', true, variant),
      });
      gql.push(res.body.errors ?? res.body.data.initiatePayment);
    }
    expect(gql).toEqual([
      { paymentMethod: 'CARD', countryCode: null },
      { paymentMethod: 'MOMO', countryCode: 'GH' },
      { paymentMethod: 'BANK_TRANSFER', countryCode: 'NG' },
    ]);
  });

  async function sendRest(w: RestWrite, junk: Junk, field: string[] | null, fresh: boolean) {
    const base = await w.base(fresh);
    const body = field ? setAt(base.body, field, junk.value) : junk.value;
    return request(app.url, w.route.split(' ')[0]!, base.path, {
      raw: JSON.stringify(body),
      token: base.token ? f.token : undefined,
      headers: { 'content-type': 'application/json', ...base.headers },
    });
  }

  const restProblem = (w: RestWrite, res: HttpResult) =>
    w.html && res.status >= 400 && res.status < 500 && /text\/html/.test(res.headers.get('content-type') ?? '') ? null : restRefusalProblem(res);

  /** Every (route, field, junk) the field's schema refuses, plus each route's whole body replaced by a non-object. */
  const restRefusals = () =>
    restWrites().flatMap((w) => [
      ...w.fields.flatMap((fl) => JUNK.filter((j) => j.always || !fl.accepts(j.value)).map((j) => ({ w, j, field: fl.path as string[] | null }))),
      ...JUNK.filter((j) => typeof j.value !== 'object' || j.value === null || Array.isArray(j.value)).map((j) => ({ w, j, field: null })),
    ]);
  const restAcceptable = () =>
    restWrites().flatMap((w) => w.fields.flatMap((fl) => JUNK.filter((j) => !j.always && fl.accepts(j.value)).map((j) => ({ w, j, field: fl.path }))));

  // ---------------------------------------------------------------- GraphQL
  /** Where a mutation's input fields live in the service's zod schema (for what the service itself accepts). */
  const GQL_ZOD: Record<string, { arg: string; schema: z.ZodType }> = {
    enrollCustomer: { arg: 'input', schema: enrollCustomerSchema },
    submitKyc: { arg: 'input', schema: submitKycSchema },
    initiateCollection: { arg: 'input', schema: collectionSchema },
    initiateTransfer: { arg: 'input', schema: transferSchema },
    initiatePayment: { arg: 'input', schema: paymentSchema },
    refundPayment: { arg: 'input', schema: refundSchema },
    fundBalance: { arg: 'input', schema: fundingSchema },
    addPayoutDestination: { arg: 'input', schema: addDestinationSchema },
    createCheckoutSession: { arg: 'input', schema: checkoutSessionSchema },
    createPaymentLink: { arg: 'input', schema: paymentLinkSchema },
    updatePayoutSchedule: { arg: 'input', schema: updateScheduleSchema },
    updateCheckoutSettings: { arg: 'input', schema: checkoutSettingsSchema },
  };

  /**
   * Mutations swept from more than one base, beside their default one: each variant and the fields it carries.
   * initiatePayment's default base is a card; its domestic methods (issue 37) have bases of their own.
   */
  const GQL_VARIANTS: Record<string, Array<{ name: string; sweeps: (path: string[]) => boolean }>> = {
    initiatePayment: [
      { name: 'MOMO', sweeps: (p) => p[1] !== 'card' },
      { name: 'BANK_TRANSFER', sweeps: (p) => !['card', 'phone', 'network'].includes(p[1]!) },
    ],
  };

  /** A valid set of arguments for each mutation that has a string to sweep. */
  const gqlBase = async (mutation: string, fresh: boolean, variant?: string): Promise<Record<string, unknown>> => {
    switch (mutation) {
      case 'enrollCustomer':
        return { input: enrollInput() };
      case 'submitKyc':
        return {
          customerUuid: fresh ? await freshPending() : f.pending,
          input: {
            idType: 'NATIONAL_ID',
            idNumber: 'A12345678',
            idCountry: 'KE',
            dateOfBirth: '1990-04-12',
            address: { line1: '12 Moi Avenue', city: 'Nairobi', countryCode: 'KE', postalCode: '00100' },
          },
        };
      case 'initiateCollection':
        return { input: momoCollectionInput(f.approved) };
      case 'initiateTransfer': {
        const b = transferBody(f.approved);
        return {
          input: {
            customerUuid: b.customer_uuid,
            amount: '100',
            sourceCurrency: 'USD',
            destinationCurrency: 'KES',
            countryCode: 'KE',
            channelId: b.channel_id,
            networkId: b.network_id,
            accountNumber: b.account_number,
            accountName: b.account_name,
            dialCode: b.dial_code,
            accountType: 'MOMO',
            reason: b.reason,
            reference: newReference('gql-trf'),
          },
        };
      }
      case 'initiatePayment':
        // Each method's own base (GQL_VARIANTS): junk in the phone, network and country reaches the domestic checks.
        if (variant === 'MOMO') return { input: { ...domesticPaymentInput(), paymentMethod: 'MOMO', phone: '0241234567', network: 'MTN' } };
        if (variant === 'BANK_TRANSFER')
          return { input: { ...domesticPaymentInput(), paymentMethod: 'BANK_TRANSFER', amount: '15000.00', currency: 'NGN', countryCode: 'NG' } };
        return { input: cardPaymentInput() };
      case 'createCheckoutSession': {
        // Without metadata: a JSONObject cannot be written inline (the literal sweep); metadata's junk is swept through REST.
        const { metadata: _metadata, ...input } = sessionInput();
        return { input };
      }
      case 'createPaymentLink':
        return { input: { name: 'Junk link', currency: 'NGN', description: 'Junk test' } };
      case 'deactivatePaymentLink':
        return { id: 'plink_none' };
      case 'setWebhookEndpoint':
        return { url: null };
      case 'updatePayoutSchedule':
        return { input: { currency: 'NGN', interval: 'WEEKLY', weeklyAnchor: 'FRIDAY', delayDays: 1, cutoffTime: '16:00', timeZone: 'Africa/Lagos' } };
      case 'updateCheckoutSettings':
        return { input: { logo: null, embedOrigins: ['https://shop.example'] } };
      case 'resendWebhookEvent':
        return { id: 'evt_none' };
      case 'simulateTransaction':
        return { reference: f.processing, outcome: 'FAILED' };
      case 'refundPayment':
        return { input: { paymentReference: f.payment, amount: '1.00', reason: 'Junk test', reference: newReference('gql-rf') } };
      case 'topUpBalance':
        return { currency: 'NGN', amount: '1.00' };
      case 'fundBalance':
        return { input: { currency: 'NGN', amount: '20000.00', reference: newReference('gql-fnd') } };
      // No payout destination: a valid payout is INVALID_STATE, and nothing is held.
      case 'createPayout':
        return { input: { currency: 'NGN', amount: '500' } };
      // No such dispute or payment: a valid request is NOT_FOUND, and nothing is written.
      case 'updateDisputeEvidence':
        return { id: 'dp_AAAAAAAAAAAAAAAAAAAAAAAA', input: { productDescription: 'A lamp' } };
      case 'uploadDisputeFile':
        return { disputeId: 'dp_AAAAAAAAAAAAAAAAAAAAAAAA', filename: 'receipt.pdf', contentBase64: Buffer.from('%PDF-1.4\n').toString('base64') };
      case 'submitDispute':
      case 'acceptDispute':
        return { id: 'dp_AAAAAAAAAAAAAAAAAAAAAAAA' };
      case 'simulateDispute':
        return { input: { paymentReference: 'PAY-none', reason: 'GENERAL' } };
      case 'simulateDisputeOutcome':
        return { id: 'dp_AAAAAAAAAAAAAAAAAAAAAAAA', outcome: 'WON' };
      // The fixture's token is an API key's: a person's operations are refused (FORBIDDEN) whatever gets through.
      case 'endSession':
        return { id: '00000000-0000-0000-0000-000000000000' };
      case 'changePassword':
        return { currentPassword: 'a long enough password', newPassword: 'another long password' };
      case 'createApiKey':
        return { label: 'Junk key', role: 'VIEWER' };
      case 'rotateApiKey':
      case 'revokeApiKey':
      case 'resendInvitation':
      case 'revokeInvitation':
      case 'removeMember':
      case 'transferOwnership':
        return { id: '00000000-0000-4000-8000-000000000000' };
      case 'addPayoutDestination':
        return { input: { country: 'NG', bankCode: '058', accountNumber: '0123456781', currency: 'NGN' } };
      case 'approvePayoutDestination':
      case 'cancelPayoutDestination':
        return { id: 'pdest_none' };
      case 'changeMemberRole':
        return { id: '00000000-0000-4000-8000-000000000000', role: 'VIEWER' };
      case 'inviteMember':
        return { email: 'junk@invited.example', role: 'VIEWER' };
      // No enrolment begun, no 2FA on: whatever gets through validation is refused.
      case 'confirmTwoFactor':
        return { code: '123456' };
      case 'disableTwoFactor':
        return { password: 'a long enough password', code: '123456' };
      default:
        throw new Error(`no base arguments for the mutation ${mutation}: add them here`);
    }
  };

  interface GqlLeaf {
    mutation: string;
    /** Which of the mutation's bases (GQL_VARIANTS) the junk goes into; none: its only one. */
    variant?: string;
    path: string[];
    type: string;
    nonNull: boolean;
    /** What the service's zod schema says of a value, when the field maps onto one. */
    zod?: z.ZodType;
  }

  /** Every String, ID or Decimal leaf of every mutation's arguments, from schema.graphql. */
  const gqlLeaves = (): GqlLeaf[] => {
    const leaves: GqlLeaf[] = [];
    const mutations = schema.getMutationType()!.getFields();
    for (const m of Object.values(mutations)) {
      const zodMap = GQL_ZOD[m.name];
      const zodByPath = new Map(zodMap ? zodLeaves(zodMap.schema).map((l) => [l.path.join('.'), l.schema]) : []);
      const walk = (p: string[], type: GraphQLInputType, depth: number) => {
        const named = getNamedType(type);
        if (isInputObjectType(named)) {
          if (depth < 5) for (const field of Object.values(named.getFields())) walk([...p, field.name], field.type, depth + 1);
          return;
        }
        if (isEnumType(named) || !['String', 'ID', 'Decimal'].includes(named.name)) return;
        const zod = zodMap && p[0] === zodMap.arg ? zodByPath.get(p.slice(1).join('.')) : undefined;
        leaves.push({ mutation: m.name, path: p, type: named.name, nonNull: isNonNullType(type), zod });
      };
      for (const arg of m.args) walk([arg.name], arg.type, 0);
    }
    // A mutation with a base per variant sweeps, in each other variant, the fields that variant carries.
    return leaves.flatMap((leaf) => [
      leaf,
      ...(GQL_VARIANTS[leaf.mutation] ?? []).filter((v) => v.sweeps(leaf.path)).map((v) => ({ ...leaf, variant: v.name })),
    ]);
  };

  /** Whether GraphQL's coercion and then the service's schema take the value (NUL, surrogates and 100 KB never). */
  const gqlAccepts = (leaf: GqlLeaf, j: Junk): boolean => {
    if (j.always) return false;
    const v = j.value;
    if (v === null) return !leaf.nonNull && (!leaf.zod || leaf.zod.safeParse(undefined).success);
    if (typeof v === 'number') return leaf.type === 'Decimal' && (!leaf.zod || leaf.zod.safeParse(String(v)).success);
    if (typeof v !== 'string') return false;
    if (leaf.type === 'Decimal') return false;
    return !leaf.zod || leaf.zod.safeParse(v).success;
  };

  const selectionOf = (field: GraphQLField<unknown, unknown>) => {
    const named = getNamedType(field.type);
    if (isLeafType(named)) return '';
    const first = Object.values((named as any).getFields() as Record<string, GraphQLField<unknown, unknown>>).find((x) => isLeafType(getNamedType(x.type)));
    return `{ ${first!.name} }`;
  };

  /** The mutation with variables, or with every argument written inline and the junk as `literal` (GraphQL source text). */
  function gqlDocument(mutation: string, args: Record<string, unknown>, inline?: { path: string[]; literal: string }) {
    const field = schema.getMutationType()!.getFields()[mutation]!;
    if (!inline) {
      const decl = field.args.map((a) => `$${a.name}: ${String(a.type)}`).join(', ');
      return `mutation(${decl}) { ${mutation}(${field.args.map((a) => `${a.name}: $${a.name}`).join(', ')}) ${selectionOf(field)} }`;
    }
    const PLACEHOLDER = 'JUNK_PLACEHOLDER_7f3a';
    const withPlaceholder = setAt(args, inline.path, PLACEHOLDER);
    const written = field.args
      .filter((a) => withPlaceholder[a.name] !== undefined)
      .map((a) => `${a.name}: ${print(astFromValue(withPlaceholder[a.name], a.type)!)}`)
      .join(', ');
    return `mutation { ${mutation}(${written}) ${selectionOf(field)} }`.replace(`"${PLACEHOLDER}"`, inline.literal);
  }

  /** Inline variants: junk written in the document's own string literals, where no JSON parser sees it. */
  const INLINE: Array<{ name: string; literal: string; value: string; always?: boolean }> = [
    { name: 'inline \\u0000 escape', literal: '"a\\u0000b"', value: 'a\u0000b', always: true },
    { name: 'inline \\ud800 escape', literal: '"x\\ud800y"', value: 'x\ud800y', always: true },
    { name: 'inline SQL', literal: `"' OR 1=1 --"`, value: "' OR 1=1 --" },
  ];

  const gqlRefusals = () =>
    gqlLeaves().flatMap((leaf) => [
      ...JUNK.filter((j) => !gqlAccepts(leaf, j)).map((j) => ({ leaf, name: j.name, vars: j.value as unknown, inline: undefined as string | undefined })),
      ...INLINE.filter((i) => i.always || !gqlAccepts(leaf, { name: i.name, value: i.value })).map((i) => ({
        leaf,
        name: i.name,
        vars: undefined,
        inline: i.literal,
      })),
    ]);
  const gqlAcceptable = () =>
    gqlLeaves().flatMap((leaf) => [
      ...JUNK.filter((j) => gqlAccepts(leaf, j)).map((j) => ({ leaf, name: j.name, vars: j.value as unknown, inline: undefined as string | undefined })),
      ...INLINE.filter((i) => !i.always && gqlAccepts(leaf, { name: i.name, value: i.value })).map((i) => ({
        leaf,
        name: i.name,
        vars: undefined,
        inline: i.literal,
      })),
    ]);

  async function sendGql(c: { leaf: GqlLeaf; vars: unknown; inline?: string }, fresh: boolean) {
    const args = await gqlBase(c.leaf.mutation, fresh, c.leaf.variant);
    if (c.inline) return graphql(app.url, gqlDocument(c.leaf.mutation, args, { path: c.leaf.path, literal: c.inline }), { token: f.token });
    return graphql(app.url, gqlDocument(c.leaf.mutation, args), { token: f.token, variables: setAt(args, c.leaf.path, c.vars) });
  }

  it('coverage: every mutation with a string argument has a base request, and the sweeps are the size they should be', async () => {
    const withStrings = [...new Set(gqlLeaves().map((l) => l.mutation))];
    for (const m of withStrings) await expect(gqlBase(m, false)).resolves.toBeDefined();
    expect(gqlLeaves().length).toBeGreaterThanOrEqual(40);
    expect(gqlLeaves().filter((l) => l.zod).length).toBeGreaterThanOrEqual(35);
    expect(restWrites().reduce((n, w) => n + w.fields.length, 0)).toBeGreaterThanOrEqual(60);
  });

  it('refused junk: REST, GraphQL over HTTP and over the socket answer a clean 4xx (never a 5xx), and not one row changes', async () => {
    const before = await dbFingerprint(app.db.url);
    const outcomes: Outcome[] = [];

    // REST bodies.
    const rest = restRefusals();
    outcomes.push(
      ...(await mapLimit(rest, CONCURRENCY, async ({ w, j, field }) => {
        const res = await sendRest(w, j, field, false);
        return {
          door: 'REST',
          what: `${w.route} ${field ? field.join('.') : '(whole body)'} ← ${j.name}`,
          mustRefuse: true,
          status: res.status,
          problem: restProblem(w, res),
        };
      })),
    );

    // REST path parameters of write routes, and the rates query (a GET that writes a quote).
    // Two carry a card number: a path value the router refuses must not be echoed (docs/api.md, *Card data*: "never the values in its path").
    const pathJunk = [
      'a%00b',
      `%ED%A0%80${CARDS.success}`,
      encodeURIComponent("' OR 1=1 --"),
      encodeURIComponent("'; drop table merchant; --"),
      `${CARDS.success}${'a'.repeat(8 * 1024)}`,
    ];
    type Call = { method: string; p: string; body?: unknown };
    const paths: Array<(j: string) => Call> = [
      (j) => ({ method: 'POST', p: `/v1/customer/${j}/kyc`, body: kycBody() }),
      (j) => ({ method: 'POST', p: `/v1/webhooks/events/${j}/resend` }),
      (j) => ({ method: 'POST', p: `/v1/sandbox/transactions/${j}/simulate`, body: { outcome: 'failed' } }),
      (j) => ({ method: 'POST', p: `/v1/sandbox/3ds/${j}`, body: { decision: 'fail', csrf: f.page.csrf } }),
      (j) => ({ method: 'POST', p: `/checkout/otp/${j}`, body: { otp: '12345', csrf: f.page.csrf } }),
      (j) => ({ method: 'POST', p: `/v1/admin/kyc/${j}/reject`, body: { reason: 'x' } }),
      (j) => ({ method: 'POST', p: `/v1/admin/merchants/${j}/disable` }),
      (j) => ({ method: 'POST', p: `/v1/payment-links/${j}/deactivate` }),
      (j) => ({ method: 'POST', p: `/v1/admin/merchants/${j}/enable` }),
      (j) => ({ method: 'POST', p: `/v1/admin/reconciliation/items/${j}/resolve`, body: { note: 'x' } }),
      (j) => ({ method: 'GET', p: `/v1/crossborder/rates?source_currency=${j}&destination_currency=KES&amount=100` }),
      (j) => ({ method: 'GET', p: `/v1/crossborder/rates?source_currency=USD&destination_currency=KES&amount=${j}` }),
    ];
    outcomes.push(
      ...(await mapLimit(
        paths.flatMap((call) => pathJunk.map((j) => call(j))),
        CONCURRENCY,
        async ({ method, p, body }) => {
          const admin = p.startsWith('/v1/admin/');
          const res = await request(app.url, method, p, {
            token: admin ? undefined : f.token,
            body,
            headers: admin ? { authorization: `Bearer ${TEST_ADMIN_KEY}` } : undefined,
          });
          const html =
            /^\/(v1\/sandbox\/3ds|checkout\/otp)\//.test(p) &&
            /text\/html/.test(res.headers.get('content-type') ?? '') &&
            res.status >= 400 &&
            res.status < 500;
          const problem = res.text.includes(CARDS.success) ? `echoes the path value: ${res.text.slice(0, 160)}` : html ? null : restRefusalProblem(res);
          return { door: 'REST', what: `${method} ${p.slice(0, 80)}`, mustRefuse: true, status: res.status, problem };
        },
      )),
    );

    // GraphQL over HTTP: variables and inline literals.
    const gql = gqlRefusals();
    outcomes.push(
      ...(await mapLimit(gql, CONCURRENCY, async (c) => {
        const res = await sendGql(c, false);
        return {
          door: 'GraphQL',
          what: `${c.leaf.mutation}${c.leaf.variant ? `[${c.leaf.variant}]` : ''}(${c.leaf.path.join('.')}) ← ${c.name}`,
          mustRefuse: true,
          status: res.status,
          problem: graphqlRefusalProblem(res),
        };
      })),
    );

    // GraphQL over the socket: the NUL cases and an object, per leaf.
    const socket = await GqlSocket.connect(app, f.token);
    try {
      const overSocket = gql.filter((c) => c.name === 'NUL' || c.name === 'inline \\u0000 escape' || c.name === 'object');
      outcomes.push(
        ...(await mapLimit(overSocket, CONCURRENCY, async (c) => {
          const args = await gqlBase(c.leaf.mutation, false, c.leaf.variant);
          const result = c.inline
            ? await socket.run(gqlDocument(c.leaf.mutation, args, { path: c.leaf.path, literal: c.inline }))
            : await socket.run(gqlDocument(c.leaf.mutation, args), setAt(args, c.leaf.path, c.vars));
          return {
            door: 'socket',
            what: `${c.leaf.mutation}${c.leaf.variant ? `[${c.leaf.variant}]` : ''}(${c.leaf.path.join('.')}) ← ${c.name}`,
            mustRefuse: true,
            status: 200,
            problem: graphqlRefusalProblem({ status: 200, body: result, text: JSON.stringify(result) }),
          };
        })),
      );
    } finally {
      await socket.close();
    }

    const failures = outcomes.filter((o) => o.problem !== null).map((o) => `${o.door} ${o.what}: ${o.problem}`);
    // Not a row anywhere: no customer, submission, transaction, event, quote, token, merchant or setting.
    const after = await dbFingerprint(app.db.url);
    const changedTables = Object.keys({ ...before, ...after }).filter((t) => JSON.stringify(before[t]) !== JSON.stringify(after[t]));
    expect({ failures, changedTables }).toEqual({ failures: [], changedTables: [] });
    expect(outcomes.filter((o) => o.door === 'REST').length).toBeGreaterThanOrEqual(400);
    expect(outcomes.filter((o) => o.door === 'GraphQL').length).toBeGreaterThanOrEqual(300);
  }, 240_000); // Over 700 requests in one sweep: 30 s on a quiet machine, 88 s seen on a loaded CI run.

  it('accepted junk (SQL fragments in free text, null where null is allowed): never a 5xx; stored verbatim; no table touched beyond the records accepted', async () => {
    const merchantsBefore = Number((await dbRows(app.db.url, 'select count(*) as n from merchant'))[0].n);
    const tablesBefore = Object.keys(await dbFingerprint(app.db.url));
    const sql = JUNK.filter((j) => typeof j.value === 'string' && !j.always).map((j) => j.value as string);
    const outcomes: Outcome[] = [];
    let merchantsCreated = 0;
    outcomes.push(
      ...(await mapLimit(restAcceptable(), CONCURRENCY, async ({ w, j, field }) => {
        const res = await sendRest(w, j, field, true);
        if (w.route === 'POST /v1/admin/merchants' && res.status === 201) merchantsCreated += 1;
        const problem =
          res.status >= 500
            ? `HTTP ${res.status}`
            : res.status >= 400
              ? restProblem(w, res)
              : res.body?.status === 'success' || (w.html && /text\/html/.test(res.headers.get('content-type') ?? ''))
                ? null
                : `not the success envelope: ${res.text.slice(0, 200)}`;
        const echoed = res.status < 300 && typeof j.value === 'string' && res.text.includes(JSON.stringify(j.value).slice(1, -1));
        return { door: 'REST', what: `${w.route} ${field.join('.')} ← ${j.name}`, mustRefuse: false, status: res.status, problem, echoed };
      })),
    );
    outcomes.push(
      ...(await mapLimit(gqlAcceptable(), CONCURRENCY, async (c) => {
        const res = await sendGql(c, true);
        const problem =
          res.status >= 500
            ? `HTTP ${res.status}`
            : res.body?.errors
              ? graphqlRefusalProblem(res)
              : res.body?.data
                ? null
                : `no data: ${res.text.slice(0, 200)}`;
        return {
          door: 'GraphQL',
          what: `${c.leaf.mutation}${c.leaf.variant ? `[${c.leaf.variant}]` : ''}(${c.leaf.path.join('.')}) ← ${c.name}`,
          mustRefuse: false,
          status: res.status,
          problem,
        };
      })),
    );
    const failures = outcomes.filter((o) => o.problem !== null).map((o) => `${o.door} ${o.what}: ${o.problem}`);
    expect(failures).toEqual([]);
    // The fragments were taken as text: some were accepted and echoed as sent, and the tables are all still there.
    expect(outcomes.filter((o) => o.echoed).length).toBeGreaterThanOrEqual(4);
    expect(Object.keys(await dbFingerprint(app.db.url))).toEqual(tablesBefore);
    expect(Number((await dbRows(app.db.url, 'select count(*) as n from merchant'))[0].n)).toBe(merchantsBefore + merchantsCreated);
    const stored = await dbRows<{ n: string }>(
      app.db.url,
      'select count(*) as n from customer where first_name = any($1) or last_name = any($1) or customerid = any($1)',
      [sql],
    );
    expect(Number(stored[0]!.n)).toBeGreaterThanOrEqual(2);
  });
});
