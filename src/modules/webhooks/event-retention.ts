import type { Sql } from '../../db/sql';
import type { Clock } from '../../shared/clock';

/** Events removed per statement: each one's delivery and attempts go with it (their foreign keys cascade). */
export const EVENT_PRUNE_BATCH = 1000;

/**
 * One batch of events older than the cutoff whose delivery is over (delivered, failed, or never made: no
 * endpoint), oldest first per merchant. Read through each merchant's own index of its events
 * (merchant_id, created_at desc, id desc), scanned backwards from the oldest, so no index is added to the
 * hottest insert of all for a sweep: a merchant with nothing that old costs one index probe. An event whose
 * delivery is still pending (an endpoint that has been down for the whole window) is kept until it ends.
 */
const PRUNE_EVENTS = `
  with old as (
    select e.id from merchant m
    cross join lateral (
      select e.id from outbox_event e
      where e.merchant_id = m.id and e.created_at < $1
        and not exists (select 1 from webhook_delivery d where d.event_id = e.id and d.status = 'pending')
      order by e.created_at, e.id
      limit $2) e
    limit $2),
  gone as (delete from outbox_event e using old where e.id = old.id returning 1)
  select count(*)::int as n from gone`;

export interface EventRetentionDeps {
  sql: Pick<Sql, 'query'>;
  clock: Clock;
  /** How long an event, its delivery and its attempts are kept (EVENT_RETENTION_DAYS). */
  retentionMs: number;
}

/**
 * Issue 40, part 3: the event log's retention. Events, their deliveries and attempts only grow, and every
 * event is written by a hot path; past the retention window (30 days by default, as Stripe keeps events)
 * they leave the tables in batches, so the tables hold a window of traffic instead of all of it. Chosen
 * over partitioning by time by measurement (BENCHMARKS.md, "Issue #40, part 3"; docs/design.md).
 */
export class EventRetention {
  constructor(private readonly deps: EventRetentionDeps) {}

  /** The events older than the retention whose delivery is over, removed in batches (at most `maxBatches`); how many. */
  async prune(maxBatches = 10): Promise<number> {
    const cutoff = new Date(this.deps.clock.now().getTime() - this.deps.retentionMs);
    let total = 0;
    for (let batch = 0; batch < maxBatches; batch++) {
      const [row] = await this.deps.sql.query<{ n: number }>(PRUNE_EVENTS, [cutoff, EVENT_PRUNE_BATCH], 'event_prune');
      total += row!.n;
      if (row!.n < EVENT_PRUNE_BATCH) break;
    }
    return total;
  }
}
