import { z } from 'zod';
import type { BankInfo } from '../../providers/connector';
import { quoted, textCell } from '../../shared/csv';
import { Decimal, formatAmount } from '../../shared/money';
import {
  column,
  countryCodeType,
  currencyCode,
  decimal,
  defineColumns,
  defineRecord,
  enumOf,
  id,
  money,
  nested,
  readerOf,
  restView,
  text,
  timestamp,
  wireName,
  type FieldSpec,
} from '../../shared/record-definition';
import { CARD_BRANDS } from './kinds/payment/card.rules';
import { PAYMENT_METHODS, type PaymentMethod } from './kinds/payment/payment-methods';
import { CHANNEL_TYPES } from '../reference/reference.types';
import { fullName, type Counterparty } from './counterparty';
import { feeCharged } from './transaction.fee';
import type { Transaction, TransactionEvent } from './transaction.record';
import { TRANSACTION_KINDS, TRANSACTION_STATUSES, type TransactionKind, type TransactionStatus } from './transaction.state';

/*
 * The transaction, defined once (docs/design.md, "One definition per record"):
 * - TRANSACTION_COLUMNS: every column of the `transaction` table, with its type. The record's
 *   TypeScript types (transaction.record.ts), the store's column map (transaction.store.ts), the
 *   blank row and the JSON wire form come from it.
 * - TRANSACTION: every public field, with its type, nullability, description and wire name. The
 *   REST records below (one per kind, and the two initiation answers), their serializers, the
 *   webhook payload (the REST record) and the GraphQL Transaction type come from it.
 * - TRANSACTION_CSV: the export's columns.
 * Adding a field: a column here (and a migration), a public field, its name in the REST views
 * of the kinds that show it, and the code that fills it.
 */

// ---------------------------------------------------------------------------------------------
// The stored columns, in table order. Kind-specific columns are null where they do not apply.

export const TRANSACTION_COLUMNS = defineColumns({
  id: column.text(),
  merchantId: column.text(),
  kind: column.plain<TransactionKind>(),
  /** Assigned by the service. */
  reference: column.text(),
  /** The merchant's own reference, unique per merchant across every kind. */
  externalReference: column.text(),
  status: column.plain<TransactionStatus>(),
  customerId: column.text().nullable(),
  accountType: column.plain<'bank' | 'momo'>().nullable(),
  countryCode: column.text().nullable(),
  channelId: column.text().nullable(),
  networkId: column.text().nullable(),
  accountNumber: column.text().nullable(),
  accountName: column.text().nullable(),
  dialCode: column.text().nullable(),
  reason: column.text().nullable(),
  /** Collections, payments and refunds: the amount the sender pays (or is given back), in `currency`. */
  amount: column.decimal().nullable(),
  currency: column.text().nullable(),
  /** Transfers: what the merchant sends and what the beneficiary receives. */
  sourceAmount: column.decimal().nullable(),
  sourceCurrency: column.text().nullable(),
  destinationAmount: column.decimal().nullable(),
  destinationCurrency: column.text().nullable(),
  rate: column.decimal().nullable(),
  /** Decided at initiation; null on a collection or payment made before fees were charged. */
  fee: column.decimal().nullable(),
  quoteId: column.text().nullable(),
  bankInfo: column.json<BankInfo>().nullable(),
  virtualAccountNumber: column.text().nullable(),
  providerReference: column.text().nullable(),
  /** The provider connector that carries it (routing picks it at creation; it never changes). */
  connector: column.text(),
  failureReason: column.text().nullable(),
  /** Payments: how the customer pays: card, or (domestic, issue 37) mobile money or bank transfer. */
  paymentMethod: column.plain<PaymentMethod>().nullable(),
  /** Payments: what is kept of the card (never its number, CVC or expiry). */
  cardBrand: column.text().nullable(),
  cardLast4: column.text().nullable(),
  /** A keyed hash of the card number, per merchant: the same card gives the same fingerprint at one merchant only. */
  cardFingerprint: column.text().nullable(),
  /** Payments: where the cardholder's browser goes after 3-D Secure. */
  redirectUrl: column.text().nullable(),
  description: column.text().nullable(),
  /** Payments awaiting 3-D Secure: the page the cardholder authenticates on (sealed at rest; null once decided). */
  nextActionUrl: column.sealed().nullable(),
  /** Payments made on a hosted checkout page (issue 37): its session, `cs_…`. */
  checkoutSessionId: column.text().nullable(),
  /** Refunds: the payment given back. */
  parentId: column.text().nullable(),
  parentReference: column.text().nullable(),
  /** Payments: what its refunds hold (in flight or done); never more than the amount. */
  refundedAmount: column.decimal().blankAs(new Decimal(0)),
  createdAt: column.timestamp(),
  updatedAt: column.timestamp(),
  completedAt: column.timestamp().nullable(),
  /** Bank collections: when an unpaid one expires. Payments awaiting 3-D Secure: when the authentication does. */
  expiresAt: column.timestamp().nullable(),
  /** Successful collections and payments: when the net becomes available (the settlement delay's end). */
  availableAt: column.timestamp().nullable(),
});

/** The columns every cross-border transaction (collection, transfer) has: its route and its account. */
const CROSS_BORDER_COLUMNS = ['customerId', 'accountType', 'countryCode', 'channelId', 'networkId', 'accountNumber', 'dialCode', 'reason'] as const;

/** Each kind's own columns: never null on a row of that kind (checked on every row read, typed in transaction.record.ts). */
export const KIND_COLUMNS = {
  collection: [...CROSS_BORDER_COLUMNS, 'amount', 'currency'],
  transfer: [...CROSS_BORDER_COLUMNS, 'accountName', 'sourceAmount', 'sourceCurrency', 'destinationAmount', 'destinationCurrency', 'rate', 'fee'],
  payment: ['amount', 'currency', 'paymentMethod'],
  refund: ['amount', 'currency', 'fee', 'reason', 'parentId', 'parentReference'],
  /** A payout to the merchant's own account (issue 38): a destination's route and account, no customer. */
  payout: ['accountType', 'countryCode', 'channelId', 'networkId', 'accountNumber', 'dialCode', 'reason', 'accountName', 'amount', 'currency', 'fee'],
  /** A funding of the merchant's own balance (issue 41): an account to pay into, at a bank of its country, in the merchant's name. */
  funding: ['accountType', 'countryCode', 'networkId', 'accountName', 'amount', 'currency', 'fee'],
} as const satisfies Record<TransactionKind, ReadonlyArray<keyof typeof TRANSACTION_COLUMNS.definition>>;

// ---------------------------------------------------------------------------------------------
// The nested records.

const BANK_INFO = defineRecord<BankInfo>()({
  name: 'BankInfo',
  description: 'The virtual bank account a sender pays a bank collection into; unique to that collection.',
  // Irregular: REST names these in camelCase too (spec §4.2).
  fields: {
    accountName: { type: text, wire: 'accountName' },
    accountNumber: { type: text, wire: 'accountNumber' },
    bankName: { type: text, wire: 'bankName' },
    bankCode: { type: text, wire: 'bankCode' },
    localCode: {
      type: text,
      nullable: true,
      wire: 'localCode',
      description: 'The bank’s code in its country’s payment system (Nigeria: the CBN/NIP code, e.g. 035; GET /v1/banks); null where none is listed.',
      read: (b: BankInfo) => b.localCode ?? null,
    },
  },
});
export const BankInfoRest = restView(BANK_INFO, {
  id: 'BankInfo',
  description: 'A virtual account unique to one bank collection: the sender pays into it.',
  fields: ['accountName', 'accountNumber', 'bankName', 'bankCode', 'localCode'],
});

interface BeneficiaryValue {
  accountName: string | null;
  accountNumber: string | null;
  networkId: string | null;
}
const BENEFICIARY = defineRecord<BeneficiaryValue>()({
  name: 'Beneficiary',
  description: 'Who receives a transfer.',
  // REST shows each as it is stored (nullable); GraphQL shows a beneficiary only when all three are set.
  fields: {
    accountName: { type: text, nullable: true, graphql: { nullable: false } },
    accountNumber: { type: text, nullable: true, graphql: { nullable: false } },
    networkId: { type: text, nullable: true, graphql: { nullable: false } },
  },
});
export const BeneficiaryRest = restView(BENEFICIARY, { id: 'Beneficiary', fields: ['accountName', 'accountNumber', 'networkId'] });

interface CardValue {
  brand: string;
  last4: string | null;
  fingerprint: string | null;
}
const CARD = defineRecord<CardValue>()({
  name: 'Card',
  description: 'What is kept of a card: never its number, CVC or expiry.',
  fields: {
    brand: { type: text, description: 'visa, mastercard, amex, verve, discover or unknown.', rest: { schema: z.enum(CARD_BRANDS) } },
    last4: { type: text, nullable: true, graphql: { nullable: false } },
    fingerprint: {
      type: text,
      nullable: true,
      graphql: { nullable: false },
      description: 'The same card gives the same fingerprint in your account (and a different one at any other merchant).',
    },
  },
});

interface NextActionValue {
  type: 'redirect_to_url';
  url: string;
  expiresAt: Date | null;
}
const NEXT_ACTION = defineRecord<NextActionValue>()({
  name: 'NextAction',
  description: 'A payment awaiting 3-D Secure: send the cardholder’s browser to url before expiresAt.',
  fields: {
    type: { type: text, graphql: { type: 'NextActionType' }, rest: { schema: z.literal('redirect_to_url') } },
    url: { type: text, description: 'The authentication page; its handle decides this payment once.' },
    expiresAt: { type: timestamp, nullable: true },
  },
});

/**
 * Where the customer must go before the transaction can be decided: a payment awaiting 3-D Secure,
 * or a mobile money collection whose provider has the payer approve on a page (Flutterwave's
 * Ghana, Uganda, Rwanda and Zambia charges). Null otherwise.
 */
function nextAction(t: Transaction): NextActionValue | null {
  const waiting = t.status === 'requires_action' || ((t.kind === 'collection' || t.kind === 'payment') && t.status === 'processing');
  return waiting && t.nextActionUrl ? { type: 'redirect_to_url', url: t.nextActionUrl, expiresAt: t.expiresAt } : null;
}

// ---------------------------------------------------------------------------------------------
// The public record: every field of GraphQL's Transaction, in its order, and of REST's records.

const transfer = (t: Transaction) => t.kind === 'transfer';

export const TRANSACTION = defineRecord<Transaction>()({
  name: 'Transaction',
  description:
    'A collection, transfer, payment, refund, payout or funding of your balance. Fields that do not apply to its kind are null (amount/currency: collections, payments, refunds, payouts and fundings; bankInfo: bank collections, bank transfer payments and fundings; source*/destination*/rate/quoteId/beneficiary: transfers; paymentMethod/card/redirectUrl/description/amountRefunded: payments; nextAction: payments and mobile money collections; paymentReference: refunds).',
  fields: {
    reference: { type: text, description: 'Assigned by the service, e.g. "col_…", "trf_…" or "pay_…".' },
    externalReference: { type: text, description: 'Your own reference, unique across all your transactions.' },
    type: { type: enumOf(TRANSACTION_KINDS, 'TransactionType'), from: 'kind' },
    status: { type: enumOf(TRANSACTION_STATUSES, 'TransactionStatus') },
    failureReason: { type: text, nullable: true },
    customerUuid: { type: id, nullable: true, from: 'customerId' },
    accountType: { type: enumOf(CHANNEL_TYPES, 'ChannelType'), nullable: true, description: 'BANK or MOMO: the channel type of channelId.' },
    countryCode: { type: countryCodeType, nullable: true },
    channelId: { type: text, nullable: true },
    networkId: { type: text, nullable: true },
    dialCode: { type: text, nullable: true },
    reason: { type: text, nullable: true },
    providerReference: { type: text, nullable: true },
    amount: {
      type: money((t: Transaction) => t.currency),
      nullable: true,
      description: 'Collections: what the sender pays, in currency. Payments: what the card is charged.',
    },
    currency: { type: currencyCode, nullable: true },
    accountNumber: { type: text, nullable: true, description: 'The sender’s (collection) or beneficiary’s (transfer) account or wallet number.' },
    bankInfo: {
      type: nested(BANK_INFO),
      nullable: true,
      description: 'Bank collections, bank transfer payments and fundings: the account to pay into.',
      read: (t) => (t.accountType === 'bank' && t.bankInfo ? t.bankInfo : null),
      // Irregular: REST names it in camelCase (spec §4.2), and copies the stored object as it is (its key order is the stored JSON's).
      wire: 'bankInfo',
      rest: {
        schema: BankInfoRest.schema,
        read: (t) => (t.accountType === 'bank' && t.bankInfo ? { ...t.bankInfo, localCode: t.bankInfo.localCode ?? null } : null),
        raw: true,
      },
    },
    sourceAmount: { type: money((t: Transaction) => t.sourceCurrency), nullable: true },
    sourceCurrency: { type: currencyCode, nullable: true },
    destinationAmount: { type: money((t: Transaction) => t.destinationCurrency), nullable: true },
    destinationCurrency: { type: currencyCode, nullable: true },
    rate: { type: decimal, nullable: true, description: 'Destination units per source unit; up to 8 decimals.' },
    fee: {
      type: money((t: Transaction) => (transfer(t) ? t.sourceCurrency : t.currency)),
      nullable: true,
      description:
        'What you pay for it. Transfers: in the source currency, charged on top of sourceAmount. Collections and payments: taken from amount at settlement. Refunds: 0. Failed or expired: 0, since nothing was charged.',
      read: feeCharged,
    },
    quoteId: { type: text, nullable: true, description: 'The quote whose rate the transfer locked, if any.' },
    beneficiary: {
      type: nested(BENEFICIARY),
      nullable: true,
      description: 'Transfers only.',
      read: (t): BeneficiaryValue => ({ accountName: t.accountName, accountNumber: t.accountNumber, networkId: t.networkId }),
      // REST shows it on transfers, always; GraphQL only when all its parts are set.
      rest: { nullable: false, schema: BeneficiaryRest.schema },
      graphql: {
        read: (t) =>
          transfer(t) && t.accountName && t.accountNumber && t.networkId
            ? { accountName: t.accountName, accountNumber: t.accountNumber, networkId: t.networkId }
            : null,
      },
    },
    paymentMethod: {
      type: enumOf(PAYMENT_METHODS, 'PaymentMethod'),
      nullable: true,
      description: 'Payments only: card, or (domestic) momo or bank_transfer.',
    },
    card: {
      type: nested(CARD),
      nullable: true,
      description: 'Card payments only.',
      read: (t): CardValue | null => (t.cardBrand ? { brand: t.cardBrand, last4: t.cardLast4, fingerprint: t.cardFingerprint } : null),
    },
    nextAction: {
      type: nested(NEXT_ACTION),
      nullable: true,
      description:
        'Where the customer must go first: a payment awaiting 3-D Secure (REQUIRES_ACTION), or a PROCESSING mobile money collection whose provider has the payer approve on a page. Null otherwise.',
      read: nextAction,
    },
    redirectUrl: { type: text, nullable: true, description: 'Payments: where the cardholder returns after 3-D Secure.' },
    description: { type: text, nullable: true, description: 'Payments: your description.' },
    amountRefunded: {
      type: money((t: Transaction) => t.currency),
      nullable: true,
      description: 'Payments: what its refunds hold, in flight or done (never more than amount).',
      from: 'refundedAmount',
      // REST shows it on payments only, where it is never null; GraphQL is null for other kinds.
      rest: { nullable: false },
      graphql: { read: (t) => (t.kind === 'payment' ? t.refundedAmount : null) },
    },
    paymentReference: {
      type: text,
      nullable: true,
      description: 'Refunds: the payment given back (its "pay_…" reference).',
      from: 'parentReference',
    },
    checkoutSessionId: {
      type: text,
      nullable: true,
      description: 'Payments made on a hosted checkout page: its session (`cs_…`). Null otherwise.',
    },
    // Irregular: REST documents the times as nullable, though created_at and updated_at never are.
    createdAt: { type: timestamp, rest: { nullable: true } },
    updatedAt: { type: timestamp, rest: { nullable: true } },
    completedAt: { type: timestamp, nullable: true },
    expiresAt: {
      type: timestamp,
      nullable: true,
      description: 'Bank collections: when an unpaid one expires. Payments awaiting 3-D Secure: the authentication deadline.',
    },
    availableAt: {
      type: timestamp,
      nullable: true,
      description:
        'Successful collections and payments: when the net (amount less fee) becomes available in your balance, at the end of the settlement delay. Null until successful, and for other kinds.',
    },
  },
});

// ---------------------------------------------------------------------------------------------
// The REST records: which fields each kind shows, in its answer's order, with REST's descriptions.

type Field = keyof typeof TRANSACTION.fields;

const COLLECTION_NEXT_ACTION = [
  'nextAction',
  {
    omitWhenNull: true,
    description:
      'Mobile money collections whose provider has the payer approve on a page (Flutterwave’s Ghana, Uganda, Rwanda and Zambia): send the payer to `url`',
  },
] as const;
const BANK_INFO_FIELD = ['bankInfo', { omitWhenNull: true, description: 'Bank collections only' }] as const;
/** What a failed or expired transaction's fee is, and why (feeCharged). */
const NOTHING_CHARGED = '; 0 once it has failed or expired: nothing was charged';
const TRANSFER_FIGURES = [
  'sourceAmount',
  'sourceCurrency',
  'destinationAmount',
  'destinationCurrency',
  'rate',
  ['fee', { description: `What you pay for it, in source_currency, on top of source_amount${NOTHING_CHARGED}` }],
] as const;
const TIMES = ['createdAt', 'updatedAt', 'completedAt'] as const satisfies Field[];
const COMMON = [
  'reference',
  'externalReference',
  'status',
  'failureReason',
  'customerUuid',
  'accountType',
  'countryCode',
  'channelId',
  'networkId',
  'dialCode',
  'reason',
  'providerReference',
] as const satisfies Field[];
/** Irregular: a collection's or transfer's `type` follows the references in the answer, but its schema lists it after the common fields. */
const TYPE_AFTER_COMMON = { move: 'type', after: 'providerReference' } as const;

export const CollectionInitiationRest = restView(TRANSACTION, {
  id: 'CollectionInitiation',
  description: 'Spec §4.2: what a collection initiation returns, and the fee.',
  fields: [
    'reference',
    'externalReference',
    'status',
    'amount',
    'currency',
    ['fee', { description: `What you pay for it, taken from the amount at settlement (your fee schedule)${NOTHING_CHARGED}` }],
    'accountType',
    BANK_INFO_FIELD,
    COLLECTION_NEXT_ACTION,
  ],
});

export const TransferInitiationRest = restView(TRANSACTION, {
  id: 'TransferInitiation',
  fields: ['reference', 'externalReference', 'status', ...TRANSFER_FIGURES, 'accountType', 'beneficiary', 'createdAt'],
});

export const CollectionRest = restView(TRANSACTION, {
  id: 'CollectionRecord',
  fields: [
    'reference',
    'externalReference',
    ['type', { literal: 'collection' }],
    ...COMMON.slice(2),
    'amount',
    'currency',
    ['fee', { description: `What you pay for it, taken from the amount at settlement${NOTHING_CHARGED}` }],
    'accountNumber',
    BANK_INFO_FIELD,
    COLLECTION_NEXT_ACTION,
    ['expiresAt', { description: 'Bank collections: when an unpaid one expires' }],
    ...TIMES,
    'availableAt',
  ],
  schemaOrder: TYPE_AFTER_COMMON,
});

export const TransferRest = restView(TRANSACTION, {
  id: 'TransferRecord',
  fields: ['reference', 'externalReference', ['type', { literal: 'transfer' }], ...COMMON.slice(2), ...TRANSFER_FIGURES, 'quoteId', 'beneficiary', ...TIMES],
  schemaOrder: TYPE_AFTER_COMMON,
});

export const PaymentRest = restView(TRANSACTION, {
  id: 'Payment',
  description: 'A domestic payment (card, mobile money or bank transfer): its record as initiation, verification, the status endpoint and webhooks show it.',
  fields: [
    ['reference', { description: 'The service’s reference, `pay_…`' }],
    'externalReference',
    ['type', { literal: 'payment' }],
    'status',
    ['failureReason', { description: 'e.g. insufficient_funds, authentication_failed, authentication_expired' }],
    'amount',
    'currency',
    ['fee', { description: `What you pay for it, taken from the amount at settlement${NOTHING_CHARGED}` }],
    ['amountRefunded', { description: 'What its refunds hold, in flight or done (never more than amount)' }],
    'paymentMethod',
    'card',
    ['countryCode', { omitWhenNull: true, description: 'Mobile money and bank transfer payments: the payer’s country (yours)' }],
    ['networkId', { omitWhenNull: true, description: 'Mobile money payments: the payer’s network; bank transfers: the bank paid into' }],
    ['accountNumber', { omitWhenNull: true, description: 'Mobile money payments: the payer’s wallet, as its national number' }],
    ['bankInfo', { omitWhenNull: true, description: 'Bank transfer payments: the account the payer pays into, unique to this payment' }],
    [
      'nextAction',
      {
        description: 'Set while the payment awaits the payer: 3-D Secure, or a mobile money provider’s approval page. Send the payer’s browser to `url`',
      },
    ],
    'customerUuid',
    'description',
    'redirectUrl',
    'providerReference',
    ['checkoutSessionId', { description: 'The hosted checkout session it was paid on (`cs_…`), or null' }],
    ['expiresAt', { omitWhenNull: true, description: 'Bank transfers: when an unpaid one expires. 3-D Secure: the authentication deadline' }],
    ...TIMES,
    'availableAt',
  ],
});

export const RefundRest = restView(TRANSACTION, {
  id: 'Refund',
  description: 'A refund of a card payment: its record as creation, GET /v1/refunds/{reference}, the status endpoint and webhooks show it.',
  fields: [
    ['reference', { description: 'The service’s reference, `rfd_…`' }],
    'externalReference',
    ['type', { literal: 'refund' }],
    'status',
    'failureReason',
    ['paymentReference', { description: 'The payment given back (its `pay_…` reference)' }],
    'amount',
    'currency',
    'reason',
    'providerReference',
    ...TIMES,
  ],
});

export const PayoutTransactionRest = restView(TRANSACTION, {
  id: 'PayoutTransaction',
  description:
    'The money movement of a payout to your own account (issue 38): GET /v1/payouts/{id} is the payout itself; this is its transaction, as the status endpoint and the transaction list show it. Its account number is never shown here (the payout shows it masked).',
  fields: [
    ['reference', { description: 'The service’s reference, `pot_…`' }],
    ['externalReference', { description: 'The payout it moves, `po_…`' }],
    ['type', { literal: 'payout' }],
    'status',
    'failureReason',
    'amount',
    'currency',
    ['fee', { description: `What the payout costs, taken from its amount (0 unless priced)${NOTHING_CHARGED}` }],
    'accountType',
    'countryCode',
    'networkId',
    ['providerReference', { description: 'The provider’s trace reference (a NIP session id, a MoMo financial transaction id)' }],
    ...TIMES,
  ],
});

export const FundingRest = restView(TRANSACTION, {
  id: 'Funding',
  description:
    'A funding of your own balance (issue 41): an account to pay into by bank transfer, unique to it, open until `expires_at`; what arrives is credited to your available balance, with no fee. POST /v1/balance/funding answers it; the status endpoint, the transaction list and funding.* webhooks show it.',
  fields: [
    ['reference', { description: 'The service’s reference, `fnd_…`' }],
    ['externalReference', { description: 'Yours, if you gave one; otherwise the service’s reference' }],
    ['type', { literal: 'funding' }],
    'status',
    ['failureReason', { description: 'e.g. not_paid_before_expiry' }],
    'amount',
    'currency',
    ['fee', { description: 'Always 0: funding your balance is free' }],
    'accountType',
    'countryCode',
    ['networkId', { description: 'The bank the account is at' }],
    ['bankInfo', { omitWhenNull: true, description: 'The account to pay into by bank transfer, in your name, unique to this funding' }],
    'providerReference',
    ['expiresAt', { description: 'When an unpaid funding expires: pay before it' }],
    ...TIMES,
  ],
});

// ---------------------------------------------------------------------------------------------
// A transaction's history entry.

export const TRANSACTION_STATUS_CHANGE = defineRecord<TransactionEvent>()({
  name: 'TransactionStatusChange',
  description: 'One entry of a transaction’s history.',
  fields: {
    fromStatus: {
      type: enumOf(TRANSACTION_STATUSES, 'TransactionStatus'),
      nullable: true,
      description: 'Null for the first entry (creation).',
      rest: { description: 'Null for the first entry (creation)' },
    },
    toStatus: { type: enumOf(TRANSACTION_STATUSES, 'TransactionStatus') },
    reason: {
      type: text,
      nullable: true,
      description: 'Why: "initiated", "provider", "simulation", "expiry" or a failure reason.',
      rest: { description: 'Why: "initiated", "provider", "simulation", "expiry" or a failure reason' },
    },
    occurredAt: { type: timestamp },
  },
});

export const TransactionStatusChangeRest = restView(TRANSACTION_STATUS_CHANGE, {
  id: 'TransactionStatusChange',
  description: 'One entry of a transaction’s history.',
  fields: ['fromStatus', 'toStatus', 'reason', 'occurredAt'],
});

// ---------------------------------------------------------------------------------------------
// The CSV export (GET /v1/transactions/export.csv): its columns, in order. A column that is a
// public field is named by it (its REST name, its value); the others say what they show.

/** What a row shows of the transaction's customer. */
export interface CsvCustomer {
  firstName: string;
  lastName: string;
  email: string;
}

/** What a CSV cell knows besides the transaction: its customer, its counterparty, and each currency's minor unit. */
export interface CsvContext {
  customer: CsvCustomer | undefined;
  counterparty: Counterparty;
  minorUnitOf: (currency: string) => number | undefined;
}

interface CsvColumn {
  header: string;
  cell: (t: Transaction, row: CsvContext) => string;
}

/** Decimals as the currency has them. */
function csvAmount(value: Decimal | null, currency: string | null, row: CsvContext): string {
  if (value === null) return '';
  const minorUnit = currency ? row.minorUnitOf(currency) : undefined;
  return minorUnit === undefined ? value.toFixed() : formatAmount(value, minorUnit);
}

/** A public field's column: its REST name, its value written by `write`. */
function fieldColumn<V>(name: Field, write: (value: V, t: Transaction, row: CsvContext) => string): CsvColumn {
  const spec = TRANSACTION.fields[name] as FieldSpec<Transaction>;
  const read = readerOf(name, spec) as (t: Transaction) => V;
  return { header: wireName(name, spec as FieldSpec<never>), cell: (t, row) => write(read(t), t, row) };
}

const isoCell = (d: Date | null) => (d ? d.toISOString() : '');
/** What moves, in `currency`: a transfer's source amount (what the merchant sends). */
const csvCurrency = (t: Transaction) => (transfer(t) ? t.sourceCurrency : t.currency);

/**
 * `amount` is what moves in `currency` (a transfer's source amount: what the merchant sends), `fee`
 * is in the same currency (what was charged: 0 on a failed or expired row, feeCharged); decimals as
 * the currency has them; times ISO 8601 in UTC. `customer_*` is the transaction's customer (a
 * transfer's sender); `counterparty_*` who is on the other side (counterparty.ts: a transfer's or
 * payout's beneficiary, a collection's sender), its account masked. Text from outside is guarded
 * against formula injection (textCell).
 */
export const TRANSACTION_CSV: readonly CsvColumn[] = [
  fieldColumn('createdAt', isoCell),
  fieldColumn('reference', textCell),
  fieldColumn('externalReference', textCell),
  fieldColumn('type', (kind: string) => kind),
  fieldColumn('status', (status: string) => status),
  { header: 'amount', cell: (t, row) => csvAmount(transfer(t) ? t.sourceAmount : t.amount, csvCurrency(t), row) },
  { header: 'currency', cell: (t) => quoted(csvCurrency(t)) },
  fieldColumn('fee', (fee: Decimal | null, t, row) => csvAmount(fee, csvCurrency(t), row)),
  fieldColumn('destinationAmount', (amount: Decimal | null, t, row) => csvAmount(amount, t.destinationCurrency, row)),
  fieldColumn('destinationCurrency', quoted),
  { header: 'customer_name', cell: (_t, { customer }) => textCell(customer ? fullName(customer) : null) },
  { header: 'customer_email', cell: (_t, { customer }) => textCell(customer?.email) },
  fieldColumn('customerUuid', quoted),
  fieldColumn('failureReason', textCell),
  fieldColumn('completedAt', isoCell),
  // Added last (issue 41), so that a reader of the columns above by position reads them as before.
  { header: 'counterparty_name', cell: (_t, { counterparty }) => textCell(counterparty.name) },
  { header: 'counterparty_account', cell: (_t, { counterparty }) => textCell(counterparty.account) },
];
