import { z } from 'zod';
import { KYC_STATUSES } from '../../../modules/kyc/kyc.state';
import { BALANCE_TRANSACTION_TYPES } from '../../../modules/ledger/ledger.model';
import { EVENT_TYPES } from '../../../modules/outbox/event-types';
import { CARD_BRANDS } from '../../../modules/payments/card.rules';
import { CHANNEL_STATUSES, CHANNEL_TYPES, RAMP_TYPES } from '../../../modules/reference/reference.types';
import { TRANSACTION_STATUSES } from '../../../modules/transactions/transaction.state';
import { ERROR_HTTP_STATUS } from '../../../shared/errors';
import { jsonSchemaOptions, type JsonSchema } from './json-schema';

/**
 * The shapes of what /v1 answers, written once here from the REST serializers
 * (v1/*.serializer.ts, transaction.serializer.ts, kyc.serializer.ts) and the
 * envelope (envelope.ts). A test checks real answers against them.
 */
const responseSchemas = z.registry<{ id: string; description?: string }>();
function named<T extends z.ZodType>(id: string, schema: T, description?: string): T {
  responseSchemas.add(schema, description ? { id, description } : { id });
  return schema;
}

const timestamp = z.iso.datetime();
const nullableTimestamp = timestamp.nullable();
/** REST money: an exact decimal carried as a JSON number (GraphQL carries the same value as a Decimal string). */
const money = z.number().meta({ description: 'Exact decimal, as a JSON number with at most the currency’s minor-unit decimals', examples: [1500] });
const currency = z
  .string()
  .regex(/^[A-Z]{3}$/)
  .meta({ examples: ['KES'] });
const countryCode = z
  .string()
  .regex(/^[A-Z]{2}$/)
  .meta({ examples: ['KE'] });
const accountType = z.enum(CHANNEL_TYPES);
const transactionStatus = z.enum(TRANSACTION_STATUSES);
const kycStatus = z.enum(KYC_STATUSES);

const Merchant = named(
  'Merchant',
  z.object({
    merchant_id: z.uuid(),
    name: z.string(),
    client_id: z.string(),
    webhook_url: z.string().nullable(),
    webhook_secret_overlap_until: nullableTimestamp.describe(
      'Until when a rotated-out webhook secret still signs deliveries beside the current one; null when none does',
    ),
    created_at: timestamp,
    updated_at: timestamp,
  }),
  'The merchant as REST shows it: never a secret.',
);

named(
  'MerchantCredentials',
  Merchant.extend({ client_secret: z.string(), webhook_secret: z.string() }),
  'A new merchant with its secrets, shown only in this answer.',
);

named(
  'TokenGrant',
  z.object({
    access_token: z.string().describe('An HS256 JWT; send it as `Authorization: Bearer …`'),
    token_type: z.literal('Bearer'),
    expires_in: z.int().meta({ description: 'Seconds', examples: [3600] }),
    refresh_token: z.string().describe('Single use: each refresh returns a new one'),
  }),
);

named('Empty', z.object({}), 'An empty object.');

named('Country', z.object({ name: z.string(), country_code: countryCode, currency, minor_unit: z.int(), dial_code: z.string() }));

named(
  'Channel',
  z.object({
    channel_id: z.string(),
    country_code: countryCode,
    currency,
    channel_type: accountType,
    ramptype: z.enum(RAMP_TYPES),
    min_amount: money,
    max_amount: money,
    status: z.enum(CHANNEL_STATUSES),
  }),
);

named('Network', z.object({ network_id: z.string(), name: z.string(), code: z.string(), country_code: countryCode, channel_type: accountType }));

named(
  'Quote',
  z.object({
    quote_id: z.string().describe('Pass it as a transfer’s quote_id within 60 seconds to lock this rate, fee and destination amount'),
    source_currency: currency,
    destination_currency: currency,
    rate: z.number().describe('Up to 8 decimals'),
    source_amount: money,
    destination_amount: money,
    fee: money,
    created_at: timestamp,
    expires_at: timestamp,
  }),
);

named(
  'Customer',
  z.object({
    customer_uuid: z.uuid(),
    customerid: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    phone_number: z.string(),
    dial_code: z.string(),
    country_code: countryCode,
    date_of_birth: z.string().nullable(),
    kyc_status: kycStatus,
    overall_kyc_status: kycStatus,
    created_at: timestamp,
    updated_at: timestamp,
  }),
);

named(
  'KycRecord',
  z.object({
    customer_uuid: z.uuid(),
    kyc_status: kycStatus,
    overall_kyc_status: kycStatus.describe('Equals kyc_status; only `approved` allows transfers and collections'),
    submitted_at: nullableTimestamp,
    reviewed_at: nullableTimestamp,
    rejection_reason: z.string().nullable(),
  }),
);

const BankInfo = named(
  'BankInfo',
  z.object({ accountName: z.string(), accountNumber: z.string(), bankName: z.string(), bankCode: z.string() }),
  'A virtual account unique to one bank collection: the sender pays into it.',
);
const Beneficiary = named(
  'Beneficiary',
  z.object({ account_name: z.string().nullable(), account_number: z.string().nullable(), network_id: z.string().nullable() }),
);

const transferFigures = {
  source_amount: money.nullable(),
  source_currency: currency.nullable(),
  destination_amount: money.nullable(),
  destination_currency: currency.nullable(),
  rate: z.number().nullable(),
  fee: money.nullable(),
};

const CollectionNextAction = z
  .object({ type: z.literal('redirect_to_url'), url: z.string(), expires_at: nullableTimestamp })
  .optional()
  .describe(
    'Mobile money collections whose provider has the payer approve on a page (Flutterwave’s Ghana, Uganda, Rwanda and Zambia): send the payer to `url`',
  );

named(
  'CollectionInitiation',
  z.object({
    reference: z.string(),
    external_reference: z.string(),
    status: transactionStatus,
    amount: money.nullable(),
    currency: currency.nullable(),
    fee: money.nullable().describe('What you pay for it, taken from the amount at settlement (your fee schedule)'),
    account_type: accountType.nullable(),
    bankInfo: BankInfo.optional().describe('Bank collections only'),
    next_action: CollectionNextAction,
  }),
  'Spec §4.2: what a collection initiation returns, and the fee.',
);

named(
  'TransferInitiation',
  z.object({
    reference: z.string(),
    external_reference: z.string(),
    status: transactionStatus,
    ...transferFigures,
    account_type: accountType.nullable(),
    beneficiary: Beneficiary,
    created_at: nullableTimestamp,
  }),
);

const recordCommon = {
  reference: z.string(),
  external_reference: z.string(),
  status: transactionStatus,
  failure_reason: z.string().nullable(),
  customer_uuid: z.string().nullable(),
  account_type: accountType.nullable(),
  country_code: countryCode.nullable(),
  channel_id: z.string().nullable(),
  network_id: z.string().nullable(),
  dial_code: z.string().nullable(),
  reason: z.string().nullable(),
  provider_reference: z.string().nullable(),
};
const recordTimes = { created_at: nullableTimestamp, updated_at: nullableTimestamp, completed_at: nullableTimestamp };

const CollectionRecord = named(
  'CollectionRecord',
  z.object({
    ...recordCommon,
    type: z.literal('collection'),
    amount: money.nullable(),
    currency: currency.nullable(),
    fee: money.nullable(),
    account_number: z.string().nullable(),
    bankInfo: BankInfo.optional().describe('Bank collections only'),
    next_action: CollectionNextAction,
    expires_at: nullableTimestamp.describe('Bank collections: when an unpaid one expires'),
    ...recordTimes,
  }),
);

const TransferRecord = named(
  'TransferRecord',
  z.object({ ...recordCommon, type: z.literal('transfer'), ...transferFigures, quote_id: z.string().nullable(), beneficiary: Beneficiary, ...recordTimes }),
);

const Payment = named(
  'Payment',
  z.object({
    reference: z.string().describe('The service’s reference, `pay_…`'),
    external_reference: z.string(),
    type: z.literal('payment'),
    status: transactionStatus,
    failure_reason: z.string().nullable().describe('e.g. insufficient_funds, authentication_failed, authentication_expired'),
    amount: money.nullable(),
    currency: currency.nullable(),
    fee: money.nullable().describe('What you pay for it, taken from the amount at settlement'),
    amount_refunded: money.describe('What its refunds hold, in flight or done (never more than amount)'),
    payment_method: z.literal('card').nullable(),
    card: z.object({ brand: z.enum(CARD_BRANDS), last4: z.string().nullable(), fingerprint: z.string().nullable() }).nullable(),
    next_action: z
      .object({ type: z.literal('redirect_to_url'), url: z.string(), expires_at: nullableTimestamp })
      .nullable()
      .describe('Set while the payment awaits 3-D Secure: send the cardholder’s browser to `url`'),
    customer_uuid: z.string().nullable(),
    description: z.string().nullable(),
    redirect_url: z.string().nullable(),
    provider_reference: z.string().nullable(),
    ...recordTimes,
  }),
  'A card payment: its record as initiation, verification, the status endpoint and webhooks show it.',
);

const Refund = named(
  'Refund',
  z.object({
    reference: z.string().describe('The service’s reference, `rfd_…`'),
    external_reference: z.string(),
    type: z.literal('refund'),
    status: transactionStatus,
    failure_reason: z.string().nullable(),
    payment_reference: z.string().nullable().describe('The payment given back (its `pay_…` reference)'),
    amount: money.nullable(),
    currency: currency.nullable(),
    reason: z.string().nullable(),
    provider_reference: z.string().nullable(),
    ...recordTimes,
  }),
  'A refund of a card payment: its record as creation, GET /v1/refunds/{reference}, the status endpoint and webhooks show it.',
);

const balanceTransactionType = z.enum(BALANCE_TRANSACTION_TYPES);
named(
  'Balance',
  z.object({
    currency,
    available: money.describe('Yours to pay out and refund from'),
    pending: money.describe('Settled collections and payments not yet released (the settlement delay)'),
    reserved: money.describe('Held for transfers and refunds in flight'),
  }),
);
const BalanceTransaction = named(
  'BalanceTransaction',
  z.object({
    id: z.string(),
    type: balanceTransactionType,
    currency,
    amount: money.describe('What moved before the fee; negative for money out'),
    fee: money,
    net: money.describe('amount − fee: what available + pending changed by'),
    balance_after: money.describe('available + pending after it'),
    source_reference: z.string().nullable().describe('The transaction (or adjustment) it comes from'),
    created_at: timestamp,
  }),
);
named(
  'Statement',
  z.object({
    currency,
    from: timestamp,
    to: timestamp,
    opening_balance: money,
    closing_balance: money.describe('opening_balance + the sum of every entry’s net'),
    totals: z.array(z.object({ type: balanceTransactionType, count: z.int(), amount: money, fee: money, net: money })),
    entries: z.array(BalanceTransaction),
  }),
);
named(
  'FeeRule',
  z.object({
    kind: z.enum(['collection', 'transfer', 'payment']),
    currency: currency.nullable().describe('null: every currency'),
    percent: z.string(),
    fixed: z.string(),
  }),
);

named(
  'Transaction',
  z.discriminatedUnion('type', [CollectionRecord, TransferRecord, Payment, Refund]),
  'The full record of any transaction, by kind (`type`). Webhook events carry the same JSON.',
);

const deliveryStatus = z.enum(['pending', 'delivered', 'failed']).nullable().describe('null: no endpoint was set when the event was recorded');
const eventSummary = {
  id: z.string().describe('`evt_…`; also the `webhook-id` header of every delivery'),
  type: z.enum(EVENT_TYPES),
  created_at: timestamp,
  delivery_status: deliveryStatus,
  attempt_count: z.int(),
  next_attempt_at: nullableTimestamp,
  delivered_at: nullableTimestamp,
};
named('WebhookEventSummary', z.object(eventSummary));
named(
  'WebhookEvent',
  z.object({
    ...eventSummary,
    data: z.record(z.string(), z.unknown()).describe('The payload exactly as the webhook body carries it'),
    attempts: z.array(
      z.object({
        attempt_number: z.int(),
        attempted_at: timestamp,
        url: z.string(),
        status_code: z.int().nullable(),
        latency_ms: z.int().nullable().describe('Null until the attempt is finished'),
        success: z
          .boolean()
          .nullable()
          .describe('True for a 2xx answer. Null while the outcome is not known: in flight, or interrupted (`error` says so; the event is sent again)'),
        error: z.string().nullable(),
      }),
    ),
  }),
);

named(
  'WebhookSecretRotation',
  z.object({
    webhook_secret: z.string().describe('`whsec_…`, shown only in this answer'),
    previous_secret_expires_at: timestamp.describe('Until then every delivery is signed with both secrets'),
  }),
);

named('CountMeta', z.object({ count: z.int() }));
named('PageMeta', z.object({ count: z.int(), has_more: z.boolean(), next_cursor: z.string().nullable().describe('Pass it as `after` for the next page') }));

named('ErrorDetail', z.object({ field: z.string().describe('The field, in this door’s (snake_case) names, e.g. `card.exp_year`'), issue: z.string() }));

/** The error envelope (spec §7, envelope.ts errorBody). */
export const ERROR_ENVELOPE: JsonSchema = {
  type: 'object',
  required: ['status', 'code', 'message'],
  properties: {
    status: { const: 'error' },
    code: { type: 'string', enum: Object.keys(ERROR_HTTP_STATUS) },
    message: { type: 'string' },
    details: { type: 'array', items: { $ref: '#/components/schemas/ErrorDetail' } },
  },
};

/**
 * The schemas above, as the document's components (each referring to the others
 * by $ref). `strict`: no field beyond those documented (for tests of real answers).
 */
export function responseComponents(opts: { strict?: boolean } = {}): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(responseSchemas, {
    ...jsonSchemaOptions('output', opts),
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, JsonSchema> };
  for (const schema of Object.values(schemas)) {
    delete schema.$schema;
    delete schema.$id;
  }
  schemas.Transaction!.discriminator = {
    propertyName: 'type',
    mapping: {
      collection: '#/components/schemas/CollectionRecord',
      transfer: '#/components/schemas/TransferRecord',
      payment: '#/components/schemas/Payment',
      refund: '#/components/schemas/Refund',
    },
  };
  return schemas;
}
