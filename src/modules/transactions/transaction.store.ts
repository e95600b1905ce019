import { Params, uniqueViolation, type Sql } from '../../db/sql';
import { runSelects } from '../../jobs/job-queue';
import type { SecretBox } from '../../shared/crypto';
import { AppError } from '../../shared/errors';
import { Decimal } from '../../shared/money';
import { UUID_ID, decodeCursor } from '../../shared/pagination';
import type { NewEvent, Outbox } from '../outbox/outbox';
import { isOverdraft } from '../ledger/ledger.model';
import { postingsSql, refusedForFunds } from '../ledger/ledger.sql';
import type { TransactionJobQueue, TransactionJobSpec } from './transaction.jobs';
import { NO_LEDGER_EFFECT, type LedgerEffect } from './transaction.kinds';
import { TRANSACTION_COLUMNS } from './transaction.definition';
import { asTransaction, type Transaction, type TransactionColumns, type TransactionEvent } from './transaction.record';
import type { TransactionKind, TransactionStatus } from './transaction.state';

/** Record field → column, for every column of the `transaction` table (transaction.definition.ts). */
const COLUMNS = TRANSACTION_COLUMNS.columns;
const FIELDS = TRANSACTION_COLUMNS.fields;
const DECIMALS = TRANSACTION_COLUMNS.decimals;
const JSON_FIELDS = TRANSACTION_COLUMNS.json;
const SEALED = TRANSACTION_COLUMNS.sealed;
const SELECT_LIST = FIELDS.map((f) => `${COLUMNS[f]} as "${f}"`).join(', ');
const INSERT_COLUMNS = FIELDS.map((f) => COLUMNS[f]).join(', ');
/** What a status change may write besides the status. */
const MUTABLE: Array<keyof TransactionColumns> = [
  'status',
  'failureReason',
  'providerReference',
  'bankInfo',
  'virtualAccountNumber',
  'nextActionUrl',
  'updatedAt',
  'completedAt',
  'expiresAt',
  'availableAt',
];
/** The key of a transaction's reconciliation job is this prefix and its id. */
export const RECONCILE_KEY_PREFIX = 'reconcile:';
const RECONCILE_KEY_PREFIX_SQL = `'${RECONCILE_KEY_PREFIX}'`;

/** The record ↔ its row: exact decimals, JSON bank details, and the 3-D Secure address sealed at rest. */
class RowMapping {
  constructor(private readonly box: SecretBox) {}

  /** A row read with SELECT_LIST (columns aliased to field names) → the record of its kind (an error if it lacks one of its kind's columns). */
  toTransaction = (row: Record<string, unknown>): Transaction => {
    for (const field of DECIMALS) if (row[field] !== null) row[field] = new Decimal(row[field] as string);
    for (const field of SEALED) if (row[field] !== null) row[field] = this.openLink(row[field] as string);
    return asTransaction(row as unknown as TransactionColumns);
  };

  /** A link sealed under another key (ENCRYPTION_KEY changed) is lost, not an error for every read of its row. */
  private openLink(sealed: string): string | null {
    try {
      return this.box.open(sealed);
    } catch {
      return null;
    }
  }

  toDatabase(field: keyof TransactionColumns, value: unknown): unknown {
    if (value === null || value === undefined) return null;
    if (DECIMALS.has(field)) return (value as Decimal).toFixed();
    if (JSON_FIELDS.has(field)) return JSON.stringify(value);
    if (SEALED.has(field)) return this.box.seal(value as string);
    return value;
  }
}

export interface ListFilter {
  status?: TransactionStatus;
  kind?: TransactionKind;
  customerId?: string;
  /** Payments on the merchant's checkout sessions that this payment link opened. */
  paymentLinkId?: string;
  /** Created at or after. */
  createdFrom?: Date;
  /** Created before. */
  createdTo?: Date;
  /** Either reference exactly, or the email of the merchant's customer in any case. */
  search?: string;
}

/** The conditions of a merchant's list (and its export) for a filter, in `params`. */
function listWhere(params: Params, merchantId: string, filter: ListFilter): string[] {
  const where = [`merchant_id = ${params.p(merchantId)}`];
  if (filter.status) where.push(`status = ${params.p(filter.status)}`);
  if (filter.kind) where.push(`kind = ${params.p(filter.kind)}`);
  if (filter.customerId) where.push(`customer_id = ${params.p(filter.customerId)}`);
  if (filter.paymentLinkId) {
    // The link's sessions first (by checkout_session_link), as one array: the merchant's own sessions only.
    where.push(
      `checkout_session_id = any(array(select id from checkout_session where payment_link_id = ${params.p(filter.paymentLinkId)} ` +
        `and merchant_id = ${params.p(merchantId)}::uuid))`,
    );
  }
  if (filter.createdFrom) where.push(`created_at >= ${params.p(filter.createdFrom)}`);
  if (filter.createdTo) where.push(`created_at < ${params.p(filter.createdTo)}`);
  if (filter.search) {
    // Each arm has its index: reference (unique), (merchant_id, external_reference), customer_id, found together
    // (BitmapOr). The customers' ids come first, by (merchant_id, lower(email)), as one array (an InitPlan): an
    // `in (select …)` here would be a filter instead, read row by row through all the merchant's transactions.
    const term = params.p(filter.search);
    where.push(
      `(reference = ${term} or external_reference = ${term} or customer_id = any(array(` +
        `select id from customer where merchant_id = ${params.p(merchantId)} and lower(email) = lower(${term}))))`,
    );
  }
  return where;
}

/** A status change, written by one statement with everything that goes with it. */
export interface StatusChange {
  /** The transaction as it will be after the change (its status, reason, provider fields, times). */
  next: Transaction;
  /** The status it must still have; if it has moved on meanwhile, nothing is written. */
  from: TransactionStatus;
  /** The history entry: its from-status (null for the first entry) and reason. */
  history: { from: TransactionStatus | null; reason: string };
  /** The outbox event, already stamped with its id and time. */
  event?: NewEvent & { id: string; createdAt: Date };
  jobs?: TransactionJobSpec[];
  /** The provider is to be asked (or the sandbox to decide) this long after the change: its row of `settlement_due` (SettlementPump). */
  settleAfterMs?: number;
  /** What the change does to the books (its kind's `ledger`), in the same statement. */
  ledger?: LedgerEffect;
}

/** Whether an insert happened, and why not when it did not. */
export type InsertOutcome = 'inserted' | 'parent_claim_refused' | 'quote_used';

/** What the store is built from (the transactions module). */
interface TransactionStoreDeps {
  sql: Sql;
  /** Its statements add the engine's jobs in the same statement. */
  jobs: TransactionJobQueue;
  /** Its status changes write their event (and each module's follow-ups) in the same statement. */
  outbox: Outbox;
  /** Seals the card fields at rest. */
  secretBox: SecretBox;
  /** Told after the commit of a change that scheduled a settlement, and in how long it falls due (SettlementPump.dueIn). */
  onSettlementDue?: (ms: number) => void;
  /** A currency's minor unit (the reference data's). */
  minorUnitOf: (currency: string) => number | undefined;
}

/**
 * Every statement on the `transaction` and `transaction_event` tables. Each
 * operation is one statement: an insert, a read, or a conditional update that
 * carries its history entry, outbox event, webhook delivery and jobs in common
 * table expressions, so it commits atomically without a transaction block.
 */
export class TransactionStore {
  private readonly sql: Sql;
  private readonly jobs: TransactionJobQueue;
  private readonly outbox: Outbox;
  private readonly rows: RowMapping;

  private readonly onSettlementDue?: (ms: number) => void;

  /** A currency's minor unit: the decimals of a 402's shortfall. */
  private readonly minorUnitOf: (currency: string) => number | undefined;

  constructor({ sql, jobs, outbox, secretBox, onSettlementDue, minorUnitOf }: TransactionStoreDeps) {
    this.onSettlementDue = onSettlementDue;
    this.minorUnitOf = minorUnitOf;
    this.sql = sql;
    this.jobs = jobs;
    this.outbox = outbox;
    this.rows = new RowMapping(secretBox);
  }

  /**
   * The first statement of every initiation: the row, `initiating`. The per-merchant
   * unique constraint answers a reused reference (no read before the write); the
   * error names the transaction that holds it.
   */
  async insert(txn: Transaction, ledger: LedgerEffect = NO_LEDGER_EFFECT): Promise<InsertOutcome> {
    const params = new Params();
    const values = FIELDS.map((f) => `${params.p(this.rows.toDatabase(f, txn[f]))}${JSON_FIELDS.has(f) ? '::jsonb' : ''}`).join(', ');
    const ctes: string[] = [];
    const claim = ledger.parentClaim;
    const guards: string[] = [];
    if (claim) {
      ctes.push(parentClaimSql(params, claim.parentId, claim.amount, txn.merchantId));
      guards.push('parent_claim');
    }
    // A locked quote serves one transaction: consumed here, in the insert's own statement, only while unused. Of two
    // inserts racing on one quote, the second waits for the first's row lock, then finds it used and inserts nothing.
    if (txn.quoteId) {
      ctes.push(
        `quote_claim as (update fx_quote set used_by = ${params.p(txn.id)}::uuid
           where id = ${params.p(txn.quoteId)} and merchant_id = ${params.p(txn.merchantId)}::uuid and used_by is null returning id)`,
      );
      guards.push('quote_claim');
    }
    ctes.push(
      `inserted as (insert into "transaction" (${INSERT_COLUMNS}) select ${values} ${guards.length > 0 ? `from ${guards.join(', ')}` : ''} returning id)`,
      `initiation as (insert into transaction_initiation (transaction_id, created_at) select id, now() from inserted)`,
      ...postingsSql(params, ledger.postings, 'inserted', 'ledger').ctes,
    );
    try {
      // Prepared per shape: the text depends only on how many entries and lines ride along.
      const [row] = await this.sql.queryShaped<{ inserted: string }>(
        `with ${ctes.join(',\n')} select (select count(*) from inserted) as inserted`,
        params.values,
      );
      if (Number(row?.inserted) === 1) return 'inserted';
      if (!txn.quoteId) return 'parent_claim_refused';
      // The quote was used. By this very request, retried under the same reference: that answers as before.
      await this.assertReferenceFree(txn);
      return 'quote_used';
    } catch (err) {
      if (isOverdraft(err)) throw await refusedForFunds(this.sql, ledger.postings, this.minorUnitOf);
      const violated = uniqueViolation(err);
      if (violated === 'transaction_merchant_external_reference_unique') {
        await this.assertReferenceFree(txn);
        throw duplicateReference(txn.externalReference, undefined);
      }
      // A checkout session's one payment in flight or done (the partial unique index): a second attempt waits for the first to end.
      if (violated === 'transaction_checkout_session_attempt_key') {
        throw new AppError(
          'INVALID_STATE',
          'This checkout already has a payment under way or complete; nothing was charged. Wait for it to end before trying again',
        );
      }
      throw err;
    }
  }

  /** DUPLICATE_REQUEST naming the transaction that holds the merchant's reference, if one does. */
  private async assertReferenceFree(txn: Transaction): Promise<void> {
    const [existing] = await this.sql.query<{ reference: string }>('select reference from "transaction" where merchant_id = $1 and external_reference = $2', [
      txn.merchantId,
      txn.externalReference,
    ]);
    if (existing) throw duplicateReference(txn.externalReference, existing.reference);
  }

  /** The service's reference of the transaction that consumed a quote (null when none has, or it is gone). */
  async quoteUser(quoteId: string): Promise<string | null> {
    const [row] = await this.sql.query<{ reference: string }>('select t.reference from fx_quote q join "transaction" t on t.id = q.used_by where q.id = $1', [
      quoteId,
    ]);
    return row?.reference ?? null;
  }

  /** By the service's reference or the merchant's own; the service's wins when both match. One statement. */
  async findByReference(merchantId: string, referenceOrExternal: string): Promise<Transaction | null> {
    const [row] = await this.sql.query(
      `select ${SELECT_LIST} from "transaction"
       where merchant_id = $1 and (reference = $2 or external_reference = $2)
       order by reference = $2 desc limit 1`,
      [merchantId, referenceOrExternal],
      'transaction_by_reference',
    );
    return row ? this.rows.toTransaction(row) : null;
  }

  async findById(id: string): Promise<Transaction | null> {
    const [row] = await this.sql.query(`select ${SELECT_LIST} from "transaction" where id = $1`, [id], 'transaction_by_id');
    return row ? this.rows.toTransaction(row) : null;
  }

  /** Newest first by keyset (created_at, id); `limit + 1` rows, the extra one only saying there is more. */
  async list(merchantId: string, filter: ListFilter, limit: number, after?: string): Promise<Transaction[]> {
    const params = new Params();
    const where = listWhere(params, merchantId, filter);
    if (after) {
      const cursor = decodeCursor(after, UUID_ID);
      where.push(`(created_at, id) < (${params.p(cursor.createdAt)}, ${params.p(cursor.id)}::uuid)`);
    }
    const rows = await this.sql.query(
      `select ${SELECT_LIST} from "transaction" where ${where.join(' and ')} order by created_at desc, id desc limit ${params.p(limit + 1)}`,
      params.values,
    );
    return rows.map(this.rows.toTransaction);
  }

  /** How many transactions the filter matches (what an export will hold, give or take those changing meanwhile). */
  async count(merchantId: string, filter: ListFilter): Promise<number> {
    const params = new Params();
    const [row] = await this.sql.query<{ count: string }>(
      `select count(*) as count from "transaction" where ${listWhere(params, merchantId, filter).join(' and ')}`,
      params.values,
    );
    return Number(row?.count ?? 0);
  }

  async history(transactionId: string): Promise<TransactionEvent[]> {
    return this.sql.query<TransactionEvent>(
      `select seq::text as "id", transaction_id as "transactionId", from_status as "fromStatus", to_status as "toStatus", reason, occurred_at as "occurredAt"
       from transaction_history where transaction_id = $1 order by seq`,
      [transactionId],
      'transaction_history',
    );
  }

  /**
   * Removes a row whose initiation the provider refused outright (nothing was started), with
   * what its insert posted given back (`ledger`: its kind's effect for a failure) in the same statement,
   * and the quote it consumed (`quoteId`) free again: nothing was created with it.
   */
  async deleteInitiating(id: string, ledger: LedgerEffect = NO_LEDGER_EFFECT, quoteId: string | null = null): Promise<void> {
    const params = new Params();
    const ctes = [
      `removed as (delete from "transaction" where id = ${params.p(id)} and status = 'initiating' returning id)`,
      `initiation_done as (delete from transaction_initiation where transaction_id in (select id from removed))`,
    ];
    if (quoteId) ctes.push(`quote_freed as (update fx_quote set used_by = null where id = ${params.p(quoteId)} and used_by in (select id from removed))`);
    if (ledger.parentClaim) ctes.push(parentClaimSql(params, ledger.parentClaim.parentId, ledger.parentClaim.amount, null, 'removed'));
    ctes.push(...postingsSql(params, ledger.postings, 'removed', 'ledger').ctes);
    await this.sql.query(`with ${ctes.join(',\n')} select count(*) from removed`, params.values);
  }

  /**
   * Transactions still `initiating` `ageMs` after their insert, by database time (their
   * process died mid-initiation), that have no reconciliation job yet: one already
   * waiting with its backoff is left alone, and cannot hold back newer ones.
   */
  async staleInitiating(ageMs: number, limit: number): Promise<string[]> {
    const rows = await this.sql.query<{ transaction_id: string }>(
      `select transaction_id from transaction_initiation
       where created_at < now() - make_interval(secs => $1) and not ${this.jobs.jobExistsSql(`${RECONCILE_KEY_PREFIX_SQL} || transaction_id::text`)}
       order by created_at limit $2`,
      [ageMs / 1000, limit],
    );
    return rows.map((r) => r.transaction_id);
  }

  /** Forgets a reconciliation candidate whose transaction is gone or has moved on. */
  async forgetInitiation(id: string): Promise<void> {
    await this.sql.query('delete from transaction_initiation where transaction_id = $1', [id]);
  }

  /** Posts entries that follow a change already made (a release after its delay); false when they were posted before. */
  async post(ledger: LedgerEffect): Promise<boolean> {
    const params = new Params();
    const { ctes } = postingsSql(params, ledger.postings, undefined, 'ledger');
    if (ctes.length === 0) return false;
    const [row] = await this.sql.query<{ posted: string }>(`with ${ctes.join(',\n')} select (select count(*) from ledger_entry0) as posted`, params.values);
    return Number(row?.posted) > 0;
  }

  /**
   * The one statement of every status change: the update, conditional on the
   * status it must still have, and (only if it happened) its history entry, its
   * outbox event with the webhook delivery, its settlement's row, and the jobs that
   * follow. Returns whether it happened: false when another worker, instance or
   * request changed the transaction first.
   */
  async applyChange(change: StatusChange): Promise<boolean> {
    const params = new Params();
    const { next } = change;
    const sets = MUTABLE.map((f) => `${COLUMNS[f]} = ${params.p(this.rows.toDatabase(f, next[f]))}${JSON_FIELDS.has(f) ? '::jsonb' : ''}`);
    const first = change.history.from === null;
    // The first history entry rides on the row itself (the same HOT update); later ones are rows of transaction_event.
    // (SET sees the row as it was: the new values are the parameters.)
    if (first) {
      sets.push(
        `initiated_status = ${params.p(next.status)}::text, initiated_reason = ${params.p(change.history.reason)}::text, initiated_at = ${params.p(next.updatedAt)}::timestamptz`,
      );
    }
    const ctes = [
      `changed as (
        update "transaction" set ${sets.join(', ')}
        where id = ${params.p(next.id)} and status = ${params.p(change.from)}
        returning id)`,
    ];
    if (!first) {
      ctes.push(`history as (
        insert into transaction_event (transaction_id, from_status, to_status, reason, occurred_at)
        select id, ${params.p(change.history.from)}::text, ${params.p(next.status)}::text, ${params.p(change.history.reason)}::text, ${params.p(next.updatedAt)}::timestamptz from changed)`);
    }
    // Leaving `initiating`: no longer a candidate for reconciliation.
    if (change.from === 'initiating') ctes.push('initiation_done as (delete from transaction_initiation where transaction_id in (select id from changed))');
    const ledger = change.ledger ?? NO_LEDGER_EFFECT;
    if (ledger.parentClaim) ctes.push(parentClaimSql(params, ledger.parentClaim.parentId, ledger.parentClaim.amount, null, 'changed'));
    ctes.push(...postingsSql(params, ledger.postings, 'changed', 'ledger').ctes);
    // Its settlement, due when the provider is to be asked: a row, not a job (a new answer starts the chain again).
    if (change.settleAfterMs !== undefined) {
      ctes.push(`settle_due as (
        insert into settlement_due (transaction_id, due_at, poll)
        select id, now() + make_interval(secs => ${params.p(change.settleAfterMs / 1000)}), 0 from changed
        on conflict (transaction_id) do update set due_at = excluded.due_at, poll = 0, claimed_until = null)`);
    }
    const selects: string[] = [];
    for (const part of [
      change.event ? this.outbox.eventSql(params, change.event, 'changed') : undefined,
      this.jobs.jobsSql(params, [...(change.jobs ?? []), ...(ledger.jobs ?? [])], 'changed', 'followup'),
    ]) {
      if (!part) continue;
      ctes.push(...part.ctes);
      selects.push(...part.selects);
    }
    const asynchronous = commitsAsynchronously(change) ? `, ${ASYNCHRONOUS_COMMIT}` : '';
    const [row] = await this.sql.queryShaped<{ changed: string }>(
      `with ${ctes.join(',\n')} select (select count(*) from changed) as changed${selects.length ? `, ${runSelects(selects)}` : ''}${asynchronous}`,
      params.values,
    );
    this.jobs.wakeIfDue(row, selects);
    const changed = Number(row?.changed) === 1;
    if (changed && change.settleAfterMs !== undefined) this.onSettlementDue?.(change.settleAfterMs);
    return changed;
  }
}

/**
 * This statement's own commit does not wait for its WAL to reach the disk (`synchronous_commit = off`, local to its
 * implicit transaction, so only this statement's commit). Evaluated in the final SELECT, so before the commit.
 */
const ASYNCHRONOUS_COMMIT = `set_config('synchronous_commit', 'off', true)`;

/**
 * Whether a change may commit asynchronously: only the first answer of an initiation (or of its reconciliation) that
 * leaves the transaction `processing`, with no page for the payer, and posts nothing. If a PostgreSQL
 * crash loses that commit, the database is as it was after the insert (WAL is replayed in order, so nothing later
 * survives without it): the row is `initiating` with its reconciliation marker, and reconciliation asks the provider
 * again with the same key, as after a crash of our own process (docs/design.md, "Asynchronous commit of the first answer").
 * Its event (`<kind>.processing`, for a merchant who chose it) says only what the answer to the request already said,
 * and has an id derived from the transaction (`Outbox.stamp`): recorded again by reconciliation, it is the same event,
 * with the same `webhook-id`, so a receiver that saw it once sees a duplicate it already drops.
 * A change that decides the transaction, moves money in the books or hands the payer a page commits synchronously:
 * something outside may act on it.
 */
export function commitsAsynchronously(change: StatusChange): boolean {
  const ledger = change.ledger ?? NO_LEDGER_EFFECT;
  return (
    change.from === 'initiating' &&
    change.next.status === 'processing' &&
    change.next.nextActionUrl === null &&
    (change.event === undefined || change.event.type === `${change.next.kind}.processing`) &&
    ledger.postings.length === 0 &&
    ledger.parentClaim === undefined
  );
}

/**
 * A claim on a parent transaction's amount (a refund's on its payment): `amount` > 0 holds it,
 * only while the payment is successful and what its refunds hold stays within what was
 * captured. The condition is evaluated on the row's latest version after its lock, so
 * concurrent claims can never hold more than the amount together. `amount` < 0 gives it back.
 * `merchantId`: the parent must be the merchant's (null: known already).
 */
function parentClaimSql(params: Params, parentId: string, amount: Decimal, merchantId: string | null, guard?: string): string {
  const delta = `${params.p(amount.toFixed())}::numeric`;
  const conditions = [`id = ${params.p(parentId)}::uuid`];
  if (merchantId) conditions.push(`merchant_id = ${params.p(merchantId)}::uuid`);
  // A chargeback's disputed amount counts too, and an open one holds every refund (issue 39): checked on the row's latest version.
  if (amount.isPositive())
    conditions.push(`kind = 'payment' and status = 'successful' and not dispute_open and refunded_amount + disputed_amount + ${delta} <= amount`);
  if (guard) conditions.push(`exists (select 1 from ${guard})`);
  return `parent_claim as (update "transaction" set refunded_amount = refunded_amount + ${delta} where ${conditions.join(' and ')} returning id)`;
}

function duplicateReference(externalReference: string, existingReference: string | undefined): AppError {
  return new AppError('DUPLICATE_REQUEST', `A transaction with reference ${externalReference} already exists`, [
    { field: 'reference', issue: existingReference ? `already used by transaction ${existingReference}` : 'is already used' },
  ]);
}
