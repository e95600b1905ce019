import { Decimal } from '../../shared/money';
import type { BankInfo } from '../../providers/connector';
import type { TransactionKind, TransactionStatus } from './transaction.state';

/**
 * Every column of the `transaction` table, one field each; kind-specific columns are null
 * where they do not apply. The record is one of the kinds below, which say which of these
 * a kind always has. Read and written by direct statements (transaction.store.ts), not
 * through the ORM's unit of work: every operation on it is one insert, one read or one
 * conditional update.
 */
export interface TransactionColumns {
  id: string;
  merchantId: string;
  kind: TransactionKind;
  /** Assigned by the service. */
  reference: string;
  /** The merchant's own reference, unique per merchant across every kind. */
  externalReference: string;
  status: TransactionStatus;
  customerId: string | null;
  accountType: 'bank' | 'momo' | null;
  countryCode: string | null;
  channelId: string | null;
  networkId: string | null;
  accountNumber: string | null;
  accountName: string | null;
  dialCode: string | null;
  reason: string | null;
  /** Collections, payments and refunds: the amount the sender pays (or is given back), in `currency`. */
  amount: Decimal | null;
  currency: string | null;
  /** Transfers: what the merchant sends and what the beneficiary receives. */
  sourceAmount: Decimal | null;
  sourceCurrency: string | null;
  destinationAmount: Decimal | null;
  destinationCurrency: string | null;
  rate: Decimal | null;
  /** Decided at initiation; null on a collection or payment made before fees were charged. */
  fee: Decimal | null;
  quoteId: string | null;
  bankInfo: BankInfo | null;
  virtualAccountNumber: string | null;
  providerReference: string | null;
  /** The provider connector that carries it (routing picks it at creation; it never changes). */
  connector: string;
  failureReason: string | null;
  /** Payments: how the customer pays (only `card` so far). */
  paymentMethod: 'card' | null;
  /** Payments: what is kept of the card (never its number, CVC or expiry). */
  cardBrand: string | null;
  cardLast4: string | null;
  /** A keyed hash of the card number, per merchant: the same card gives the same fingerprint at one merchant only. */
  cardFingerprint: string | null;
  /** Payments: where the cardholder's browser goes after 3-D Secure. */
  redirectUrl: string | null;
  description: string | null;
  /** Payments awaiting 3-D Secure: the page the cardholder authenticates on (sealed at rest; null once decided). */
  nextActionUrl: string | null;
  /** Refunds: the payment given back. */
  parentId: string | null;
  parentReference: string | null;
  /** Payments: what its refunds hold (in flight or done); never more than the amount. */
  refundedAmount: Decimal;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
  /** Bank collections: when an unpaid one expires. Payments awaiting 3-D Secure: when the authentication does. */
  expiresAt: Date | null;
}

/** What a collection and a transfer always have: the sender's or beneficiary's route and account, checked at creation. */
interface CrossBorderColumns extends TransactionColumns {
  customerId: string;
  accountType: 'bank' | 'momo';
  countryCode: string;
  channelId: string;
  networkId: string;
  accountNumber: string;
  dialCode: string;
  reason: string;
}

/**
 * A collection: the sender pays `amount` in `currency`. A bank collection's virtual account is
 * held in the sender's name (`accountName`) and is known (`bankInfo`) once the provider answered.
 */
export interface CollectionTransaction extends CrossBorderColumns {
  kind: 'collection';
  amount: Decimal;
  currency: string;
}

/** A transfer: the merchant sends `sourceAmount` (plus `fee`); `accountName` receives `destinationAmount`. */
export interface TransferTransaction extends CrossBorderColumns {
  kind: 'transfer';
  accountName: string;
  sourceAmount: Decimal;
  sourceCurrency: string;
  destinationAmount: Decimal;
  destinationCurrency: string;
  rate: Decimal;
  fee: Decimal;
}

/** A domestic card payment of `amount` in `currency`. */
export interface PaymentTransaction extends TransactionColumns {
  kind: 'payment';
  amount: Decimal;
  currency: string;
  paymentMethod: 'card';
  cardBrand: string;
  cardLast4: string;
  cardFingerprint: string;
}

/** A refund of (part of) the payment `parentId`: `amount` in the payment's currency, for `reason`. */
export interface RefundTransaction extends TransactionColumns {
  kind: 'refund';
  amount: Decimal;
  currency: string;
  fee: Decimal;
  reason: string;
  parentId: string;
  parentReference: string;
}

/** One transaction, of one kind: narrowing on `kind` gives the fields that kind always has. */
export type Transaction = CollectionTransaction | TransferTransaction | PaymentTransaction | RefundTransaction;
export type TransactionOf<K extends TransactionKind> = Extract<Transaction, { kind: K }>;
/** Money in, settled into the merchant's balance: collections and payments. */
export type MoneyInTransaction = CollectionTransaction | PaymentTransaction;

/** The columns a kind always has that another kind may not: what a row of that kind must have non-null. */
export type KindColumns<K extends TransactionKind> = {
  [F in keyof TransactionOf<K>]-?: null extends TransactionColumns[F & keyof TransactionColumns] ? (null extends TransactionOf<K>[F] ? never : F) : never;
}[keyof TransactionOf<K>];

/**
 * Each kind's own columns, checked on every row read (TransactionStore): a row that lacks one
 * fails there, loudly, instead of passing nulls on. Listed as objects so the compiler holds
 * each list to exactly its kind's type.
 */
/** The columns every cross-border transaction (collection, transfer) has: its route and its account. */
const CROSS_BORDER_COLUMNS = {
  customerId: true,
  accountType: true,
  countryCode: true,
  channelId: true,
  networkId: true,
  accountNumber: true,
  dialCode: true,
  reason: true,
} as const;

const KIND_COLUMNS: { [K in TransactionKind]: Record<KindColumns<K>, true> } = {
  collection: {
    ...CROSS_BORDER_COLUMNS,
    amount: true,
    currency: true,
  },
  transfer: {
    ...CROSS_BORDER_COLUMNS,
    accountName: true,
    sourceAmount: true,
    sourceCurrency: true,
    destinationAmount: true,
    destinationCurrency: true,
    rate: true,
    fee: true,
  },
  payment: { amount: true, currency: true, paymentMethod: true, cardBrand: true, cardLast4: true, cardFingerprint: true },
  refund: { amount: true, currency: true, fee: true, reason: true, parentId: true, parentReference: true },
};

/** Per kind, the columns its rows must have (non-null). */
const REQUIRED_COLUMNS = Object.fromEntries(
  Object.entries(KIND_COLUMNS).map(([kind, columns]) => [kind, Object.keys(columns) as Array<keyof TransactionColumns>]),
) as unknown as Record<TransactionKind, ReadonlyArray<keyof TransactionColumns>>;

/**
 * The record of a row's kind, once it is checked that the row has that kind's columns: one
 * lookup and a few null checks per row, or an error naming the kind or the missing column.
 */
export function asTransaction(columns: TransactionColumns): Transaction {
  const required = REQUIRED_COLUMNS[columns.kind];
  if (!required) throw new Error(`transaction ${columns.id} has an unknown kind: ${String(columns.kind)}`);
  for (const column of required) {
    if (columns[column] === null) throw new Error(`${columns.kind} ${columns.id} has no ${column}`);
  }
  return columns as Transaction;
}

/** `after`, read again from the row `before` was read from: a row never changes kind, so it is of `before`'s. */
export function sameKind<T extends Transaction>(before: T, after: Transaction): T;
export function sameKind<T extends Transaction>(before: T, after: Transaction | null): T | null;
export function sameKind<T extends Transaction>(_before: T, after: Transaction | null): T | null {
  return after as T | null;
}

/** Whether a transaction's deadline (an unpaid bank collection's, a 3-D Secure authentication's) has passed at `now`. */
export function pastDeadline(t: Pick<Transaction, 'expiresAt'>, now: Date): boolean {
  return t.expiresAt !== null && now >= t.expiresAt;
}

/** One state change in a transaction's history. */
export interface TransactionEvent {
  id: string;
  transactionId: string;
  fromStatus: TransactionStatus | null;
  toStatus: TransactionStatus;
  reason: string | null;
  occurredAt: Date;
}

/** A transaction as JSON (decimals as strings, times as ISO-8601): what pub/sub carries between instances. */
export type TransactionWire = {
  [K in keyof TransactionColumns]: TransactionColumns[K] extends Decimal | null
    ? string | null
    : TransactionColumns[K] extends Date | null
      ? string | null
      : TransactionColumns[K];
};

const WIRE_DECIMALS = ['amount', 'sourceAmount', 'destinationAmount', 'rate', 'fee', 'refundedAmount'] as const;
const WIRE_DATES = ['createdAt', 'updatedAt', 'completedAt', 'expiresAt'] as const;

export function toWire(t: Transaction): TransactionWire {
  const wire: Record<string, unknown> = { ...t };
  for (const f of WIRE_DECIMALS) wire[f] = t[f]?.toFixed() ?? null;
  for (const f of WIRE_DATES) wire[f] = t[f]?.toISOString() ?? null;
  return wire as TransactionWire;
}

export function fromWire(w: TransactionWire): Transaction {
  const t: Record<string, unknown> = { ...w };
  for (const f of WIRE_DECIMALS) t[f] = w[f] === null ? null : new Decimal(w[f]);
  for (const f of WIRE_DATES) t[f] = w[f] === null ? null : new Date(w[f]);
  return t as unknown as Transaction; // written by toWire from a record
}

/** Every column a kind does not set. */
export const BLANK: Omit<
  TransactionColumns,
  'id' | 'merchantId' | 'kind' | 'reference' | 'externalReference' | 'status' | 'connector' | 'createdAt' | 'updatedAt'
> = {
  customerId: null,
  accountType: null,
  countryCode: null,
  channelId: null,
  networkId: null,
  accountNumber: null,
  accountName: null,
  dialCode: null,
  reason: null,
  amount: null,
  currency: null,
  sourceAmount: null,
  sourceCurrency: null,
  destinationAmount: null,
  destinationCurrency: null,
  rate: null,
  fee: null,
  quoteId: null,
  bankInfo: null,
  virtualAccountNumber: null,
  providerReference: null,
  failureReason: null,
  paymentMethod: null,
  cardBrand: null,
  cardLast4: null,
  cardFingerprint: null,
  redirectUrl: null,
  description: null,
  nextActionUrl: null,
  parentId: null,
  parentReference: null,
  refundedAmount: new Decimal(0),
  completedAt: null,
  expiresAt: null,
};
