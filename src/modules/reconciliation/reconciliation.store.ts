import { Params, uniqueViolation, type Sql } from '../../db/sql';
import { timeOrderedUuid } from '../../shared/crypto';
import { Decimal } from '../../shared/money';
import type { AuditEntry, AuditLog } from '../audit/audit-log';
import type { MatchClass, OurTransaction } from './matching';
import type { ClearingFigure, ReconciliationItem, ReconciliationRun, RunClass, StoredItem } from './reconciliation.records';

/** A run still `running` this long after it started is taken for a crashed instance's, and replaced. */
const STALE_RUN_MS = 60 * 60 * 1000;

const RUN_COLUMNS = `id, connector, window_from, window_to, status, matched, amount_mismatch, status_mismatch, missing_at_provider, missing_here,
  in_flight, balance_mismatch, clearing, started_at, finished_at, error`;
const ITEM_COLUMNS = `id, run_id, class, transaction_id, transaction_reference, kind, provider_reference, currency, our_amount, our_currency,
  our_status, their_amount, their_currency, their_status, resolved_at, resolved_by, resolution_note`;

/* eslint-disable @typescript-eslint/no-explicit-any -- rows as pg returns them, mapped once below */
function runOf(r: any): ReconciliationRun {
  return {
    id: r.id,
    connector: r.connector,
    windowFrom: r.window_from,
    windowTo: r.window_to,
    status: r.status,
    counts: {
      matched: r.matched,
      amount_mismatch: r.amount_mismatch,
      status_mismatch: r.status_mismatch,
      missing_at_provider: r.missing_at_provider,
      missing_here: r.missing_here,
      in_flight: r.in_flight,
      balance_mismatch: r.balance_mismatch,
    },
    clearing: r.clearing,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    error: r.error,
  };
}

function itemOf(r: any): ReconciliationItem {
  const dec = (v: string | null) => (v === null ? null : new Decimal(v));
  return {
    id: r.id,
    runId: r.run_id,
    class: r.class,
    transactionId: r.transaction_id,
    transactionReference: r.transaction_reference,
    kind: r.kind,
    providerReference: r.provider_reference,
    currency: r.currency,
    ours: r.our_status === null && r.our_amount === null ? null : { amount: dec(r.our_amount), currency: r.our_currency, status: r.our_status },
    theirs: r.their_status === null && r.their_amount === null ? null : { amount: dec(r.their_amount), currency: r.their_currency, status: r.their_status },
    resolvedAt: r.resolved_at,
    resolvedBy: r.resolved_by,
    resolutionNote: r.resolution_note,
  };
}
/* eslint-enable @typescript-eslint/no-explicit-any */

/** Reconciliation's statements. It reads the transaction table and the books, and writes only its own two tables. */
export class ReconciliationStore {
  constructor(private readonly deps: { sql: Sql; audit: AuditLog }) {}

  /**
   * Claims the run of a connector's window: a new row `running`, or null when one exists that is not replaced (one
   * completed, or running and fresh: another instance's). A failed or stale run is replaced (its items with it).
   */
  async claim(connector: string, from: Date, to: Date, now: Date): Promise<string | null> {
    const [existing] = await this.deps.sql.query<{ id: string; status: string; started_at: Date }>(
      'select id, status, started_at from reconciliation_run where connector = $1 and window_from = $2',
      [connector, from],
    );
    if (existing) {
      const stale = existing.status === 'running' && now.getTime() - existing.started_at.getTime() > STALE_RUN_MS;
      if (existing.status !== 'failed' && !stale) return null;
      await this.deps.sql.query('delete from reconciliation_run where id = $1 and status = $2', [existing.id, existing.status]);
    }
    const id = timeOrderedUuid();
    try {
      await this.deps.sql.query(
        `insert into reconciliation_run (id, connector, window_from, window_to, status, started_at) values ($1, $2, $3, $4, 'running', $5)`,
        [id, connector, from, to, now],
      );
    } catch (err) {
      if (uniqueViolation(err) !== undefined) return null; // another instance claimed it between the two statements
      throw err;
    }
    return id;
  }

  /** The connector's transactions created in the window, as matching reads them (any kind, by the generic columns). */
  async transactionsOf(connector: string, from: Date, to: Date): Promise<OurTransaction[]> {
    const rows = await this.deps.sql.query<{
      id: string;
      reference: string;
      kind: string;
      status: string;
      provider_reference: string | null;
      amount: string | null;
      currency: string | null;
    }>(
      // What the provider was asked to move: a payout's destination amount, else the amount.
      `select id, reference, kind, status, provider_reference,
              coalesce(destination_amount, amount)::text as amount, coalesce(destination_currency, currency) as currency
       from "transaction" where connector = $1 and created_at >= $2 and created_at < $3 order by created_at, id`,
      [connector, from, to],
      'reconciliation_transactions',
    );
    return rows.map((r) => ({
      id: r.id,
      reference: r.reference,
      kind: r.kind,
      status: r.status,
      providerReference: r.provider_reference,
      amount: new Decimal(r.amount ?? 0),
      currency: r.currency ?? '',
    }));
  }

  /** The currencies of the connector's clearing accounts (docs/ledger.md). */
  async clearingCurrencies(connector: string): Promise<string[]> {
    const rows = await this.deps.sql.query<{ currency: string }>(
      `select currency from ledger_account where code = 'provider_clearing' and provider = $1 order by currency`,
      [connector],
    );
    return rows.map((r) => r.currency);
  }

  /** Our clearing balance (debit-normal: what the provider should hold for us) from every entry up to `at`. */
  async clearingBalance(connector: string, currency: string, at: Date): Promise<Decimal> {
    const [row] = await this.deps.sql.query<{ balance: string }>(
      `select coalesce(-sum(l.amount), 0)::text as balance from ledger_line l join ledger_entry e on e.id = l.entry_id
       where l.account_id = $1 and e.created_at <= $2`,
      [`p:provider_clearing:${connector}:${currency}`, at],
    );
    return new Decimal(row!.balance);
  }

  /** The connector's last completed run before this one: its clearing figures, to compare movements. */
  async previousClearing(connector: string, before: Date): Promise<{ figures: ClearingFigure[]; at: Date } | null> {
    const [row] = await this.deps.sql.query<{ clearing: ClearingFigure[]; finished_at: Date }>(
      `select clearing, finished_at from reconciliation_run where connector = $1 and status = 'completed' and window_from < $2
       order by window_from desc limit 1`,
      [connector, before],
    );
    return row ? { figures: row.clearing, at: row.finished_at } : null;
  }

  /** The items and the run's totals, in one statement: a run is complete with all its items or not at all. */
  async complete(runId: string, items: StoredItem[], clearing: ClearingFigure[], counts: Record<RunClass, number>, now: Date): Promise<void> {
    const rows = items.map((i) => ({
      id: timeOrderedUuid(),
      class: i.class,
      transaction_id: i.ours?.id ?? null,
      transaction_reference: i.ours?.reference ?? null,
      kind: i.ours?.kind ?? null,
      provider_reference: i.theirs?.providerReference ?? i.ours?.providerReference ?? null,
      currency: i.currency ?? null,
      our_amount: i.ours?.amount.toString() ?? i.ourAmount?.toString() ?? null,
      our_currency: i.ours?.currency ?? null,
      our_status: i.ours?.status ?? null,
      their_amount: i.theirs?.amount.toString() ?? i.theirAmount?.toString() ?? null,
      their_currency: i.theirs?.currency ?? null,
      their_status: i.theirs?.status ?? null,
    }));
    await this.deps.sql.query(
      `with items as (
         insert into reconciliation_item (id, run_id, class, transaction_id, transaction_reference, kind, provider_reference, currency,
           our_amount, our_currency, our_status, their_amount, their_currency, their_status)
         select x.id, $1, x.class, x.transaction_id, x.transaction_reference, x.kind, x.provider_reference, x.currency,
           x.our_amount, x.our_currency, x.our_status, x.their_amount, x.their_currency, x.their_status
         from jsonb_to_recordset($2::jsonb) as x(id uuid, class text, transaction_id uuid, transaction_reference text, kind text,
           provider_reference text, currency text, our_amount numeric, our_currency text, our_status text, their_amount numeric,
           their_currency text, their_status text)
         returning 1)
       -- (a data-modifying CTE runs whether or not it is referenced)
       update reconciliation_run set status = 'completed', finished_at = $3, clearing = $4::jsonb,
         matched = $5, amount_mismatch = $6, status_mismatch = $7, missing_at_provider = $8, missing_here = $9, in_flight = $10,
         balance_mismatch = $11
       where id = $1`,
      [
        runId,
        JSON.stringify(rows),
        now,
        JSON.stringify(clearing),
        counts.matched,
        counts.amount_mismatch,
        counts.status_mismatch,
        counts.missing_at_provider,
        counts.missing_here,
        counts.in_flight,
        counts.balance_mismatch,
      ],
    );
  }

  async fail(runId: string, error: string, now: Date): Promise<void> {
    await this.deps.sql.query(`update reconciliation_run set status = 'failed', finished_at = $2, error = $3 where id = $1`, [runId, now, error.slice(0, 500)]);
  }

  async run(id: string): Promise<ReconciliationRun | null> {
    const [row] = await this.deps.sql.query(`select ${RUN_COLUMNS} from reconciliation_run where id = $1`, [id]);
    return row ? runOf(row) : null;
  }

  /** Newest first; `before`: the last run id of the previous page. */
  async runs(opts: { connector?: string; limit: number; before?: string }): Promise<ReconciliationRun[]> {
    const params = new Params();
    const where = [
      opts.connector ? `connector = ${params.p(opts.connector)}` : null,
      opts.before ? `(started_at, id) < (select started_at, id from reconciliation_run where id = ${params.p(opts.before)})` : null,
    ].filter(Boolean);
    const rows = await this.deps.sql.query(
      `select ${RUN_COLUMNS} from reconciliation_run ${where.length ? `where ${where.join(' and ')}` : ''}
       order by started_at desc, id desc limit ${params.p(opts.limit)}`,
      params.values,
    );
    return rows.map(runOf);
  }

  async items(runId: string): Promise<ReconciliationItem[]> {
    const rows = await this.deps.sql.query(`select ${ITEM_COLUMNS} from reconciliation_item where run_id = $1 order by id`, [runId]);
    return rows.map(itemOf);
  }

  async item(id: string): Promise<ReconciliationItem | null> {
    const [row] = await this.deps.sql.query(`select ${ITEM_COLUMNS} from reconciliation_item where id = $1`, [id]);
    return row ? itemOf(row) : null;
  }

  /** Resolves an open exception with its note and the audit entry, in one statement: null when it was not open. */
  async resolve(id: string, note: string, by: string, now: Date, audit: AuditEntry): Promise<ReconciliationItem | null> {
    const params = new Params();
    const text = `with resolved as (
         update reconciliation_item set resolved_at = ${params.p(now)}, resolved_by = ${params.p(by)}, resolution_note = ${params.p(note)}
         where id = ${params.p(id)} and resolved_at is null and class not in ('matched', 'in_flight')
         returning ${ITEM_COLUMNS}),
       ${this.deps.audit.cte(params, audit, 'resolved')}
       select * from resolved`;
    const [row] = await this.deps.sql.query(text, params.values);
    return row ? itemOf(row) : null;
  }

  /** Open exceptions by connector and class (the metric). */
  async openExceptions(): Promise<Array<{ connector: string; class: MatchClass | 'balance_mismatch'; count: number }>> {
    return this.deps.sql.query(
      `select r.connector, i.class, count(*)::int as count from reconciliation_item i join reconciliation_run r on r.id = i.run_id
       where i.resolved_at is null and i.class not in ('matched', 'in_flight') group by r.connector, i.class`,
      [],
      'reconciliation_open_exceptions',
    );
  }
}
