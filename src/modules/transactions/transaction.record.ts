import { Decimal } from '../../shared/money';
import type { BankInfo } from '../../providers/connector';
import type { TransactionKind, TransactionStatus } from './transaction.state';

/**
 * One transaction of any kind, as stored in the `transaction` table; kind-specific
 * columns are null where they do not apply. Read and written by direct statements
 * (transaction.store.ts), not through the ORM's unit of work: every operation on it
 * is one insert, one read or one conditional update.
 */
export interface Transaction {
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
  /** Collections: the amount the sender pays, in `currency`. */
  amount: Decimal | null;
  currency: string | null;
  /** Transfers: what the merchant sends and what the beneficiary receives. */
  sourceAmount: Decimal | null;
  sourceCurrency: string | null;
  destinationAmount: Decimal | null;
  destinationCurrency: string | null;
  rate: Decimal | null;
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
  [K in keyof Transaction]: Transaction[K] extends Decimal | null ? string | null : Transaction[K] extends Date | null ? string | null : Transaction[K];
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
  return t as unknown as Transaction;
}

/** Every column a kind does not set. */
export const BLANK: Omit<Transaction, 'id' | 'merchantId' | 'kind' | 'reference' | 'externalReference' | 'status' | 'connector' | 'createdAt' | 'updatedAt'> = {
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
