import { Params, type Sql } from '../../db/sql';
import { Decimal } from '../../shared/money';
import { afterCursor, toPage, type Page } from '../../shared/pagination';
import { BT_SELECT, toBalanceTransaction, type BalanceTransaction } from '../ledger/ledger.service';
import { merchantAccount } from '../ledger/ledger.model';
import { maskAccount } from '../transactions/counterparty';
import { payoutStatusOf, type Payout, type PayoutStatus } from '../transactions/kinds/payout/payout.record';
import { feeCharged } from '../transactions/transaction.fee';
import type { TransactionStatus } from '../transactions/transaction.state';

/** A payout's own row (`payout`): what it settles; its money movement is its transaction. */
export interface PayoutRow {
  id: string;
  merchantId: string;
  currency: string;
  amount: Decimal;
  automatic: boolean;
  windowKey: string | null;
  afterSeq: string | null;
  throughSeq: string | null;
  carriedIn: Decimal;
  carriedOut: Decimal;
  destinationId: string;
  transactionId: string | null;
  canceledReason: string | null;
  expectedArrivalAt: Date;
  createdAt: Date;
}

/** What claiming a window needs: the window, what it covers, the destination, the minimum and the row's id. */
export interface WindowClaim {
  id: string;
  merchantId: string;
  currency: string;
  windowKey: string;
  /** Balance transactions posted (by the books' clock) at or before this are the window's. */
  coversUpTo: Date;
  destinationId: string;
  minimum: Decimal;
  expectedArrivalAt: Date;
  now: Date;
}

const ROW = `p.id, p.merchant_id as "merchantId", p.currency, p.amount::text as amount, p.automatic, p.window_key as "windowKey",
  p.after_seq::text as "afterSeq", p.through_seq::text as "throughSeq", p.carried_in::text as "carriedIn", p.carried_out::text as "carriedOut",
  p.destination_id as "destinationId", p.transaction_id as "transactionId", p.canceled_reason as "canceledReason",
  p.expected_arrival_at as "expectedArrivalAt", p.created_at as "createdAt"`;

/** The transaction's part of a payout's view (null columns when it has none yet). */
const WITH_TXN = `${ROW}, t.reference as "txReference", t.status as "txStatus", t.fee::text as "txFee", t.provider_reference as "txProvider",
  t.failure_reason as "txFailure", t.account_type as "txAccountType", t.country_code as "txCountry", t.network_id as "txNetwork",
  t.account_name as "txAccountName", t.account_number as "txAccountNumber", t.completed_at as "txCompletedAt"`;

/**
 * The balance transactions an automatic payout settles: its merchant's currency's, in (after, through] by seq, less
 * the automatic payouts' own debits (each is paid by the window before it; a failed one's money comes back as its
 * reversal, which is settled again). Manual payouts' debits count: what they took is not paid twice.
 */
const SETTLED = (m: string, c: string, after: string, through: string) => `
  from balance_transaction bt
  where bt.merchant_id = ${m} and bt.currency = ${c}
    and (bt.created_at, bt.seq) > (${AT(after)}, ${after}) and (bt.created_at, bt.seq) <= (${AT(through)}, ${through})
    and not (bt.type = 'payout' and exists (select 1 from payout o where o.transaction_reference = bt.source_reference and o.automatic))`;

/**
 * When the balance transaction numbered `seq` was posted ('-infinity' for 0, before the first): a range by seq is read
 * as a range of (created_at, seq), which the statement index (merchant, currency, created_at, seq) serves, since in
 * one merchant's currency created_at never goes back as seq goes forward (docs/ledger.md). No index of its own.
 */
const AT = (seq: string) => `coalesce((select b.created_at from balance_transaction b where b.seq = ${seq}), '-infinity'::timestamptz)`;

/**
 * What the next automatic payout of a merchant's currency would pay ($1 merchant, $2 currency, $3 the posting
 * instant it covers up to, $4 the merchant's available account): the balance transactions since the last automatic
 * payout (by seq, up to the last one posted by $3), plus what that payout carried, capped by what is available now.
 */
const FIGURES = `with prev as (
         select through_seq, carried_out from payout
         where merchant_id = $1 and currency = $2 and automatic and canceled_reason is null order by through_seq desc limit 1),
       base as (select coalesce((select through_seq from prev), 0) as after_seq, coalesce((select carried_out from prev), 0) as carried_in),
       upto as (
         select coalesce(max(bt.seq), (select after_seq from base)) as through_seq
         from balance_transaction bt join ledger_entry e on e.id = bt.entry_id
         where bt.merchant_id = $1 and bt.currency = $2
           and (bt.created_at, bt.seq) > (${AT('(select after_seq from base)')}, (select after_seq from base)) and e.created_at <= $3),
       covered as (select coalesce(sum(bt.net), 0) as total ${SETTLED('$1', '$2', '(select after_seq from base)', '(select through_seq from upto)')}),
       avail as (select coalesce((select credits_posted - debits_posted from ledger_account where id = $4), 0) as available),
       figures as (
         select base.after_seq, upto.through_seq, base.carried_in, covered.total + base.carried_in as owed,
                greatest(least(covered.total + base.carried_in, avail.available), 0) as amount
         from base, upto, covered, avail)`;

type Joined = Record<string, unknown>;

/** The payouts' statements: one each. */
export class PayoutStore {
  constructor(private readonly deps: { sql: Sql; networkName: (id: string) => string | null }) {}

  /**
   * Claims a window in one statement: what the balance transactions since the last automatic payout (by seq, up to
   * the last one posted by `coversUpTo`) add up to, plus what that payout carried, capped by what is available now;
   * nothing when that is under the minimum, or the window is already claimed (by any run, on any instance).
   */
  async claimWindow(c: WindowClaim): Promise<PayoutRow | null> {
    const [row] = await this.deps.sql.query<Joined>(
      `${FIGURES}
       insert into payout (id, merchant_id, currency, amount, automatic, window_key, after_seq, through_seq, carried_in, carried_out,
                           destination_id, expected_arrival_at, created_at)
       select $5, $1, $2, amount, true, $6, after_seq, through_seq, carried_in, owed - amount, $7, $8, $9
       from figures where amount > 0 and amount >= $10
       on conflict (merchant_id, currency, window_key) where window_key is not null do nothing
       returning ${ROW.replace(/p\./g, '')}`,
      [
        c.merchantId,
        c.currency,
        c.coversUpTo,
        merchantAccount(c.merchantId, 'available', c.currency),
        c.id,
        c.windowKey,
        c.destinationId,
        c.expectedArrivalAt,
        c.now,
        c.minimum.toString(),
      ],
      'payout_claim_window',
    );
    return row ? toRow(row) : null;
  }

  /** What the next window would pay if it closed at `coversUpTo` (nothing is claimed): the dashboard's upcoming payout. */
  async preview(merchantId: string, currency: string, coversUpTo: Date): Promise<{ owed: Decimal; amount: Decimal }> {
    const [row] = await this.deps.sql.query<{ owed: string; amount: string }>(
      `${FIGURES} select owed::text, amount::text from figures`,
      [merchantId, currency, coversUpTo, merchantAccount(merchantId, 'available', currency)],
      'payout_preview',
    );
    return { owed: new Decimal(row!.owed), amount: new Decimal(row!.amount) };
  }

  /** A manual payout's row, before its transaction (which checks what is available). */
  async insertManual(p: { id: string; merchantId: string; currency: string; amount: Decimal; destinationId: string; expectedArrivalAt: Date; now: Date }) {
    await this.deps.sql.query(
      `insert into payout (id, merchant_id, currency, amount, automatic, destination_id, expected_arrival_at, created_at)
       values ($1, $2, $3, $4, false, $5, $6, $7)`,
      [p.id, p.merchantId, p.currency, p.amount.toString(), p.destinationId, p.expectedArrivalAt, p.now],
      'payout_insert_manual',
    );
  }

  /** Its transaction, once written. */
  async link(id: string, sent: { transactionId: string; transactionReference: string; destinationId: string; expectedArrivalAt: Date }): Promise<void> {
    await this.deps.sql.query(
      `update payout set transaction_id = $2, transaction_reference = $3, destination_id = $4, expected_arrival_at = $5 where id = $1 and transaction_id is null`,
      [id, sent.transactionId, sent.transactionReference, sent.destinationId, sent.expectedArrivalAt],
      'payout_link',
    );
  }

  /** A claimed payout that was never sent (nothing was held): gone, so its window and its balance transactions are free again. */
  async release(id: string): Promise<void> {
    await this.deps.sql.query(`delete from payout where id = $1 and transaction_id is null`, [id], 'payout_release');
  }

  /** Claimed, never sent, and now cannot be (no destination any more): canceled; the next window settles what it covered. */
  async cancel(id: string, reason: string): Promise<void> {
    await this.deps.sql.query(`update payout set canceled_reason = $2 where id = $1 and transaction_id is null`, [id, reason], 'payout_cancel');
  }

  /** Rows claimed but not yet linked to a transaction (a crash between the two), oldest first. */
  async unsent(merchantId: string, currency: string): Promise<PayoutRow[]> {
    const rows = await this.deps.sql.query<Joined>(
      `select ${ROW} from payout p where merchant_id = $1 and currency = $2 and transaction_id is null and canceled_reason is null order by created_at`,
      [merchantId, currency],
    );
    return rows.map(toRow);
  }

  async windowTaken(merchantId: string, currency: string, windowKey: string): Promise<boolean> {
    const rows = await this.deps.sql.query(`select 1 from payout where merchant_id = $1 and currency = $2 and window_key = $3`, [
      merchantId,
      currency,
      windowKey,
    ]);
    return rows.length > 0;
  }

  async get(merchantId: string, id: string): Promise<{ row: PayoutRow; payout: Payout } | null> {
    const [row] = await this.deps.sql.query<Joined>(
      `select ${WITH_TXN} from payout p left join "transaction" t on t.id = p.transaction_id where p.merchant_id = $1 and p.id = $2`,
      [merchantId, id],
    );
    return row ? { row: toRow(row), payout: this.toPayout(row) } : null;
  }

  async list(merchantId: string, q: { limit: number; after?: string | null; currency?: string | null }): Promise<Page<Payout>> {
    const params = new Params();
    const where = [`p.merchant_id = ${params.p(merchantId)}`];
    if (q.currency) where.push(`p.currency = ${params.p(q.currency)}`);
    const cursor = afterCursor(q.after, /^po_[A-Za-z0-9_-]{24}$/);
    if (cursor.createdAt) where.push(`(p.created_at, p.id) < (${params.p(cursor.createdAt)}, ${params.p(cursor.id)})`);
    const rows = await this.deps.sql.query<Joined>(
      `select ${WITH_TXN} from payout p left join "transaction" t on t.id = p.transaction_id
       where ${where.join(' and ')} order by p.created_at desc, p.id desc limit ${params.p(q.limit + 1)}`,
      params.values,
    );
    return toPage(
      rows.map((r) => this.toPayout(r)),
      q.limit,
    );
  }

  /** What an automatic payout settles, in posting order. */
  async settled(row: PayoutRow): Promise<BalanceTransaction[]> {
    if (!row.automatic) return [];
    const rows = await this.deps.sql.query<Record<string, unknown>>(`select ${BT_SELECT} ${SETTLED('$1', '$2', '$3', '$4')} order by bt.seq`, [
      row.merchantId,
      row.currency,
      row.afterSeq,
      row.throughSeq,
    ]);
    return rows.map(toBalanceTransaction);
  }

  private toPayout(r: Joined): Payout {
    const row = toRow(r);
    const sent = r.txReference !== null && r.txReference !== undefined;
    const status: PayoutStatus = row.canceledReason ? 'canceled' : sent ? payoutStatusOf(r.txStatus as TransactionStatus) : 'pending';
    const accountNumber = r.txAccountNumber as string | null;
    return {
      id: row.id,
      merchantId: row.merchantId,
      currency: row.currency,
      amount: row.amount,
      // A pending or canceled payout has no transaction; a failed one charged nothing (feeCharged).
      fee: sent ? feeCharged({ status: r.txStatus as TransactionStatus, fee: new Decimal(r.txFee as string) }) : new Decimal(0),
      status,
      automatic: row.automatic,
      windowKey: row.windowKey,
      destination: accountNumber
        ? {
            accountType: r.txAccountType as 'bank' | 'momo',
            countryCode: r.txCountry as string,
            networkId: r.txNetwork as string,
            networkName: this.deps.networkName(r.txNetwork as string),
            accountName: r.txAccountName as string,
            masked: maskAccount(accountNumber),
          }
        : null,
      traceReference: (r.txProvider as string | null) ?? null,
      transactionReference: (r.txReference as string | null) ?? null,
      failureReason: (r.txFailure as string | null) ?? row.canceledReason,
      expectedArrivalAt: row.expectedArrivalAt,
      createdAt: row.createdAt,
      completedAt: (r.txCompletedAt as Date | null) ?? null,
    };
  }
}

function toRow(r: Joined): PayoutRow {
  return {
    id: r.id as string,
    merchantId: r.merchantId as string,
    currency: (r.currency as string).trim(),
    amount: new Decimal(r.amount as string),
    automatic: r.automatic as boolean,
    windowKey: r.windowKey as string | null,
    afterSeq: r.afterSeq as string | null,
    throughSeq: r.throughSeq as string | null,
    carriedIn: new Decimal(r.carriedIn as string),
    carriedOut: new Decimal(r.carriedOut as string),
    destinationId: r.destinationId as string,
    transactionId: r.transactionId as string | null,
    canceledReason: r.canceledReason as string | null,
    expectedArrivalAt: r.expectedArrivalAt as Date,
    createdAt: r.createdAt as Date,
  };
}
