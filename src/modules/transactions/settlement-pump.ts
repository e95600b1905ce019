import type { Sql } from '../../db/sql';
import type { JobRunner } from '../../jobs/job-runner';
import { systemClock } from '../../shared/clock';
import { DueLoop, type DueLoopSettings } from '../../shared/due-loop';
import type { Logger } from '../../shared/logger';

/** How one settlement went: `nextPollMs` when the provider has not decided (ask again after it), null when it is done. */
export interface SettlementRun {
  nextPollMs: number | null;
}

/** `concurrency`: settlements this instance runs at once (JOB_CONCURRENCY: beside the job workers, not among them). */
export interface SettlementPumpSettings extends DueLoopSettings {
  /** How long a claim lasts: longer than a settlement can take (a provider's status query, and the statements). */
  leaseMs: number;
}

/** Which instance this is, and whether another is alive (the job runner's heartbeats): a dead instance's claims are taken over. */
export type InstanceLiveness = Pick<JobRunner<unknown>, 'instanceId' | 'deadAfterMs' | 'instanceGoneSql'>;

/** One claimed row: the transaction and which query of its chain this is. */
interface Claimed {
  id: string;
  poll: number;
}

/**
 * Issue 40: settlement without a job each. A transaction the provider accepted has a row in `settlement_due`
 * (written by its answer's own statement: TransactionStore.applyChange), due when the provider should be asked
 * (a sandbox decision after SANDBOX_SETTLE_MS, a status query on PROVIDER_POLL_SCHEDULE). Each instance's pump
 * claims due rows in batches (`FOR UPDATE SKIP LOCKED`, a lease as long as a settlement may take), runs each
 * (`settle`: ProviderSignals.settle), and writes the results back in one statement per batch of results: a
 * decided transaction's row deleted, an undecided one's next poll scheduled. A killed process's claims are taken
 * over by another instance as soon as it is known to be dead (it stopped heartbeating: `deadAfterMs`, a few
 * seconds), or else when their lease lapses, and run again: a settlement is idempotent (the final transition is
 * conditional, and the write-back is fenced by the poll number).
 *
 * A claim runs when a row falls due: this instance's own new rows set a timer (`dueIn`), the claim's own answer
 * says when the next row falls due, and at the latest every `pollMs` (rows of other instances, lapsed claims).
 */
export class SettlementPump {
  /**
   * The settlements as the job queue's metrics show a task (`payments_jobs_*{task="settle-transaction"}`, the name
   * they had as jobs): due and unclaimed, not due yet, claimed (running), and how long the oldest due one has waited.
   * `failed` is 0: a settlement is never given up (a provider that never decides is asked on its poll schedule).
   */
  static readonly QUEUE_STATS_SQL = `select count(*) filter (where due_at <= now() and (claimed_until is null or claimed_until < now()))::int as queued,
      count(*) filter (where due_at > now() and (claimed_until is null or claimed_until < now()))::int as scheduled,
      count(*) filter (where claimed_until >= now())::int as running,
      0 as failed,
      coalesce(extract(epoch from now() - min(due_at) filter (where due_at <= now() and (claimed_until is null or claimed_until < now()))), 0)::float8 as "oldestAgeSeconds"
    from settlement_due`;

  private readonly loop: DueLoop;
  /** Results waiting for their write-back (flushed once per turn of the event loop). */
  private results: { id: string; poll: number; nextPollMs: number | null }[] = [];
  private flushing?: Promise<void>;
  private inContext: <T>(fn: () => Promise<T>) => Promise<T> = (fn) => fn();

  constructor(
    private readonly deps: {
      sql: Sql;
      logger: Logger;
      settle: (transactionId: string, poll: number) => Promise<SettlementRun>;
      settings: SettlementPumpSettings;
      /** Without it (a CLI, a test), only a lapsed lease frees a claim. */
      instances?: InstanceLiveness;
    },
  ) {
    this.loop = new DueLoop({ pollMs: deps.settings.pollMs, round: () => this.claim() });
    const holderGone = deps.instances ? deps.instances.instanceGoneSql('s.claimed_by', '$4') : 'false';
    this.claimStatement = `with due as (
           select transaction_id from settlement_due s
           where due_at <= now() and (claimed_until is null or claimed_until < now() or (claimed_by is not null and $4::float8 > 0 and ${holderGone}))
           order by due_at limit $1 for update skip locked),
         claimed as (
           update settlement_due s set claimed_until = now() + make_interval(secs => $2), claimed_by = $3
           from due where s.transaction_id = due.transaction_id
           returning s.transaction_id, s.poll)
         select (select json_agg(json_build_object('id', transaction_id, 'poll', poll)) from claimed) as claimed,
                (select min(due_at) from settlement_due where due_at > now()) as "nextDue"`;
  }

  private readonly claimStatement: string;

  /** `inContext`: runs a settlement in a database context of its own, as a job or a request is. */
  start(opts: { inContext: <T>(fn: () => Promise<T>) => Promise<T> }): void {
    this.inContext = opts.inContext;
    this.loop.start();
  }

  /** Stops claiming; waits for the settlements in flight (at most `drainMs`) and writes their results. */
  async stop(): Promise<void> {
    await this.loop.stop(this.deps.settings.drainMs);
    await this.flush();
  }

  /** A row of this instance's falls due in `ms` (its statement committed): a claim then. */
  dueIn(ms: number): void {
    this.loop.wakeAt(systemClock.now().getTime() + ms);
  }

  private async claim(): Promise<void> {
    const free = this.deps.settings.concurrency - this.loop.active;
    if (free <= 0) return; // a settlement that ends wakes the pump again
    try {
      const [row] = await this.deps.sql.query<{ claimed: Claimed[] | null; nextDue: Date | null }>(
        this.claimStatement,
        [free, this.deps.settings.leaseMs / 1000, this.deps.instances?.instanceId ?? null, (this.deps.instances?.deadAfterMs ?? 0) / 1000],
        'settlement_claim',
      );
      // Every place filled: more may be due; claimed again as places free up (each settlement that ends wakes the loop).
      for (const c of row?.claimed ?? []) this.run(c);
      if (row?.nextDue) this.loop.wakeAt(new Date(row.nextDue).getTime());
    } catch (err) {
      this.deps.logger.warn({ err: (err as Error).message }, 'settlement claim failed; the next wake or poll tries again');
    }
  }

  private run(c: Claimed): void {
    this.loop.track(
      this.inContext(() => this.deps.settle(c.id, c.poll)).then(
        (result) => this.record({ id: c.id, poll: c.poll, nextPollMs: result.nextPollMs }),
        // Left claimed: run again once its claim lapses (a database outage, a bug), by this instance or another.
        (err: Error) =>
          this.deps.logger.error({ err: err.message, transactionId: c.id }, 'settlement failed unexpectedly; it runs again once its claim lapses'),
      ),
    );
  }

  /** Queues a result for the batch's write-back (one statement for every result of this turn of the event loop). */
  private record(result: { id: string; poll: number; nextPollMs: number | null }): void {
    this.results.push(result);
    if (this.results.length === 1) setImmediate(() => void this.flush());
  }

  /**
   * Writes the queued results in one statement: a decided transaction's row deleted, an undecided one's next poll
   * scheduled, each only while the row is still at the poll that ran (fenced: a newer answer's row is left alone).
   */
  private async flush(): Promise<void> {
    await this.flushing;
    if (this.results.length === 0) return;
    const batch = this.results;
    this.results = [];
    this.flushing = (async () => {
      try {
        const [row] = await this.deps.sql.query<{ nextDue: Date | null }>(
          `with r as (select * from unnest($1::uuid[], $2::int[], $3::float8[]) as r(id, poll, next_s)),
           done as (delete from settlement_due s using r where s.transaction_id = r.id and s.poll = r.poll and r.next_s is null),
           polled as (
             update settlement_due s set due_at = now() + make_interval(secs => r.next_s), poll = r.poll + 1, claimed_until = null
             from r where s.transaction_id = r.id and s.poll = r.poll and r.next_s is not null
             returning s.due_at)
           select min(due_at) as "nextDue" from polled`,
          [batch.map((r) => r.id), batch.map((r) => r.poll), batch.map((r) => (r.nextPollMs === null ? null : r.nextPollMs / 1000))],
          'settlement_results',
        );
        if (row?.nextDue) this.loop.wakeAt(new Date(row.nextDue).getTime());
      } catch (err) {
        // The rows stay claimed; once their claims lapse they run again (idempotent).
        this.deps.logger.warn({ err: (err as Error).message, count: batch.length }, 'settlement results not written; those settlements run again');
      }
    })();
    await this.flushing;
  }
}
