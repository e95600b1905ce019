import { toJsonMoney, type Decimal } from '../../shared/money';
import type { Balance, BalanceTransaction, Statement } from './ledger.service';

const money = (d: Decimal) => toJsonMoney(d);

/** GET /v1/balances: one per currency. */
export function serializeBalance(b: Balance) {
  return { currency: b.currency, available: money(b.available), pending: money(b.pending), reserved: money(b.reserved) };
}

/** GET /v1/balance-transactions: one movement of available + pending. */
export function serializeBalanceTransaction(t: BalanceTransaction) {
  return {
    id: t.id,
    type: t.type,
    currency: t.currency,
    amount: money(t.amount),
    fee: money(t.fee),
    net: money(t.net),
    balance_after: money(t.balanceAfter),
    source_reference: t.sourceReference,
    created_at: t.createdAt.toISOString(),
  };
}

/** GET /v1/reports/statement as JSON. */
export function serializeStatement(s: Statement) {
  return {
    currency: s.currency,
    from: s.from.toISOString(),
    to: s.to.toISOString(),
    opening_balance: money(s.openingBalance),
    closing_balance: money(s.closingBalance),
    totals: s.totals.map((t) => ({ type: t.type, count: t.count, amount: money(t.amount), fee: money(t.fee), net: money(t.net) })),
    entries: s.entries.map(serializeBalanceTransaction),
  };
}

/** A text cell a spreadsheet must not read as a formula (CSV injection): one that starts with = + - @ is quoted with a leading '. */
function cell(value: string | null): string {
  if (value === null) return '';
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * GET /v1/reports/statement as CSV (RFC 4180): the opening balance, every entry in posting
 * order with the balance after it, the closing balance, then the totals by type.
 */
export function statementCsv(s: Statement): string {
  const rows: string[] = [];
  const amount = (d: Decimal) => d.toFixed(s.minorUnit);
  const line = (...cells: Array<string | number>) => rows.push(cells.map((c) => (typeof c === 'number' ? String(c) : c)).join(','));
  line('row', 'id', 'type', 'currency', 'amount', 'fee', 'net', 'balance_after', 'source_reference', 'created_at');
  line('opening_balance', '', '', s.currency, '', '', '', amount(s.openingBalance), '', s.from.toISOString());
  for (const e of s.entries) {
    line(
      'entry',
      e.id,
      e.type,
      e.currency,
      amount(e.amount),
      amount(e.fee),
      amount(e.net),
      amount(e.balanceAfter),
      cell(e.sourceReference),
      e.createdAt.toISOString(),
    );
  }
  line('closing_balance', '', '', s.currency, '', '', '', amount(s.closingBalance), '', s.to.toISOString());
  for (const t of s.totals) line('total', String(t.count), t.type, s.currency, amount(t.amount), amount(t.fee), amount(t.net), '', '', '');
  return `${rows.join('\r\n')}\r\n`;
}
