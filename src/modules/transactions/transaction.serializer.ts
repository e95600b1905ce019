import { z } from 'zod';
import { toJsonMoney, type Decimal } from '../../shared/money';
import { countryCode, currency, money as moneyField, nullableTimestamp, record, timestamp, type RecordOf } from '../../shared/records';
import { CARD_BRANDS, type CardBrand } from './kinds/payment/card.rules';
import { CHANNEL_TYPES } from '../reference/reference.types';
import type { CollectionTransaction, PaymentTransaction, RefundTransaction, Transaction, TransactionEvent, TransferTransaction } from './transaction.record';
import { TRANSACTION_STATUSES } from './transaction.state';

/*
 * The records of a transaction as REST answers them and webhooks carry them: one zod schema
 * each (their JSON Schemas are the OpenAPI components of these names), and below, the plain
 * functions that write them.
 */
const accountType = z.enum(CHANNEL_TYPES);
const transactionStatus = z.enum(TRANSACTION_STATUSES);

const BankInfoRecord = record(
  'BankInfo',
  z.object({ accountName: z.string(), accountNumber: z.string(), bankName: z.string(), bankCode: z.string() }),
  'A virtual account unique to one bank collection: the sender pays into it.',
);
const BeneficiaryRecord = record(
  'Beneficiary',
  z.object({ account_name: z.string().nullable(), account_number: z.string().nullable(), network_id: z.string().nullable() }),
);

const transferFiguresShape = {
  source_amount: moneyField.nullable(),
  source_currency: currency.nullable(),
  destination_amount: moneyField.nullable(),
  destination_currency: currency.nullable(),
  rate: (z.number() as unknown as z.ZodType<number | string>).nullable(),
  fee: moneyField.nullable(),
};

const nextActionShape = { type: z.literal('redirect_to_url'), url: z.string(), expires_at: nullableTimestamp };
const CollectionNextAction = z
  .object(nextActionShape)
  .optional()
  .describe(
    'Mobile money collections whose provider has the payer approve on a page (Flutterwave’s Ghana, Uganda, Rwanda and Zambia): send the payer to `url`',
  );

/** One entry of a transaction's status history (GraphQL: Transaction.history). */
export const TransactionStatusChangeRecord = record(
  'TransactionStatusChange',
  z.object({
    from_status: transactionStatus.nullable().describe('Null for the first entry (creation)'),
    to_status: transactionStatus,
    reason: z.string().nullable().describe('Why: "initiated", "provider", "simulation", "expiry" or a failure reason'),
    occurred_at: timestamp,
  }),
  'One entry of a transaction’s history.',
);

export function serializeStatusChange(e: TransactionEvent): RecordOf<typeof TransactionStatusChangeRecord> {
  return { from_status: e.fromStatus, to_status: e.toStatus, reason: e.reason, occurred_at: e.occurredAt.toISOString() };
}

export const CollectionInitiationRecord = record(
  'CollectionInitiation',
  z.object({
    reference: z.string(),
    external_reference: z.string(),
    status: transactionStatus,
    amount: moneyField.nullable(),
    currency: currency.nullable(),
    fee: moneyField.nullable().describe('What you pay for it, taken from the amount at settlement (your fee schedule)'),
    account_type: accountType.nullable(),
    bankInfo: BankInfoRecord.optional().describe('Bank collections only'),
    next_action: CollectionNextAction,
  }),
  'Spec §4.2: what a collection initiation returns, and the fee.',
);

export const TransferInitiationRecord = record(
  'TransferInitiation',
  z.object({
    reference: z.string(),
    external_reference: z.string(),
    status: transactionStatus,
    ...transferFiguresShape,
    account_type: accountType.nullable(),
    beneficiary: BeneficiaryRecord,
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

export const CollectionRecord = record(
  'CollectionRecord',
  z.object({
    ...recordCommon,
    type: z.literal('collection'),
    amount: moneyField.nullable(),
    currency: currency.nullable(),
    fee: moneyField.nullable(),
    account_number: z.string().nullable(),
    bankInfo: BankInfoRecord.optional().describe('Bank collections only'),
    next_action: CollectionNextAction,
    expires_at: nullableTimestamp.describe('Bank collections: when an unpaid one expires'),
    ...recordTimes,
  }),
);

export const TransferRecord = record(
  'TransferRecord',
  z.object({
    ...recordCommon,
    type: z.literal('transfer'),
    ...transferFiguresShape,
    quote_id: z.string().nullable(),
    beneficiary: BeneficiaryRecord,
    ...recordTimes,
  }),
);

export const PaymentRecord = record(
  'Payment',
  z.object({
    reference: z.string().describe('The service’s reference, `pay_…`'),
    external_reference: z.string(),
    type: z.literal('payment'),
    status: transactionStatus,
    failure_reason: z.string().nullable().describe('e.g. insufficient_funds, authentication_failed, authentication_expired'),
    amount: moneyField.nullable(),
    currency: currency.nullable(),
    fee: moneyField.nullable().describe('What you pay for it, taken from the amount at settlement'),
    amount_refunded: moneyField.describe('What its refunds hold, in flight or done (never more than amount)'),
    payment_method: z.literal('card').nullable(),
    card: z.object({ brand: z.enum(CARD_BRANDS), last4: z.string().nullable(), fingerprint: z.string().nullable() }).nullable(),
    next_action: z.object(nextActionShape).nullable().describe('Set while the payment awaits 3-D Secure: send the cardholder’s browser to `url`'),
    customer_uuid: z.string().nullable(),
    description: z.string().nullable(),
    redirect_url: z.string().nullable(),
    provider_reference: z.string().nullable(),
    ...recordTimes,
  }),
  'A card payment: its record as initiation, verification, the status endpoint and webhooks show it.',
);

export const RefundRecord = record(
  'Refund',
  z.object({
    reference: z.string().describe('The service’s reference, `rfd_…`'),
    external_reference: z.string(),
    type: z.literal('refund'),
    status: transactionStatus,
    failure_reason: z.string().nullable(),
    payment_reference: z.string().nullable().describe('The payment given back (its `pay_…` reference)'),
    amount: moneyField.nullable(),
    currency: currency.nullable(),
    reason: z.string().nullable(),
    provider_reference: z.string().nullable(),
    ...recordTimes,
  }),
  'A refund of a card payment: its record as creation, GET /v1/refunds/{reference}, the status endpoint and webhooks show it.',
);

/** Any transaction, by kind (`type`): what the status endpoint answers and transaction webhooks carry. */
export const TransactionRecord = record(
  'Transaction',
  z.discriminatedUnion('type', [CollectionRecord, TransferRecord, PaymentRecord, RefundRecord]),
  'The full record of any transaction, by kind (`type`). Webhook events carry the same JSON.',
);

const money = (d: Decimal | null) => (d === null ? null : toJsonMoney(d));
const iso = (d: Date | null) => d?.toISOString() ?? null;

/**
 * Where the customer must go before the transaction can be decided: a payment awaiting 3-D Secure,
 * or a mobile money collection whose provider has the payer approve on a page (Flutterwave's
 * Ghana, Uganda, Rwanda and Zambia charges). Null otherwise.
 */
export function nextActionOf(t: Transaction): { type: 'redirect_to_url'; url: string; expires_at: string | null } | null {
  const waiting = t.status === 'requires_action' || (t.kind === 'collection' && t.status === 'processing');
  return waiting && t.nextActionUrl ? { type: 'redirect_to_url' as const, url: t.nextActionUrl, expires_at: iso(t.expiresAt) } : null;
}

/** A collection's `next_action`, present only when the payer has a page to open. */
const collectionNextAction = (t: Transaction) => {
  const action = nextActionOf(t);
  return action ? { next_action: action } : {};
};

/** Spec §4.2: what a collection initiation returns (and `next_action` when the payer must approve on a page). */
export function serializeCollectionInitiation(t: CollectionTransaction): RecordOf<typeof CollectionInitiationRecord> {
  return {
    reference: t.reference,
    external_reference: t.externalReference,
    status: t.status,
    amount: money(t.amount),
    currency: t.currency,
    fee: money(t.fee),
    account_type: t.accountType,
    ...(t.accountType === 'bank' && t.bankInfo ? { bankInfo: { ...t.bankInfo } } : {}),
    ...collectionNextAction(t),
  };
}

/** A transfer's money and beneficiary, as both the initiation and the status record show them. */
function transferFigures(t: Transaction) {
  return {
    source_amount: money(t.sourceAmount),
    source_currency: t.sourceCurrency,
    destination_amount: money(t.destinationAmount),
    destination_currency: t.destinationCurrency,
    rate: money(t.rate),
    fee: money(t.fee),
  };
}

const beneficiary = (t: Transaction) => ({ account_name: t.accountName, account_number: t.accountNumber, network_id: t.networkId });

/** CONTRACT §6: what a transfer initiation returns. */
export function serializeTransferInitiation(t: TransferTransaction): RecordOf<typeof TransferInitiationRecord> {
  return {
    reference: t.reference,
    external_reference: t.externalReference,
    status: t.status,
    ...transferFigures(t),
    account_type: t.accountType,
    beneficiary: beneficiary(t),
    created_at: iso(t.createdAt),
  };
}

/**
 * CONTRACT §7: a card payment, as its initiation, verification, the status
 * endpoint and its webhooks show it. Of the card only brand, last4 and the
 * fingerprint exist. `next_action` is set while the payment awaits 3-D Secure.
 */
export function serializePayment(t: PaymentTransaction): RecordOf<typeof PaymentRecord> {
  return {
    reference: t.reference,
    external_reference: t.externalReference,
    type: t.kind,
    status: t.status,
    failure_reason: t.failureReason,
    amount: money(t.amount),
    currency: t.currency,
    fee: money(t.fee),
    amount_refunded: toJsonMoney(t.refundedAmount),
    payment_method: t.paymentMethod,
    card: t.cardBrand ? { brand: t.cardBrand as CardBrand, last4: t.cardLast4, fingerprint: t.cardFingerprint } : null,
    next_action: nextActionOf(t),
    customer_uuid: t.customerId,
    description: t.description,
    redirect_url: t.redirectUrl,
    provider_reference: t.providerReference,
    created_at: iso(t.createdAt),
    updated_at: iso(t.updatedAt),
    completed_at: iso(t.completedAt),
  };
}

/** A refund, as POST /v1/refunds, GET /v1/refunds/{reference}, the status endpoint and its webhooks show it. */
export function serializeRefund(t: RefundTransaction): RecordOf<typeof RefundRecord> {
  return {
    reference: t.reference,
    external_reference: t.externalReference,
    type: t.kind,
    status: t.status,
    failure_reason: t.failureReason,
    payment_reference: t.parentReference,
    amount: money(t.amount),
    currency: t.currency,
    reason: t.reason,
    provider_reference: t.providerReference,
    created_at: iso(t.createdAt),
    updated_at: iso(t.updatedAt),
    completed_at: iso(t.completedAt),
  };
}

/**
 * The full record the status endpoint returns for any kind. Webhook events carry
 * the same JSON, so a receiver sees exactly what the status endpoint shows.
 */
export function serializeTransaction(t: Transaction): RecordOf<typeof TransactionRecord> {
  if (t.kind === 'payment') return serializePayment(t);
  if (t.kind === 'refund') return serializeRefund(t);
  const common = <K extends 'collection' | 'transfer'>(type: K) => ({
    reference: t.reference,
    external_reference: t.externalReference,
    type,
    status: t.status,
    failure_reason: t.failureReason,
    customer_uuid: t.customerId,
    account_type: t.accountType,
    country_code: t.countryCode,
    channel_id: t.channelId,
    network_id: t.networkId,
    dial_code: t.dialCode,
    reason: t.reason,
    provider_reference: t.providerReference,
  });
  const times = { created_at: iso(t.createdAt), updated_at: iso(t.updatedAt), completed_at: iso(t.completedAt) };
  if (t.kind === 'transfer') {
    return {
      ...common(t.kind),
      ...transferFigures(t),
      quote_id: t.quoteId,
      beneficiary: beneficiary(t),
      ...times,
    };
  }
  return {
    ...common(t.kind),
    amount: money(t.amount),
    currency: t.currency,
    fee: money(t.fee),
    account_number: t.accountNumber,
    ...(t.accountType === 'bank' && t.bankInfo ? { bankInfo: { ...t.bankInfo } } : {}),
    ...collectionNextAction(t),
    expires_at: iso(t.expiresAt),
    ...times,
  };
}
