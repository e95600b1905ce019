import { Params, type Sql } from '../../db/sql';
import { runSelects } from '../../jobs/job-queue';
import { Decimal } from '../../shared/money';
import { afterCursor, toPage, type Page } from '../../shared/pagination';
import { inTransaction, type TxQuery } from '../accounts/in-transaction';
import { clearingAccount, merchantAccount, platformAccount, posting } from '../ledger/ledger.model';
import { postingsSql } from '../ledger/ledger.sql';
import type { Outbox, StampedEvent } from '../outbox/outbox';
import type { Dispute, DisputeEvidence } from './dispute.record';
import type { DisputeFunds, DisputeReason, DisputeStatus, FundsMove } from './dispute.rules';

export const DISPUTE_ID = /^dp_[A-Za-z0-9_-]{24}$/;

interface Row {
  id: string;
  merchant_id: string;
  payment_id: string;
  payment_reference: string;
  provider: string;
  provider_dispute_id: string | null;
  amount: string;
  currency: string;
  fee: string;
  reason: DisputeReason;
  status: DisputeStatus;
  provider_status: string | null;
  evidence: Partial<DisputeEvidence>;
  evidence_due_by: Date | null;
  reminders_sent: number;
  submission_count: number;
  funds: DisputeFunds;
  created_at: Date;
  updated_at: Date;
  closed_at: Date | null;
}

const COLUMNS = `id, merchant_id, payment_id, payment_reference, provider, provider_dispute_id, amount::text as amount, currency, fee::text as fee,
  reason, status, provider_status, evidence, evidence_due_by, reminders_sent, submission_count, funds, created_at, updated_at, closed_at`;

function disputeOf(r: Row): Dispute {
  const e = r.evidence ?? {};
  return {
    id: r.id,
    merchantId: r.merchant_id,
    paymentId: r.payment_id,
    paymentReference: r.payment_reference,
    provider: r.provider,
    providerDisputeId: r.provider_dispute_id,
    amount: new Decimal(r.amount),
    currency: r.currency.trim(),
    fee: new Decimal(r.fee),
    reason: r.reason,
    status: r.status,
    providerStatus: r.provider_status,
    evidence: {
      productDescription: e.productDescription ?? null,
      customerCommunication: e.customerCommunication ?? null,
      refundPolicy: e.refundPolicy ?? null,
      serviceDate: e.serviceDate ?? null,
      serviceDetails: e.serviceDetails ?? null,
      uncategorizedText: e.uncategorizedText ?? null,
      files: e.files ?? [],
    },
    evidenceDueBy: r.evidence_due_by,
    remindersSent: r.reminders_sent,
    submissionCount: r.submission_count,
    funds: r.funds,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    closedAt: r.closed_at,
  };
}

/** What a change of a dispute writes, besides the row: its money's moves and its events (statements built by the service). */
export interface DisputeWrite {
  moves: FundsMove[];
  /** Its events, each recorded by its own statement (the outbox's CTE names are fixed). */
  events: StampedEvent[];
  /** The audit entry's statement, when a person or key acted. */
  audit?: { text: string; values: unknown[] };
}

export interface DisputeListQuery {
  limit: number;
  after?: string | null;
  status?: DisputeStatus | null;
  dueBefore?: Date | null;
  paymentReference?: string | null;
}

/**
 * The dispute's statements. A change is one database transaction: the row (locked, then written), the money (the
 * hold reads available under the accounts' lock), the payment's flags, the events and the audit entry: all, or none.
 */
export class DisputeStore {
  constructor(private readonly deps: { sql: Sql; outbox: Pick<Outbox, 'eventSql'> }) {}

  async find(merchantId: string | null, id: string): Promise<Dispute | null> {
    const [row] = await this.deps.sql.query<Row>(
      `select ${COLUMNS} from dispute where id = $1 and ($2::uuid is null or merchant_id = $2)`,
      [id, merchantId],
      'dispute_find',
    );
    return row ? disputeOf(row) : null;
  }

  async findByProvider(provider: string, providerDisputeId: string): Promise<Dispute | null> {
    const [row] = await this.deps.sql.query<Row>(`select ${COLUMNS} from dispute where provider = $1 and provider_dispute_id = $2`, [
      provider,
      providerDisputeId,
    ]);
    return row ? disputeOf(row) : null;
  }

  async list(merchantId: string, q: DisputeListQuery): Promise<Page<Dispute>> {
    const params = new Params();
    const where = [`merchant_id = ${params.p(merchantId)}`];
    if (q.status) where.push(`status = ${params.p(q.status)}`);
    if (q.dueBefore) where.push(`evidence_due_by < ${params.p(q.dueBefore)}`);
    if (q.paymentReference) where.push(`payment_reference = ${params.p(q.paymentReference)}`);
    const cursor = afterCursor(q.after, DISPUTE_ID);
    if (cursor.createdAt) where.push(`(created_at, id) < (${params.p(cursor.createdAt)}, ${params.p(cursor.id)})`);
    const rows = await this.deps.sql.query<Row>(
      `select ${COLUMNS} from dispute where ${where.join(' and ')} order by created_at desc, id desc limit ${params.p(q.limit + 1)}`,
      params.values,
    );
    return toPage(rows.map(disputeOf), q.limit);
  }

  /** How many of the merchant's disputes wait for its response (the dashboard's banner). */
  async countNeedingResponse(merchantId: string): Promise<number> {
    const [row] = await this.deps.sql.query<{ n: string }>(
      `select count(*)::text as n from dispute where merchant_id = $1 and status in ('needs_response', 'warning_needs_response')`,
      [merchantId],
      'dispute_count_needing_response',
    );
    return Number(row?.n ?? 0);
  }

  /** Disputes waiting for a response whose deadline, or next reminder, has come (`reminderDue` decides which reminders). */
  async due(horizon: Date, limit: number): Promise<Dispute[]> {
    const rows = await this.deps.sql.query<Row>(
      `select ${COLUMNS} from dispute where status in ('needs_response', 'warning_needs_response') and evidence_due_by <= $1
       order by evidence_due_by limit $2`,
      [horizon, limit],
      'dispute_due',
    );
    return rows.map(disputeOf);
  }

  /** Inserts a new dispute with its money's moves and events; null when the provider's dispute exists already. */
  async insert(d: Dispute, write: (inserted: Dispute) => DisputeWrite): Promise<Dispute | null> {
    return inTransaction(this.deps.sql, async (query) => {
      const [row] = await query<Row>(
        `insert into dispute (id, merchant_id, payment_id, payment_reference, provider, provider_dispute_id, amount, currency, fee, reason, status,
           provider_status, evidence, evidence_due_by, reminders_sent, submission_count, funds, created_at, updated_at, closed_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::jsonb, $14, 0, 0, $15, $16, $16, $17)
         on conflict (provider, provider_dispute_id) do nothing
         returning ${COLUMNS}`,
        [
          d.id,
          d.merchantId,
          d.paymentId,
          d.paymentReference,
          d.provider,
          d.providerDisputeId,
          d.amount.toFixed(),
          d.currency,
          d.fee.toFixed(),
          d.reason,
          d.status,
          d.providerStatus,
          JSON.stringify(d.evidence),
          d.evidenceDueBy,
          d.funds,
          d.createdAt,
          d.closedAt,
        ],
      );
      if (!row) return null;
      const inserted = disputeOf(row);
      await this.apply(query, inserted, write(inserted));
      return inserted;
    });
  }

  /**
   * Changes a dispute under its row lock: `change` sees the row as it is now and answers the row after and what the
   * change writes, or null to change nothing (answered as the row stands).
   */
  async change(
    id: string,
    change: (current: Dispute) => { after: Dispute; write: DisputeWrite } | null,
  ): Promise<{ dispute: Dispute; changed: boolean; write: DisputeWrite | null }> {
    return inTransaction(this.deps.sql, async (query) => {
      const [row] = await query<Row>(`select ${COLUMNS} from dispute where id = $1 for update`, [id]);
      if (!row) throw new Error(`dispute ${id} vanished`);
      const current = disputeOf(row);
      const next = change(current);
      if (!next) return { dispute: current, changed: false, write: null };
      const a = next.after;
      await query(
        `update dispute set status = $2, provider_status = $3, evidence = $4::jsonb, evidence_due_by = $5, reminders_sent = $6, submission_count = $7,
           funds = $8, updated_at = $9, closed_at = $10, amount = $11, fee = $12 where id = $1`,
        [
          id,
          a.status,
          a.providerStatus,
          JSON.stringify(a.evidence),
          a.evidenceDueBy,
          a.remindersSent,
          a.submissionCount,
          a.funds,
          a.updatedAt,
          a.closedAt,
          a.amount.toFixed(),
          a.fee.toFixed(),
        ],
      );
      await this.apply(query, a, next.write);
      return { dispute: a, changed: true, write: next.write };
    });
  }

  /** The money's moves, then the events, then the audit entry, inside the change's transaction. */
  private async apply(query: TxQuery, d: Dispute, write: DisputeWrite): Promise<void> {
    for (const move of write.moves) {
      if (move === 'hold') await this.hold(query, d);
      else if (move === 'release') await this.release(query, d);
      else await this.withdraw(query, d);
    }
    for (const event of write.events) {
      const params = new Params();
      const sql = this.deps.outbox.eventSql(params, event);
      await query(`with ${sql.ctes.join(',\n')} select ${sql.selects.length ? runSelects(sql.selects) : '1'}`, params.values);
    }
    if (write.audit) await query(write.audit.text, write.audit.values);
  }

  /**
   * The chargeback's hold: amount + fee from available into disputed; what available cannot cover is owed (receivable).
   * Available is read under its row lock (the first of the merchant's accounts in id order, as the lines' trigger locks
   * them): nothing can spend it between the read and the posting. The payment counts the disputed amount (its CHECK keeps
   * refunds and disputes within what was captured) and waits for refunds until the dispute closes.
   */
  private async hold(query: TxQuery, d: Dispute): Promise<void> {
    const total = d.amount.plus(d.fee);
    const [claimed] = await query<{ id: string }>(
      `update "transaction" set dispute_open = true, disputed_amount = disputed_amount + $2::numeric
       where id = $1 and refunded_amount + disputed_amount + $2::numeric <= amount returning id`,
      [d.paymentId, d.amount.toFixed()],
    );
    if (!claimed) throw new DisputeExceedsPayment();
    const available = merchantAccount(d.merchantId, 'available', d.currency);
    await query(
      `with av as (select credits_posted - debits_posted as balance from ledger_account where id = $1 for no key update),
            split as (select least(greatest(coalesce((select balance from av), 0), 0), $2::numeric) as covered),
            entry as (
              insert into ledger_entry (key, merchant_id, transaction_id, leg, type, source_reference, fee, description, created_at)
              values ($3, $4, null, 'hold', 'dispute_withdrawal', $5, $6::numeric, 'Chargeback held', $7)
              on conflict (key) do nothing returning id)
       insert into ledger_line (entry_id, account_id, currency, amount)
       select entry.id, v.account_id, $8::char(3), v.amount from entry, split,
         lateral (values ($1, -split.covered), ($9, split.covered - $2::numeric), ($10, $2::numeric)) v(account_id, amount)
       where v.amount <> 0`,
      [
        available,
        total.toFixed(),
        `${d.id}:hold`,
        d.merchantId,
        d.paymentReference,
        d.fee.toFixed(),
        d.updatedAt,
        d.currency,
        merchantAccount(d.merchantId, 'receivable', d.currency),
        merchantAccount(d.merchantId, 'disputed', d.currency),
      ],
    );
  }

  /** Won: the hold back to available (which repays any debt first, in the lines' trigger); the payment can be refunded again. */
  private async release(query: TxQuery, d: Dispute): Promise<void> {
    await query(`update "transaction" set dispute_open = false, disputed_amount = disputed_amount - $2::numeric where id = $1`, [
      d.paymentId,
      d.amount.toFixed(),
    ]);
    const total = d.amount.plus(d.fee);
    await this.post(query, d, 'release', 'dispute_reinstatement', d.fee.negated(), [
      { account: merchantAccount(d.merchantId, 'disputed', d.currency), currency: d.currency, amount: total.negated() },
      { account: merchantAccount(d.merchantId, 'available', d.currency), currency: d.currency, amount: total },
    ]);
  }

  /** Lost: the amount back to the card network through the provider that charged it, the fee to revenue. */
  private async withdraw(query: TxQuery, d: Dispute): Promise<void> {
    await query(`update "transaction" set dispute_open = false where id = $1`, [d.paymentId]);
    // The clearing account the payment settled from: the provider that charged the card.
    const [settled] = await query<{ account_id: string }>(
      `select l.account_id from ledger_entry e join ledger_line l on l.entry_id = e.id
       where e.key = $1 and l.account_id like 'p:provider_clearing:%' limit 1`,
      [`${d.paymentId}:settle`],
    );
    const clearing = settled?.account_id ?? clearingAccount(d.provider, d.currency);
    await this.post(query, d, 'withdraw', 'dispute_loss', new Decimal(0), [
      { account: merchantAccount(d.merchantId, 'disputed', d.currency), currency: d.currency, amount: d.amount.plus(d.fee).negated() },
      { account: clearing, currency: d.currency, amount: d.amount },
      { account: platformAccount('fee_revenue', d.currency), currency: d.currency, amount: d.fee },
    ]);
  }

  private async post(
    query: TxQuery,
    d: Dispute,
    leg: string,
    type: 'dispute_reinstatement' | 'dispute_loss',
    fee: Decimal,
    lines: { account: string; currency: string; amount: Decimal }[],
  ): Promise<void> {
    const params = new Params();
    const p = posting({
      key: `${d.id}:${leg}`,
      leg,
      merchantId: d.merchantId,
      transactionId: null,
      type,
      sourceReference: d.paymentReference,
      fee,
      description: type === 'dispute_loss' ? 'Chargeback lost' : 'Chargeback won',
      createdAt: d.updatedAt,
      lines,
    });
    const { ctes } = postingsSql(params, [p], undefined, 'dispute');
    if (ctes.length) await query(`with ${ctes.join(',\n')} select 1`, params.values);
  }
}

/** The dispute's amount is more than what the payment has left (its refunds and disputes took the rest). */
export class DisputeExceedsPayment extends Error {
  constructor() {
    super('the dispute is more than what is left of the payment');
  }
}
