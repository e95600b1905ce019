import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { Params, type Sql } from '../../db/sql';
import { publishAfterCommit } from '../../events/merchant-events';
import type { PubSub } from '../../events/pubsub';
import { LedgerTopic } from './ledger.topics';
import type { Clock } from '../../shared/clock';
import { AppError, type ErrorDetail } from '../../shared/errors';
import { currencyField, referenceField, requiredText, timestampField, upperCased } from '../../shared/fields';
import type { Logger } from '../../shared/logger';
import { Decimal, formatAmount, parseAmount, parseSignedAmount } from '../../shared/money';
import { UUID_ID, decodeCursor, pageRequestSchema, toPage, type Page } from '../../shared/pagination';
import { keysetBatches } from '../../shared/streaming';
import { parseInput, type Command } from '../../shared/validation';
import {
  BALANCE_TRANSACTION_TYPES,
  isOverdraft,
  merchantAccount,
  move,
  platformAccount,
  posting,
  type BalanceTransactionType,
  type MerchantAccount,
  type Posting,
} from './ledger.model';
import type { AuditContext, AuditEntry, AuditLog } from '../audit/audit-log';
import { postingsSql, refusedForFunds } from './ledger.sql';
import { verifyLedger, verifyLedgerIncrementally, type IncrementalOptions, type IncrementalReport, type LedgerReport, type LegRule } from './ledger.verify';

/** A merchant's balance in one currency. */
export interface Balance {
  currency: string;
  available: Decimal;
  pending: Decimal;
  reserved: Decimal;
  /** Held by open chargebacks (issue 39): their amounts and fees. */
  disputed: Decimal;
  /** What the merchant owes the platform: the part of a chargeback's hold available could not cover; later credits repay it first. */
  owed: Decimal;
}

/** A currency the merchant holds nothing of. */
const emptyBalance = (currency: string): Balance => ({
  currency,
  available: new Decimal(0),
  pending: new Decimal(0),
  reserved: new Decimal(0),
  disputed: new Decimal(0),
  owed: new Decimal(0),
});

/** One movement of a merchant's balance (available + pending), as its finance team reconciles it. */
export interface BalanceTransaction {
  id: string;
  type: BalanceTransactionType;
  currency: string;
  /** What moved, before the fee (negative: money out). */
  amount: Decimal;
  fee: Decimal;
  /** amount − fee: what the balance changed by. */
  net: Decimal;
  balanceAfter: Decimal;
  /** The transaction (or top-up, adjustment) it comes from. */
  sourceReference: string | null;
  /** That transaction's merchant reference (a dispute's: the disputed payment's); null for top-ups and adjustments. */
  externalReference: string | null;
  createdAt: Date;
}

export const balanceTransactionListSchema = pageRequestSchema.extend({
  currency: upperCased(currencyField).nullish(),
  type: z.enum(BALANCE_TRANSACTION_TYPES, { error: `must be one of ${BALANCE_TRANSACTION_TYPES.join(', ')}` }).nullish(),
  createdFrom: timestampField.nullish(),
  createdTo: timestampField.nullish(),
});
export type BalanceTransactionListQuery = Command<typeof balanceTransactionListSchema>;

export const statementSchema = z.object({
  currency: upperCased(currencyField),
  from: timestampField,
  to: timestampField,
});
export type StatementQuery = Command<typeof statementSchema>;

/** One day's money in (collections and payments) and out (transfers and refunds) that succeeded, in one currency. */
interface ActivityDay {
  day: string;
  currency: string;
  collected: Decimal;
  paidOut: Decimal;
}

/** The dashboard's overview: daily volume and how many transactions that reached a final status succeeded. */
export interface Activity {
  days: ActivityDay[];
  /** Final transactions in the period, and those successful (rate = successful / final; null when there were none). */
  final: number;
  successful: number;
}

/** What a statement says before its entries: opening + Σ net of its entries = closing, always. */
interface StatementHead {
  currency: string;
  /** The currency's decimals: what the CSV writes every amount with. */
  minorUnit: number;
  from: Date;
  to: Date;
  openingBalance: Decimal;
  closingBalance: Decimal;
  /** How many entries the statement holds (what `entries` yields, in all). */
  entryCount: number;
  /** By type, in the order each type first appears among the entries. */
  totals: Array<{ type: BalanceTransactionType; count: number; amount: Decimal; fee: Decimal; net: Decimal }>;
}

/** A statement: its head, read and checked at once, and its entries in posting order, read batch by batch as they are written. */
export interface Statement extends StatementHead {
  entries: AsyncIterable<BalanceTransaction[]>;
}

export const topUpSchema = z.object({ currency: upperCased(currencyField), amount: z.unknown() });
export type TopUpCommand = Command<typeof topUpSchema>;

export const adjustmentSchema = z.object({
  currency: upperCased(currencyField),
  /** Signed: "250.00" credits the merchant, "-250.00" debits it. */
  amount: z.unknown(),
  reason: requiredText(500),
  /** The operator's reference: the same reference posts once. */
  reference: referenceField,
});
export type AdjustmentCommand = Command<typeof adjustmentSchema>;

const STATEMENT_MAX_ENTRIES = 100_000;
/** Entries read per query while a statement streams (keyset batches, shared/streaming.ts). */
const STATEMENT_BATCH = 500;

/**
 * A balance transaction's fields, read from `balance_transaction bt`: the merchant's reference is its transaction's,
 * found by the service's (`transaction.reference` is unique: one index lookup a row; a dispute's entries name the
 * disputed payment).
 */
export const BT_SELECT = `bt.id, bt.type, bt.currency, bt.amount, bt.fee, bt.net, bt.balance_after as "balanceAfter",
  bt.source_reference as "sourceReference",
  (select t.external_reference from "transaction" t where t.reference = bt.source_reference and t.merchant_id = bt.merchant_id) as "externalReference",
  bt.created_at as "createdAt"`;

/**
 * A statement's head, in one statement (one snapshot): the balance before `from` (the last entry
 * before it, by the statement index, backwards), and over [from, to) the totals by type (exact
 * decimals, as text), the number of entries, and the last entry's seq and balance.
 */
const STATEMENT_HEAD_SQL = `
  with period as (
    select seq, created_at, type, amount, fee, net, balance_after from balance_transaction
    where merchant_id = $1 and currency = $2 and created_at >= $3 and created_at < $4
  ),
  by_type as (
    select type, count(*) as count, sum(amount) as amount, sum(fee) as fee, sum(net) as net, min(seq) as first_seq from period group by type
  ),
  last as (select seq, balance_after from period order by created_at desc, seq desc limit 1)
  select
    (select balance_after from balance_transaction where merchant_id = $1 and currency = $2 and created_at < $3
      order by created_at desc, seq desc limit 1)::text as opening,
    (select coalesce(sum(count), 0) from by_type)::text as count,
    (select seq from last)::text as last_seq,
    (select balance_after from last)::text as last_balance,
    (select coalesce(json_agg(json_build_object('type', type, 'count', count::text, 'amount', amount::text, 'fee', fee::text, 'net', net::text)
      order by first_seq), '[]') from by_type) as totals`;

/**
 * One batch of a statement's entries: after the entry `$6` (seq; null: from the start), up to the
 * last entry the head counted (`$5`), in the statement index's order, which is posting order.
 */
const STATEMENT_ENTRIES_SQL = `
  select ${BT_SELECT}, bt.seq::text as seq from balance_transaction bt
  where merchant_id = $1 and currency = $2 and created_at >= $3 and created_at < $4
    and (bt.created_at, bt.seq) <= ((select b.created_at from balance_transaction b where b.seq = $5::bigint), $5::bigint)
    and ($6::bigint is null or (bt.created_at, bt.seq) > ((select b.created_at from balance_transaction b where b.seq = $6::bigint), $6::bigint))
  order by bt.created_at, bt.seq limit $7`;

type StatementHeadRow = {
  opening: string | null;
  count: string;
  last_seq: string | null;
  last_balance: string | null;
  totals: Array<{ type: BalanceTransactionType; count: string; amount: string; fee: string; net: string }>;
};

/** An entry as a statement reads it: with its seq, the keyset's position. */
type StatementEntry = BalanceTransaction & { seq: string };

async function* emptyBatches(): AsyncGenerator<BalanceTransaction[]> {}

type AccountRow = { code: string; currency: string; balance: string };

/** A merchant's account rows → one balance per currency. */
function toBalances(rows: AccountRow[]): Balance[] {
  const byCurrency = new Map<string, Balance>();
  for (const r of rows) {
    const currency = r.currency.trim();
    let b = byCurrency.get(currency);
    if (!b) byCurrency.set(currency, (b = emptyBalance(currency)));
    const code = r.code as MerchantAccount;
    // The receivable is debit-normal: its balance (credits − debits) is never above zero, and what is owed is its opposite.
    if (code === 'receivable') b.owed = new Decimal(r.balance).negated();
    else b[code] = new Decimal(r.balance);
  }
  return [...byCurrency.values()];
}

/** After a commit that posted entries: balanceChanged subscribers hear of each merchant currency they touched. */
export function publishBalanceChanges(pubsub: PubSub, logger: Logger, merchantId: string, postings: readonly Posting[]): void {
  const currencies = new Set<string>();
  for (const p of postings) for (const l of p.lines) if (l.account.startsWith('m:')) currencies.add(l.currency);
  for (const currency of currencies) publishAfterCommit(pubsub, logger, LedgerTopic.BalanceChanged, { merchantId, currency });
}

export function toBalanceTransaction(row: Record<string, unknown>): BalanceTransaction {
  for (const f of ['amount', 'fee', 'net', 'balanceAfter']) row[f] = new Decimal(row[f] as string);
  row.currency = (row.currency as string).trim();
  return row as unknown as BalanceTransaction;
}

/** What LedgerService is built with (the composition root passes it). */
export interface LedgerServiceDeps {
  sql: Sql;
  clock: Clock;
  pubsub: PubSub;
  minorUnitOf: (currency: string) => number | undefined;
  /** Every currency a merchant can hold (supported countries' currencies the rate table prices); read once, after the reference data has loaded. */
  supportedCurrencies: () => string[];
  /** Sandbox: what every new merchant starts with in each currency, in major units (0: nothing). */
  openingBalance: Decimal;
  logger: Logger;
  /** The audit log's writer (top-ups, adjustments). */
  audit: AuditLog;
  /** The metric: problems found by the last verification. */
  verified?: (problems: number) => void;
}

/**
 * The books, as a merchant and an operator see them: balances, balance transactions and
 * statements; funding (sandbox opening balance and top-ups, operator adjustments). Postings
 * that belong to a transaction ride in the transaction's own statements (TransactionStore).
 */
export class LedgerService {
  constructor(private readonly deps: LedgerServiceDeps) {}

  async balances(merchantId: string): Promise<Balance[]> {
    return toBalances(
      await this.deps.sql.query<AccountRow>(
        `select code, currency, credits_posted - debits_posted as balance from ledger_account where merchant_id = $1 order by currency, code`,
        [merchantId],
        'ledger_balances',
      ),
    );
  }

  /** One currency's (every balanceChanged event reads one): zero when the merchant holds none of it. */
  async balance(merchantId: string, currency: string): Promise<Balance> {
    const rows = await this.deps.sql.query<AccountRow>(
      `select code, currency, credits_posted - debits_posted as balance from ledger_account where merchant_id = $1 and currency = $2`,
      [merchantId, currency],
      'ledger_balance',
    );
    return toBalances(rows)[0] ?? emptyBalance(currency);
  }

  async listBalanceTransactions(merchantId: string, query: BalanceTransactionListQuery): Promise<Page<BalanceTransaction>> {
    const { limit, after, currency, type, createdFrom, createdTo } = parseInput(balanceTransactionListSchema, query, 'query');
    const params = new Params();
    const where = [`merchant_id = ${params.p(merchantId)}`];
    if (currency) where.push(`currency = ${params.p(currency)}`);
    if (type) where.push(`type = ${params.p(type)}`);
    if (createdFrom) where.push(`created_at >= ${params.p(createdFrom)}`);
    if (createdTo) where.push(`created_at < ${params.p(createdTo)}`);
    if (after) {
      const cursor = decodeCursor(after, UUID_ID);
      where.push(`(created_at, id) < (${params.p(cursor.createdAt)}, ${params.p(cursor.id)}::uuid)`);
    }
    const rows = await this.deps.sql.query(
      `select ${BT_SELECT} from balance_transaction bt where ${where.join(' and ')} order by bt.created_at desc, bt.id desc limit ${params.p(limit + 1)}`,
      params.values,
    );
    return toPage(rows.map(toBalanceTransaction), limit);
  }

  /**
   * Every balance transaction of [from, to) in posting order, with the balance before and after.
   * The head (opening, closing, totals, how many entries) is read by one statement, so it is one
   * snapshot, and checked before anything is sent; the entries then come in keyset batches of
   * STATEMENT_BATCH, up to the last entry the head counted: in one merchant's currency an entry is
   * numbered (seq) and stamped under the accounts' lock and committed before the next one can be,
   * so every entry up to that one was visible to the head, and a later one is left out.
   */
  async statement(merchantId: string, query: StatementQuery): Promise<Statement> {
    const { currency, from, to } = parseInput(statementSchema, query, 'query');
    const minorUnit = this.deps.minorUnitOf(currency);
    if (minorUnit === undefined || !this.currencies().includes(currency)) {
      throw AppError.invalidFields([{ field: 'currency', issue: 'is not a supported currency' }], 'query');
    }
    if (to <= from) throw AppError.invalidFields([{ field: 'to', issue: 'must be after from' }], 'query');
    const [head] = await this.deps.sql.query<StatementHeadRow>(STATEMENT_HEAD_SQL, [merchantId, currency, from, to], 'ledger_statement_head');
    const entryCount = Number(head?.count ?? 0);
    if (entryCount > STATEMENT_MAX_ENTRIES) {
      throw AppError.invalidFields([{ field: 'from', issue: `the period holds more than ${STATEMENT_MAX_ENTRIES} entries; ask for a shorter one` }], 'query');
    }
    const openingBalance = new Decimal(head?.opening ?? 0);
    const totals = (head?.totals ?? []).map((t) => ({
      type: t.type,
      count: Number(t.count),
      amount: new Decimal(t.amount),
      fee: new Decimal(t.fee),
      net: new Decimal(t.net),
    }));
    const closingBalance = totals.reduce((sum, t) => sum.plus(t.net), openingBalance);
    if (head?.last_balance != null && !new Decimal(head.last_balance).eq(closingBalance)) {
      // The books disagree with themselves: ledger:verify says where. Never hand out a statement that does not add up.
      this.deps.logger.error({ merchantId, currency, closing: closingBalance.toFixed(), balanceAfter: head.last_balance }, 'statement does not add up');
      throw new AppError('SERVER_ERROR', 'The statement could not be produced; the books are being checked');
    }
    const sql = this.deps.sql;
    const lastSeq = head?.last_seq ?? null;
    const read = async (after: BalanceTransaction | undefined, size: number) => {
      const rows = await sql.query(
        STATEMENT_ENTRIES_SQL,
        [merchantId, currency, from, to, lastSeq, (after as StatementEntry | undefined)?.seq ?? null, size],
        'ledger_statement_entries',
      );
      return rows.map(toBalanceTransaction); // each keeps its seq (StatementEntry), which no serializer writes
    };
    const entries = lastSeq === null ? emptyBatches() : keysetBatches<BalanceTransaction>(read, STATEMENT_BATCH, entryCount);
    return { currency, minorUnit, from, to, openingBalance, closingBalance, entryCount, totals, entries };
  }

  /**
   * The last `days` days (by completion, UTC): volume collected vs paid out per day and
   * currency, and the success rate of transactions that reached a final status.
   */
  async activity(merchantId: string, days: number): Promise<Activity> {
    if (!Number.isInteger(days) || days < 1 || days > 366) throw AppError.invalidField('days', 'must be a whole number from 1 to 366');
    const since = new Date(this.deps.clock.now().getTime() - days * 86_400_000);
    const rows = await this.deps.sql.query<{ day: string; currency: string; collected: string; paid_out: string }>(
      `select to_char(date_trunc('day', completed_at at time zone 'UTC'), 'YYYY-MM-DD') as day,
              coalesce(currency, source_currency) as currency,
              coalesce(sum(amount) filter (where kind in ('collection', 'payment')), 0) as collected,
              coalesce(sum(coalesce(source_amount, amount)) filter (where kind in ('transfer', 'refund')), 0) as paid_out
       from "transaction" where merchant_id = $1 and status = 'successful' and completed_at >= $2
       group by 1, 2 order by 1, 2`,
      [merchantId, since],
    );
    const [rate] = await this.deps.sql.query<{ final: string; successful: string }>(
      `select count(*) as final, count(*) filter (where status = 'successful') as successful
       from "transaction" where merchant_id = $1 and status in ('successful', 'failed', 'expired') and completed_at >= $2`,
      [merchantId, since],
    );
    return {
      days: rows.map((r) => ({ day: r.day, currency: r.currency.trim(), collected: new Decimal(r.collected), paidOut: new Decimal(r.paid_out) })),
      final: Number(rate?.final ?? 0),
      successful: Number(rate?.successful ?? 0),
    };
  }

  /** Sandbox: adds test money to the merchant's available balance. */
  /** `audit`: who asks, and from where: the top-up writes one `sandbox.top_up` entry in its own statement. */
  async topUp(merchantId: string, command: TopUpCommand, audit?: AuditContext): Promise<Balance> {
    const body = parseInput(topUpSchema, command);
    const minorUnit = this.minorUnit(body.currency);
    const amount = parseAmount(body.amount, minorUnit);
    const key = `topup:${randomUUID()}`;
    await this.post(
      [this.funding(merchantId, body.currency, amount, key, 'top_up', 'sandbox top-up', null)],
      audit && {
        merchantId,
        ...audit,
        action: 'sandbox.top_up',
        target: { type: 'balance', id: body.currency },
        after: { amount: formatAmount(amount, minorUnit), currency: body.currency },
      },
    );
    return this.balance(merchantId, body.currency);
  }

  /**
   * Operator: money that reached (or left) a merchant outside any transaction, against the
   * external-funds account, with its reason; shown in the merchant's statement. A debit the
   * available balance cannot cover is INSUFFICIENT_FUNDS. The same reference posts once.
   * `audit`: the operator, and from where: an adjustment posted (not a retry that posts nothing) writes one
   * `ledger.adjustment_posted` entry in its own statement.
   */
  async adjust(merchantId: string, command: AdjustmentCommand, audit?: AuditContext): Promise<{ balance: Balance; posted: boolean }> {
    const body = parseInput(adjustmentSchema, command);
    if (!UUID_ID.test(merchantId)) throw AppError.notFound('Merchant');
    const minorUnit = this.minorUnit(body.currency);
    const amount = parseSignedAmount(body.amount, minorUnit);
    const [merchant] = await this.deps.sql.query('select 1 from merchant where id = $1', [merchantId]);
    if (!merchant) throw AppError.notFound('Merchant');
    const key = `adjustment:${merchantId}:${body.reference}`;
    const entry = this.funding(merchantId, body.currency, amount, key, 'adjustment', body.reason, body.reference);
    const posted = await this.post(
      [entry],
      audit && {
        merchantId,
        ...audit,
        action: 'ledger.adjustment_posted',
        target: { type: 'adjustment', id: body.reference },
        after: { amount: formatAmount(amount, minorUnit), currency: body.currency, reason: body.reason, reference: body.reference },
      },
    );
    // Posted before under this reference: the same adjustment again (a retry) changes nothing; another one is refused.
    if (!posted) await this.assertSameAdjustment(key, body.reference, body.currency, amount);
    return { balance: await this.balance(merchantId, body.currency), posted };
  }

  /**
   * The adjustment posted under `key` moved `amount` (signed) in `currency`; otherwise the reference is
   * being reused for another adjustment: 409 DUPLICATE_REQUEST saying what differs, nothing posted.
   */
  private async assertSameAdjustment(key: string, reference: string, currency: string, amount: Decimal): Promise<void> {
    const [first] = await this.deps.sql.query<{ currency: string; amount: string }>(
      `select bt.currency, bt.amount from ledger_entry e join balance_transaction bt on bt.entry_id = e.id where e.key = $1`,
      [key],
    );
    if (!first) return;
    const firstCurrency = first.currency.trim();
    const firstAmount = new Decimal(first.amount);
    const differences: ErrorDetail[] = [];
    if (firstCurrency !== currency)
      differences.push({ field: 'currency', issue: `is ${currency}; the adjustment posted under this reference is in ${firstCurrency}` });
    if (!firstAmount.eq(amount)) {
      const what = firstAmount.isNegative() !== amount.isNegative() ? (firstAmount.isNegative() ? 'a debit' : 'a credit') : 'an adjustment';
      differences.push({ field: 'amount', issue: `is ${amount.toFixed()}; the adjustment posted under this reference is ${what} of ${firstAmount.toFixed()}` });
    }
    if (differences.length === 0) return;
    throw new AppError(
      'DUPLICATE_REQUEST',
      `An adjustment with reference ${reference} was already posted with a different ${differences.map((d) => d.field).join(' and ')} (${differences
        .map((d) => `${d.field} ${d.issue}`)
        .join('; ')}); nothing was posted. Use a new reference for a new adjustment`,
      differences,
    );
  }

  private currencyList?: string[];
  private currencies(): string[] {
    return (this.currencyList ??= this.deps.supportedCurrencies());
  }

  /** Sandbox: a new merchant's opening balance in every currency (once: its keys are the merchant's). */
  async openMerchant(merchantId: string): Promise<void> {
    if (this.deps.openingBalance.isZero()) return;
    await this.post(
      this.currencies().map((currency) =>
        this.funding(merchantId, currency, this.deps.openingBalance, `opening:${merchantId}:${currency}`, 'top_up', 'sandbox opening balance', null),
      ),
    );
  }

  /** Sandbox start: merchants made before the books existed (or whose opening a crash cut short) get theirs. */
  async openUnopenedMerchants(): Promise<number> {
    if (this.deps.openingBalance.isZero()) return 0;
    const rows = await this.deps.sql.query<{ id: string }>(
      // By the opening entry's key (its unique index); the whole opening is one statement, so one currency tells.
      `select m.id from merchant m where not exists (select 1 from ledger_entry e where e.key = 'opening:' || m.id || ':' || $1)`,
      [this.currencies().at(-1)],
    );
    for (const { id } of rows) await this.openMerchant(id);
    return rows.length;
  }

  /** The books checked whole (ledger.verify.ts); `rules`: what each kind posts in each status. */
  async verify(rules: LegRule[]): Promise<LedgerReport> {
    const report = await verifyLedger(this.deps.sql, rules);
    if (report.problems.length > 0) this.deps.logger.error({ problems: report.problems }, 'the books do not verify');
    this.deps.verified?.(report.problems.length);
    return report;
  }

  /**
   * The periodic check: what was posted or changed since the last run (ledger.verify.ts); null
   * when another instance has just run it. `overlapS` (default 30): how long a row may take to
   * commit after its id was drawn.
   */
  async verifySinceLastRun(rules: LegRule[], opts: Partial<IncrementalOptions> = {}): Promise<IncrementalReport | null> {
    const started = performance.now();
    const report = await verifyLedgerIncrementally(this.deps.sql, rules, { overlapS: 30, minIntervalS: 0, ...opts });
    if (report === null) return null;
    const { problems, ...read } = report;
    const ms = Math.round(performance.now() - started);
    if (problems.length > 0) this.deps.logger.error({ problems, read, ms }, 'the books do not verify');
    else this.deps.logger.info({ read, ms }, 'the books verify since the last run');
    this.deps.verified?.(report.problems.length);
    return report;
  }

  /**
   * Posts entries outside any transaction, in one statement; false when they had been posted already.
   * `audited`: the audit entry, written by the same statement only when the first entry is posted.
   */
  private async post(postings: Posting[], audited?: AuditEntry): Promise<boolean> {
    const params = new Params();
    const { ctes } = postingsSql(params, postings, undefined, 'fund');
    if (audited) ctes.push(this.deps.audit.cte(params, audited, 'fund_entry0'));
    const entries = postings.map((_p, i) => `(select count(*) from fund_entry${i})`).join(' + ');
    try {
      const [row] = await this.deps.sql.query<{ posted: string }>(`with ${ctes.join(',\n')} select ${entries} as posted`, params.values);
      const posted = Number(row?.posted) > 0;
      if (posted) publishBalanceChanges(this.deps.pubsub, this.deps.logger, postings[0]!.merchantId!, postings);
      return posted;
    } catch (err) {
      if (isOverdraft(err)) throw await refusedForFunds(this.deps.sql, postings, this.deps.minorUnitOf);
      throw err;
    }
  }

  private funding(
    merchantId: string,
    currency: string,
    amount: Decimal,
    key: string,
    type: 'top_up' | 'adjustment',
    description: string,
    reference: string | null,
  ): Posting {
    const source = platformAccount(type === 'adjustment' ? 'external_funds' : 'sandbox_funding', currency);
    const available = merchantAccount(merchantId, 'available', currency);
    return posting({
      key,
      leg: type,
      merchantId,
      transactionId: null,
      type,
      sourceReference: reference,
      fee: new Decimal(0),
      description,
      createdAt: this.deps.clock.now(),
      lines: amount.isNegative() ? move(available, source, currency, amount.negated()) : move(source, available, currency, amount),
    });
  }

  private minorUnit(currency: string): number {
    const minorUnit = this.deps.minorUnitOf(currency);
    if (minorUnit === undefined || !this.currencies().includes(currency)) throw AppError.invalidField('currency', 'is not a supported currency');
    return minorUnit;
  }
}
