import { z } from 'zod';
import { record, type RecordOf } from '../../shared/records';
import {
  BankInfoRest,
  BeneficiaryRest,
  CollectionInitiationRest,
  CollectionRest,
  FundingRest,
  PaymentRest,
  PayoutTransactionRest,
  RefundRest,
  TransactionStatusChangeRest,
  TransferInitiationRest,
  TransferRest,
} from './transaction.definition';
import type {
  CollectionTransaction,
  FundingTransaction,
  PaymentTransaction,
  RefundTransaction,
  Transaction,
  TransactionEvent,
  TransferTransaction,
} from './transaction.record';

/*
 * The records of a transaction as REST answers them and webhooks carry them. Each is a view of
 * the one definition (transaction.definition.ts): its zod schema (the OpenAPI component of its
 * name) and its serializer come from there; this file names them for the routes.
 */

// Registered here, in this order: the OpenAPI document lists its components as they are registered.
BankInfoRest.registered();
BeneficiaryRest.registered();
/** One entry of a transaction's status history (GraphQL: Transaction.history). */
export const TransactionStatusChangeRecord = TransactionStatusChangeRest.registered();
export const CollectionInitiationRecord = CollectionInitiationRest.registered();
export const TransferInitiationRecord = TransferInitiationRest.registered();
export const CollectionRecord = CollectionRest.registered();
export const TransferRecord = TransferRest.registered();
export const PaymentRecord = PaymentRest.registered();
export const RefundRecord = RefundRest.registered();
const PayoutTransactionRecord = PayoutTransactionRest.registered();
export const FundingRecord = FundingRest.registered();

/** Any transaction, by kind (`type`): what the status endpoint answers and transaction webhooks carry. */
export const TransactionRecord = record(
  'Transaction',
  z.discriminatedUnion('type', [CollectionRecord, TransferRecord, PaymentRecord, RefundRecord, PayoutTransactionRecord, FundingRecord]),
  'The full record of any transaction, by kind (`type`). Webhook events carry the same JSON.',
);

export const serializeStatusChange: (e: TransactionEvent) => RecordOf<typeof TransactionStatusChangeRecord> = TransactionStatusChangeRest.serialize;

/** Spec §4.2: what a collection initiation returns (and `next_action` when the payer must approve on a page). */
export const serializeCollectionInitiation: (t: CollectionTransaction) => RecordOf<typeof CollectionInitiationRecord> = CollectionInitiationRest.serialize;

/** CONTRACT §6: what a transfer initiation returns. */
export const serializeTransferInitiation: (t: TransferTransaction) => RecordOf<typeof TransferInitiationRecord> = TransferInitiationRest.serialize;

/**
 * CONTRACT §7: a card payment, as its initiation, verification, the status
 * endpoint and its webhooks show it. Of the card only brand, last4 and the
 * fingerprint exist. `next_action` is set while the payment awaits 3-D Secure.
 */
export const serializePayment: (t: PaymentTransaction) => RecordOf<typeof PaymentRecord> = PaymentRest.serialize;

/** A funding of the merchant's balance, as POST /v1/balance/funding, the status endpoint and its webhooks show it. */
export const serializeFunding: (t: FundingTransaction) => RecordOf<typeof FundingRecord> = FundingRest.serialize;

/** A refund, as POST /v1/refunds, GET /v1/refunds/{reference}, the status endpoint and its webhooks show it. */
export const serializeRefund: (t: RefundTransaction) => RecordOf<typeof RefundRecord> = RefundRest.serialize;

const serializers: { [K in Transaction['kind']]: (t: Transaction) => RecordOf<typeof TransactionRecord> } = {
  collection: CollectionRest.serialize,
  transfer: TransferRest.serialize,
  payment: PaymentRest.serialize,
  refund: RefundRest.serialize,
  payout: PayoutTransactionRest.serialize,
  funding: FundingRest.serialize,
};

/**
 * The full record the status endpoint returns for any kind. Webhook events carry
 * the same JSON, so a receiver sees exactly what the status endpoint shows.
 */
export function serializeTransaction(t: Transaction): RecordOf<typeof TransactionRecord> {
  return serializers[t.kind](t);
}
