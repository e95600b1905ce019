import { Decimal } from '../../shared/money';
import type { BlankOf, ColumnsOf } from '../../shared/record-definition';
import { KIND_COLUMNS, TRANSACTION_COLUMNS } from './transaction.definition';
import type { TransactionKind, TransactionStatus } from './transaction.state';

type ColumnDefinitions = typeof TRANSACTION_COLUMNS.definition;

/**
 * Every column of the `transaction` table, one field each (defined once, with its type, in
 * transaction.definition.ts); kind-specific columns are null where they do not apply. The record
 * is one of the kinds below, which say which of these a kind always has. Read and written by
 * direct statements (transaction.store.ts), not through the ORM's unit of work: every operation
 * on it is one insert, one read or one conditional update.
 */
export type TransactionColumns = ColumnsOf<ColumnDefinitions>;

/** The columns a kind always has that another kind may not: what a row of that kind must have non-null. */
export type KindColumns<K extends TransactionKind> = (typeof KIND_COLUMNS)[K][number];

/** A kind's record: its `kind`, and its own columns (KIND_COLUMNS) never null. */
type KindRecord<K extends TransactionKind> = {
  [F in keyof TransactionColumns]: F extends 'kind' ? K : F extends KindColumns<K> ? NonNullable<TransactionColumns[F]> : TransactionColumns[F];
};

/**
 * A collection: the sender pays `amount` in `currency`. A bank collection's virtual account is
 * held in the sender's name (`accountName`) and is known (`bankInfo`) once the provider answered.
 */
export type CollectionTransaction = KindRecord<'collection'>;
/** A transfer: the merchant sends `sourceAmount` (plus `fee`); `accountName` receives `destinationAmount`. */
export type TransferTransaction = KindRecord<'transfer'>;
/** A domestic card payment of `amount` in `currency`. */
export type PaymentTransaction = KindRecord<'payment'>;
/** A refund of (part of) the payment `parentId`: `amount` in the payment's currency, for `reason`. */
export type RefundTransaction = KindRecord<'refund'>;
/** A payout of `amount` (its `fee` taken from it) to the merchant's own account `accountNumber`, held by `accountName`. */
export type PayoutTransaction = KindRecord<'payout'>;
/** A funding of the merchant's own balance: `amount` in `currency`, paid into the account `bankInfo` held in `accountName`. */
export type FundingTransaction = KindRecord<'funding'>;

/** One transaction, of one kind: narrowing on `kind` gives the fields that kind always has. */
export type Transaction = CollectionTransaction | TransferTransaction | PaymentTransaction | RefundTransaction | PayoutTransaction | FundingTransaction;
export type TransactionOf<K extends TransactionKind> = Extract<Transaction, { kind: K }>;
/** Money in, settled into the merchant's balance: collections and payments. */
export type MoneyInTransaction = CollectionTransaction | PaymentTransaction;

/** Per kind, the columns its rows must have (non-null). */
const REQUIRED_COLUMNS: Record<TransactionKind, ReadonlyArray<keyof TransactionColumns>> = KIND_COLUMNS;

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

const WIRE_DECIMALS = [...TRANSACTION_COLUMNS.decimals] as Array<keyof TransactionColumns>;
const WIRE_DATES = TRANSACTION_COLUMNS.dates;

export function toWire(t: Transaction): TransactionWire {
  const wire: Record<string, unknown> = { ...t };
  for (const f of WIRE_DECIMALS) wire[f] = (t[f] as Decimal | null)?.toFixed() ?? null;
  for (const f of WIRE_DATES) wire[f] = (t[f] as Date | null)?.toISOString() ?? null;
  return wire as TransactionWire;
}

export function fromWire(w: TransactionWire): Transaction {
  const t: Record<string, unknown> = { ...w };
  for (const f of WIRE_DECIMALS) t[f] = w[f] === null ? null : new Decimal(w[f] as string);
  for (const f of WIRE_DATES) t[f] = w[f] === null ? null : new Date(w[f] as string);
  return t as unknown as Transaction; // written by toWire from a record
}

/** Every column a kind does not set: the nullable ones null, `refundedAmount` 0. */
export const BLANK: BlankOf<ColumnDefinitions> = TRANSACTION_COLUMNS.blank;
