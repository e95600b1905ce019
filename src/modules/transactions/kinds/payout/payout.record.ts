import { z } from 'zod';
import type { Decimal } from '../../../../shared/money';
import { toJsonMoney } from '../../../../shared/money';
import { currency, money, record, timestamp, type RecordOf } from '../../../../shared/records';
import { maskAccount } from '../../counterparty';
import { feeCharged } from '../../transaction.fee';
import type { PayoutTransaction } from '../../transaction.record';

/*
 * A payout (issue 38) as REST, GraphQL and the `payout.*` webhooks show it: built from its transaction (the money
 * movement: amount, fee, status, destination, trace) and, where there is one, its row in `payout` (what an automatic
 * payout settles). The event payload is built from the transaction alone, so it lives with the kind.
 */

export const PAYOUT_STATUSES = ['pending', 'in_transit', 'paid', 'failed', 'canceled'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** Where a payout goes, as it may be shown: never the whole account number. */
interface PayoutDestinationView {
  accountType: 'bank' | 'momo';
  countryCode: string;
  networkId: string;
  networkName: string | null;
  accountName: string;
  /** `••••0031`. */
  masked: string;
}

export interface Payout {
  id: string;
  merchantId: string;
  currency: string;
  amount: Decimal;
  fee: Decimal;
  status: PayoutStatus;
  automatic: boolean;
  /** An automatic payout's window: the local date of its cut-off. */
  windowKey: string | null;
  destination: PayoutDestinationView | null;
  traceReference: string | null;
  transactionReference: string | null;
  failureReason: string | null;
  expectedArrivalAt: Date;
  createdAt: Date;
  completedAt: Date | null;
}

/**
 * When the money should reach the destination: a wallet within the hour, a bank account the next day (T+1, as local
 * bank settlements are paid). An estimate shown to the merchant, never a promise the books rely on.
 */
export function expectedArrival(accountType: 'bank' | 'momo', sentAt: Date): Date {
  return new Date(sentAt.getTime() + (accountType === 'momo' ? 3_600_000 : 86_400_000));
}

const STATUS_OF: Record<PayoutTransaction['status'], PayoutStatus> = {
  initiating: 'pending',
  processing: 'in_transit',
  requires_action: 'in_transit',
  successful: 'paid',
  failed: 'failed',
  expired: 'failed',
};

/** A sent payout's status: its transaction's. */
export const payoutStatusOf = (status: PayoutTransaction['status']): PayoutStatus => STATUS_OF[status];

/** A payout as its transaction shows it (`networkName`: the reference data's name of its bank or wallet network). */
export function payoutOfTransaction(txn: PayoutTransaction, networkName: string | null): Payout {
  return {
    id: txn.externalReference,
    merchantId: txn.merchantId,
    currency: txn.currency,
    amount: txn.amount,
    fee: feeCharged(txn),
    status: STATUS_OF[txn.status],
    automatic: txn.description !== null,
    windowKey: txn.description,
    destination: {
      accountType: txn.accountType,
      countryCode: txn.countryCode,
      networkId: txn.networkId,
      networkName,
      accountName: txn.accountName,
      masked: maskAccount(txn.accountNumber),
    },
    traceReference: txn.providerReference,
    transactionReference: txn.reference,
    failureReason: txn.failureReason,
    expectedArrivalAt: expectedArrival(txn.accountType, txn.createdAt),
    createdAt: txn.createdAt,
    completedAt: txn.completedAt,
  };
}

const orNull = <T extends z.ZodType>(s: T) => s.nullable();

export const PayoutRecord = record(
  'Payout',
  z.object({
    id: z.string().describe('`po_…`'),
    object: z.literal('payout'),
    amount: money.describe('What left your balance'),
    fee: money.describe('Taken from amount; the destination receives amount − fee. 0 once the payout has failed or was canceled: nothing was charged'),
    currency,
    status: z.enum(PAYOUT_STATUSES),
    automatic: z.boolean().describe('Made by your payout schedule (true) or by POST /v1/payouts (false)'),
    window: orNull(z.string()).describe('An automatic payout’s schedule window: the local date of its cut-off'),
    destination: orNull(
      z.object({
        account_type: z.enum(['bank', 'momo']),
        country_code: z.string(),
        network_id: z.string(),
        network_name: orNull(z.string()),
        account_name: z.string(),
        account_number_masked: z.string(),
      }),
    ),
    trace_reference: orNull(z.string()).describe('The provider’s trace reference (a NIP session id, a MoMo financial transaction id)'),
    transaction_reference: orNull(z.string()).describe('Its money movement, `pot_…` (GET /v1/transactions/{reference})'),
    failure_reason: orNull(z.string()),
    expected_arrival_at: timestamp,
    created_at: timestamp,
    completed_at: orNull(timestamp),
  }),
  'A payout of your balance to your own bank account or wallet. Also the payload of payout.* webhooks.',
);

export function serializePayout(p: Payout): RecordOf<typeof PayoutRecord> {
  const d = p.destination;
  return {
    id: p.id,
    object: 'payout',
    amount: toJsonMoney(p.amount),
    fee: toJsonMoney(p.fee),
    currency: p.currency,
    status: p.status,
    automatic: p.automatic,
    window: p.windowKey,
    destination: d && {
      account_type: d.accountType,
      country_code: d.countryCode,
      network_id: d.networkId,
      network_name: d.networkName,
      account_name: d.accountName,
      account_number_masked: d.masked,
    },
    trace_reference: p.traceReference,
    transaction_reference: p.transactionReference,
    failure_reason: p.failureReason,
    expected_arrival_at: p.expectedArrivalAt.toISOString(),
    created_at: p.createdAt.toISOString(),
    completed_at: p.completedAt?.toISOString() ?? null,
  };
}
