import type { PoolClient } from 'pg';
import type { Sql } from '../../db/sql';
import type { Logger } from '../../shared/logger';
import { systemClock, type Clock } from '../../shared/clock';
import { DueLoop, type DueLoopSettings } from '../../shared/due-loop';
import { serviceNowSql, type WebhookDispatcher } from './webhook-dispatcher';

/** The channel an instance that cannot take every due delivery itself tells the others on. */
const DELIVERIES_DUE_CHANNEL = 'webhook_deliveries_due';

/** Due deliveries a pick looks at per free place: the ones it passes over (endpoints without a free slot) are skipped. */
const SCAN_PER_PLACE = 4;
/** A reconnect of the LISTEN connection is tried this long after it was lost (the poll covers the gap). */
const RELISTEN_AFTER_MS = 1_000;

/** `concurrency`: deliveries this instance sends at once (WEBHOOK_CONCURRENCY). */
export interface WebhookPumpSettings extends DueLoopSettings {
  /** Deliveries in flight to one endpoint at once, across instances (its slots), while it answers promptly; otherwise the slow cap; half-open, one. */
  perEndpoint: number;
  slowPerEndpoint: number;
  circuitFailures: number;
}

/**
 * Issue 40: a webhook delivery row is its own queue item. No job row is written, locked or deleted per
 * delivery or per retry: the delivery's `status`, `next_attempt_at` and `claimed_until` (the lease) are the
 * queue. The pump of each instance picks due deliveries that nobody holds, oldest first, up to its free
 * places and to each endpoint's free slots, in one statement, and hands each to the dispatcher, which claims
 * it with one of its endpoint's slots and carries on with that endpoint's backlog on the slot it frees.
 *
 * A pick runs when something may have become due:
 * - a committed event's statement wrote a delivery (the outbox's follow-up says so: `wake()`, this instance);
 * - a resend, or an attempt whose answer closed a circuit;
 * - an attempt finished (a place is free again);
 * - the earliest scheduled retry falls due (a timer, from the pick's own answer);
 * - another instance, whose places are all taken, notified `webhook_deliveries_due` (LISTEN, after its commit);
 * - at the latest every `pollMs`: another instance's retries, a lapsed claim of a killed process, a circuit's
 *   open period ending.
 * Picks are never two at once, and wakes between are coalesced into one more. Two instances may pick the same
 * delivery: its claim (a conditional update and a slot taken FOR UPDATE SKIP LOCKED) lets one of them send it.
 */
export class WebhookPump {
  /**
   * The deliveries as the job queue's metrics show a task (`payments_jobs_*{task="deliver-webhook"}`, the name they
   * had as jobs): due and held by nobody, not due yet (retries), claimed (in flight), and how long the oldest due one
   * has waited. `failed` (spent schedules) is 0 here: those are `status = 'failed'` deliveries, not counted at each
   * scrape (the pending ones are read through their own index).
   */
  static readonly QUEUE_STATS_SQL = `select count(*) filter (where next_attempt_at <= now() and (claimed_until is null or claimed_until < now()))::int as queued,
      count(*) filter (where next_attempt_at > now() and (claimed_until is null or claimed_until < now()))::int as scheduled,
      count(*) filter (where claimed_until >= now())::int as running,
      0 as failed,
      coalesce(extract(epoch from now() - min(next_attempt_at) filter (where next_attempt_at <= now() and (claimed_until is null or claimed_until < now()))), 0)::float8 as "oldestAgeSeconds"
    from webhook_delivery where status = 'pending'`;

  private readonly loop: DueLoop;
  private listener?: PoolClient;
  private relisten?: NodeJS.Timeout;
  private notifyPending = false;
  /** PGlite: no notifications between connections; this instance's own wakes and the poll only. */
  private embedded = false;
  /** How many deliveries the last pick handed out (`pickNow`). */
  private picked = 0;

  constructor(private readonly deps: { sql: Sql; clock: Clock; logger: Logger; dispatcher: WebhookDispatcher; settings: WebhookPumpSettings }) {
    this.loop = new DueLoop({ pollMs: deps.settings.pollMs, round: () => this.pick() });
  }

  /** `embedded`: the database is PGlite (no LISTEN between connections). */
  async start(opts: { embedded: boolean }): Promise<void> {
    this.embedded = opts.embedded;
    this.deps.dispatcher.stopping = false;
    this.deps.dispatcher.onDue = () => this.wake();
    this.loop.start();
    if (!this.embedded) await this.listen();
  }

  /**
   * Stops picking, and waits for the attempts in flight (at most `drainMs`): an attempt cut short is left
   * claimed, and sent again (same webhook-id) once its claim lapses, by whichever instance picks it.
   */
  async stop(): Promise<void> {
    this.deps.dispatcher.stopping = true;
    clearTimeout(this.relisten);
    const listener = this.listener;
    this.listener = undefined;
    if (listener) {
      listener.removeAllListeners('notification');
      listener.release(true);
    }
    await this.loop.stop(this.deps.settings.drainMs);
  }

  /** Something may be due: a pick runs on the next turn of the event loop (one for every wake asked for until then). */
  wake(): void {
    this.loop.wake();
  }

  /** Runs a pick now, after the one in progress if any, and says how many deliveries it handed out (operators, tests). */
  async pickNow(): Promise<number> {
    this.picked = 0;
    await this.loop.runNow();
    return this.picked;
  }

  private async pick(): Promise<void> {
    this.picked = 0;
    const free = this.deps.settings.concurrency - this.loop.active;
    if (free <= 0) return; // an attempt that finishes wakes the pump again
    try {
      const { rows, nextDue } = await this.due(free);
      for (const row of rows) this.send(row);
      this.picked = rows.length;
      // Every place filled: there may be more due than this instance can take; the others are told.
      if (rows.length === free) this.notifyOthers();
      if (nextDue) this.loop.wakeAt(new Date(nextDue).getTime() - this.clockAhead());
    } catch (err) {
      this.deps.logger.warn({ err: (err as Error).message }, 'webhook pick failed; the next wake or poll tries again');
    }
  }

  /**
   * Due deliveries nobody holds, oldest first, at most `free`, and per endpoint no more than it has slots free
   * (an endpoint this instance already keeps busy is passed over: its attempts carry on with its backlog; an endpoint
   * not known to be prompt counts its slow-start slots, a half-open one its one), whose circuit is not open. And when the next delivery not yet due is. One statement, reading only.
   */
  private async due(free: number): Promise<{ rows: { eventId: string; merchantId: string; attempt: number }[]; nextDue: Date | null }> {
    const { perEndpoint, slowPerEndpoint, circuitFailures } = this.deps.settings;
    const [result] = await this.deps.sql.query<{ picked: { eventId: string; merchantId: string; attempt: number }[] | null; nextDue: Date | null }>(
      `with scan as (
         select d.event_id, d.merchant_id, d.attempt_count, d.next_attempt_at from webhook_delivery d
         where d.status = 'pending' and d.next_attempt_at <= ${serviceNowSql('$1')}
           and (d.claimed_until is null or d.claimed_until < now())
           and d.merchant_id <> all($2::uuid[])
           and not exists (select 1 from webhook_endpoint e where e.merchant_id = d.merchant_id and e.open_until > now())
         order by d.next_attempt_at limit $3::int),
       placed as (
         select s.*, row_number() over (partition by s.merchant_id order by s.next_attempt_at, s.event_id) as place from scan s),
       picked as (
         select p.event_id, p.merchant_id, p.attempt_count, p.next_attempt_at from placed p
         where p.place <= coalesce((select case when e.failures >= $7::int then 1 when e.prompt_until > now() then $4::int else $6::int end
                                    from webhook_endpoint e where e.merchant_id = p.merchant_id), $6::int)
                          - (select count(*) from webhook_endpoint_slot s where s.merchant_id = p.merchant_id and s.held_until > now())
         order by p.next_attempt_at, p.event_id limit $5::int)
       select (select json_agg(json_build_object('eventId', event_id, 'merchantId', merchant_id, 'attempt', attempt_count + 1)) from picked) as picked,
              (select min(next_attempt_at) from webhook_delivery where status = 'pending' and next_attempt_at > ${serviceNowSql('$1')}) as "nextDue"`,
      [this.deps.clock.now(), this.deps.dispatcher.saturatedEndpoints(), free * SCAN_PER_PLACE, perEndpoint, free, slowPerEndpoint, circuitFailures],
      'webhook_pick_due',
    );
    return { rows: result?.picked ?? [], nextDue: result?.nextDue ?? null };
  }

  private send(row: { eventId: string; merchantId: string; attempt: number }): void {
    this.loop.track(
      this.deps.dispatcher
        .deliver(row.eventId, row.attempt, row.merchantId)
        .catch((err: Error) =>
          this.deps.logger.error({ err: err.message, eventId: row.eventId }, 'webhook delivery failed unexpectedly; its claim lapses and it is sent again'),
        ),
    );
  }

  /**
   * How far the service's clock is ahead of the wall clock (0 when behind): due times are the later of the two
   * (`serviceNowSql`), and the loop's timer runs on the wall clock.
   */
  private clockAhead(): number {
    return Math.max(0, this.deps.clock.now().getTime() - systemClock.now().getTime());
  }

  /** Tells the other instances that deliveries are due (one notification at a time, on its own statement: no writing transaction waits on it). */
  private notifyOthers(): void {
    if (this.embedded || this.notifyPending) return;
    this.notifyPending = true;
    this.deps.sql
      .query('select pg_notify($1, $2)', [DELIVERIES_DUE_CHANNEL, ''])
      .catch((err: Error) => this.deps.logger.warn({ err: err.message }, 'webhook notification failed; other instances poll'))
      .finally(() => (this.notifyPending = false));
  }

  private async listen(): Promise<void> {
    try {
      const client = await this.deps.sql.pool.connect();
      if (this.loop.isStopped) {
        client.release();
        return;
      }
      client.on('notification', (msg) => {
        if (msg.channel === DELIVERIES_DUE_CHANNEL) this.wake();
      });
      client.on('error', (err) => {
        this.deps.logger.warn({ err: err.message }, 'webhook LISTEN connection lost; reconnecting (the poll covers the gap)');
        if (this.listener === client) this.listener = undefined;
        client.release(true);
        this.scheduleRelisten();
      });
      await client.query(`listen ${DELIVERIES_DUE_CHANNEL}`);
      this.listener = client;
    } catch (err) {
      this.deps.logger.warn({ err: (err as Error).message }, 'webhook LISTEN failed; retrying (the poll covers the gap)');
      this.scheduleRelisten();
    }
  }

  private scheduleRelisten(): void {
    if (this.loop.isStopped) return;
    clearTimeout(this.relisten);
    this.relisten = setTimeout(() => void this.listen(), RELISTEN_AFTER_MS);
    this.relisten.unref();
  }
}
