import { z } from 'zod';
import { csvLine, textCell } from '../../shared/csv';
import { chunksOf } from '../../shared/streaming';
import { toJsonMoney, type Decimal } from '../../shared/money';
import { currency, money as moneyField, record, timestamp, type RecordOf } from '../../shared/records';
import { BalanceTransactionRest } from './balance-transaction.definition';
import { PRICED_KINDS, type FeeRule, type PricedKind } from './fee-schedule';
import { BALANCE_TRANSACTION_TYPES } from './ledger.model';
import type { Balance, BalanceTransaction, Statement } from './ledger.service';

const money = (d: Decimal) => toJsonMoney(d);

export const BalanceRecord = record(
  'Balance',
  z.object({
    currency,
    available: moneyField.describe('Yours to pay out and refund from'),
    pending: moneyField.describe('Settled collections and payments not yet released (the settlement delay)'),
    reserved: moneyField.describe('Held for transfers and refunds in flight'),
    disputed: moneyField.describe('Held by open chargebacks: their amounts and dispute fees'),
    owed: moneyField.describe('What you owe: the part of a chargeback’s hold your available balance could not cover; credits repay it first'),
  }),
);

const balanceTransactionType = z.enum(BALANCE_TRANSACTION_TYPES);
/** One movement of available + pending: a view of its definition (balance-transaction.definition.ts). */
export const BalanceTransactionRecord = BalanceTransactionRest.registered();

export const StatementRecord = record(
  'Statement',
  z.object({
    currency,
    from: timestamp,
    to: timestamp,
    opening_balance: moneyField,
    closing_balance: moneyField.describe('opening_balance + the sum of every entry’s net'),
    totals: z.array(z.object({ type: balanceTransactionType, count: z.int(), amount: moneyField, fee: moneyField, net: moneyField })),
    entries: z.array(BalanceTransactionRecord),
  }),
);

export const FeeRuleRecord = record(
  'FeeRule',
  z.object({
    kind: z.enum(PRICED_KINDS),
    currency: currency.nullable().describe('null: every currency'),
    percent: z.string(),
    fixed: z.string(),
  }),
);

/** GET /v1/balances: one per currency. */
export function serializeBalance(b: Balance): RecordOf<typeof BalanceRecord> {
  return {
    currency: b.currency,
    available: money(b.available),
    pending: money(b.pending),
    reserved: money(b.reserved),
    disputed: money(b.disputed),
    owed: money(b.owed),
  };
}

/** GET /v1/balance-transactions: one movement of available + pending. */
export const serializeBalanceTransaction: (t: BalanceTransaction) => RecordOf<typeof BalanceTransactionRecord> = BalanceTransactionRest.serialize;

/**
 * GET /v1/reports/statement as JSON, written as its entries arrive: the envelope and the head as
 * JSON.stringify writes them, then each entry, then the closing brackets; the same bytes as the
 * whole document stringified at once (entries is the record's last field).
 */
export async function* statementJson(s: Statement, message: string): AsyncGenerator<string> {
  const head = JSON.stringify({
    status: 'success',
    message,
    data: {
      currency: s.currency,
      from: s.from.toISOString(),
      to: s.to.toISOString(),
      opening_balance: money(s.openingBalance),
      closing_balance: money(s.closingBalance),
      totals: s.totals.map((t) => ({ type: t.type, count: t.count, amount: money(t.amount), fee: money(t.fee), net: money(t.net) })),
      entries: [],
    } satisfies RecordOf<typeof StatementRecord>,
  });
  const close = ']}}';
  yield head.slice(0, -close.length); // up to and with the entries’ opening bracket
  let first = true;
  for await (const batch of s.entries) {
    for (const chunk of chunksOf(batch)) {
      const json = chunk.map((e) => JSON.stringify(serializeBalanceTransaction(e))).join(',');
      yield first ? json : `,${json}`;
      first = false;
    }
  }
  yield close;
}

/** A merchant's own price for one kind (and currency, or every currency), as the operator API shows it. */
export function serializeFeeRule(r: FeeRule & { kind: PricedKind; currency: string | null }): RecordOf<typeof FeeRuleRecord> {
  return { kind: r.kind, currency: r.currency, percent: r.percent.toFixed(), fixed: r.fixed.toFixed() };
}

/** The statement CSV's first section: its opening balance, every entry, its closing balance. */
const STATEMENT_CSV_COLUMNS = [
  'row',
  'id',
  'type',
  'currency',
  'amount',
  'fee',
  'net',
  'balance_after',
  'source_reference',
  'external_reference',
  'created_at',
];
/** Its second section, after a blank line: the totals by type, each with its own columns. */
const STATEMENT_TOTALS_CSV_COLUMNS = ['row', 'type', 'currency', 'count', 'amount', 'fee', 'net'];

/** One entry of the statement CSV: the gateway's reference (`source_reference`) and the merchant's beside it. */
function statementCsvLine(e: BalanceTransaction, amount: (d: Decimal) => string): string {
  return csvLine([
    'entry',
    e.id,
    e.type,
    e.currency,
    amount(e.amount),
    amount(e.fee),
    amount(e.net),
    amount(e.balanceAfter),
    textCell(e.sourceReference),
    textCell(e.externalReference),
    e.createdAt.toISOString(),
  ]);
}

/**
 * GET /v1/reports/statement as CSV (RFC 4180), written as its entries arrive. Two sections, each with its header:
 * the balances (the opening balance, every entry in posting order with the balance after it, the closing balance),
 * then, after a blank line, the totals by type (their count in `count`, not in a column of the first section's).
 */
export async function* statementCsv(s: Statement): AsyncGenerator<string> {
  const amount = (d: Decimal) => d.toFixed(s.minorUnit);
  const balanceLine = (row: string, balance: Decimal, at: Date) => csvLine([row, '', '', s.currency, '', '', '', amount(balance), '', '', at.toISOString()]);
  yield csvLine(STATEMENT_CSV_COLUMNS) + balanceLine('opening_balance', s.openingBalance, s.from);
  for await (const batch of s.entries) {
    for (const chunk of chunksOf(batch)) yield chunk.map((e) => statementCsvLine(e, amount)).join('');
  }
  let text = balanceLine('closing_balance', s.closingBalance, s.to);
  text += '\r\n' + csvLine(STATEMENT_TOTALS_CSV_COLUMNS);
  for (const t of s.totals) text += csvLine(['total', t.type, s.currency, String(t.count), amount(t.amount), amount(t.fee), amount(t.net)]);
  yield text;
}
