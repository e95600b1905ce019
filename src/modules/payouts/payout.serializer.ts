import { z } from 'zod';
import { csvLine, textCell } from '../../shared/csv';
import { formatAmount, toJsonMoney, type Decimal } from '../../shared/money';
import { currency, money, record, type RecordOf } from '../../shared/records';
import { BalanceTransactionRecord, serializeBalanceTransaction } from '../ledger/ledger.serializer';
import type { BalanceTransaction } from '../ledger/ledger.service';
import { PayoutRecord, serializePayout, type Payout } from '../transactions/kinds/payout/payout.record';
import type { PayoutReport } from './payout.report';
import type { UpcomingPayout } from './payout.service';

/*
 * A payout's report as REST shows it (issue 38): JSON (the payout, its figures, the balance transactions it settles)
 * or CSV (one line per balance transaction, then the carried amounts and the total, whose net is the payout's amount).
 */

export { PayoutRecord, serializePayout };

export const UpcomingPayoutRecord = record(
  'UpcomingPayout',
  z.object({
    currency,
    scheduled_at: z.string().nullable().describe('The next cut-off (ISO 8601); null: your schedule is manual'),
    expected_amount: money.describe('What it would pay were the window to close now (0 under the minimum, or without a destination): an estimate'),
    minimum_amount: money,
    destination: z
      .object({ account_name: z.string(), account_number_masked: z.string() })
      .nullable()
      .describe('Where it would go; null: no active destination'),
  }),
  'Your next automatic payout in a currency, as things stand.',
);

export function serializeUpcomingPayout(u: UpcomingPayout): RecordOf<typeof UpcomingPayoutRecord> {
  return {
    currency: u.currency,
    scheduled_at: u.scheduledAt?.toISOString() ?? null,
    expected_amount: toJsonMoney(u.expectedAmount),
    minimum_amount: toJsonMoney(u.minimum),
    destination: u.destination && { account_name: u.destination.accountName, account_number_masked: u.destination.masked },
  };
}

export const PayoutReportRecord = record(
  'PayoutReport',
  z.object({
    payout: PayoutRecord,
    summary: z.object({
      currency,
      gross_collected: money.describe('Collections and payments, before fees'),
      fees: money.describe('Every fee charged (negative), less any given back'),
      refunds: money.describe('Refunds (negative), and failed refunds’ money back'),
      transfers: money.describe('Transfers (negative), and failed transfers’ money back'),
      adjustments: money.describe('Operator adjustments and sandbox top-ups'),
      payouts: money.describe('Manual payouts (negative), and failed payouts’ money back'),
      carried_in: money.describe('What the previous window could not pay (available did not cover it)'),
      carried_out: money.describe('What this window leaves for the next (subtracted)'),
      net: money.describe('= the payout’s amount, to the minor unit'),
      balance_transactions: z.number().int(),
    }),
    balance_transactions: z.array(BalanceTransactionRecord),
  }),
  'What a payout pays, itemised: its figures add up to its amount. A manual payout settles no balance transactions.',
);

export function serializePayoutReport(payout: Payout, r: PayoutReport, entries: BalanceTransaction[]): RecordOf<typeof PayoutReportRecord> {
  return {
    payout: serializePayout(payout),
    summary: {
      currency: r.currency,
      gross_collected: toJsonMoney(r.grossCollected),
      fees: toJsonMoney(r.fees),
      refunds: toJsonMoney(r.refunds),
      transfers: toJsonMoney(r.transfers),
      adjustments: toJsonMoney(r.adjustments),
      payouts: toJsonMoney(r.payouts),
      carried_in: toJsonMoney(r.carriedIn),
      carried_out: toJsonMoney(r.carriedOut),
      net: toJsonMoney(r.net),
      balance_transactions: r.count,
    },
    balance_transactions: entries.map(serializeBalanceTransaction),
  };
}

const PAYOUT_REPORT_CSV_COLUMNS = ['row', 'id', 'type', 'currency', 'amount', 'fee', 'net', 'source_reference', 'created_at'] as const;

/** The report as CSV: the net column of every line but the last adds up to the last line's, the payout's amount. */
export function payoutReportCsv(payout: Payout, r: PayoutReport, entries: BalanceTransaction[], minorUnit: number): string {
  const a = (d: Decimal) => formatAmount(d, minorUnit);
  let text = csvLine([...PAYOUT_REPORT_CSV_COLUMNS]);
  for (const e of entries) {
    text += csvLine(['entry', e.id, e.type, e.currency, a(e.amount), a(e.fee), a(e.net), textCell(e.sourceReference), e.createdAt.toISOString()]);
  }
  if (!r.carriedIn.isZero()) text += csvLine(['carried_in', '', '', r.currency, a(r.carriedIn), '0', a(r.carriedIn), '', '']);
  if (!r.carriedOut.isZero()) text += csvLine(['carried_out', '', '', r.currency, a(r.carriedOut.negated()), '0', a(r.carriedOut.negated()), '', '']);
  text += csvLine(['payout', payout.id, payout.automatic ? 'automatic' : 'manual', r.currency, a(r.net), '', a(r.net), '', payout.createdAt.toISOString()]);
  return text;
}
