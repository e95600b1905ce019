import type { Sql } from '../../db/sql';
import { stoppableIterator } from '../../shared/async-iterator';
import type { Clock } from '../../shared/clock';
import { webhookBody } from './signing';

/** An event as `listen` (the CLI) receives it: what a webhook delivery of it would carry, body byte for byte. */
export interface RecordedEvent {
  id: string;
  type: string;
  createdAt: Date;
  /** The webhook body exactly as a delivery POSTs it (`webhookBody`): the bytes to sign and send. */
  body: string;
}

/** What EventFeed is built with (the webhooks module passes it). */
export interface EventFeedDeps {
  sql: Sql;
  clock: Pick<Clock, 'now'>;
  /** How often a stream looks for new events while its reader waits (ms). */
  pollMs: number;
}

/**
 * How far back each look reaches behind the newest event seen (ms). An event's time is taken when its statement
 * is built and it becomes visible at its commit, a few milliseconds later (more under load): a look that had seen a
 * later event must still find it. Ids already seen are passed over.
 */
const LOOKBACK_MS = 10_000;
/** Events one look reads at most; the rest come with the next look, which runs at once. */
const PAGE = 100;

/**
 * A merchant's events as they are recorded (issue 41 point 9: the `eventRecorded` subscription, which
 * `payments-gateway listen` forwards to a local URL). It reads the outbox's event log (`outbox_event`, through
 * its (merchant_id, created_at, id) index) every `pollMs` while a stream is open, and nothing else: an event's
 * statement does no more work for it, whether or not anyone listens (the hot paths are untouched). So it works on
 * every instance alike, with or without Redis, and sees every event whichever instance or code path recorded it,
 * a few hundred milliseconds after its commit. An event the merchant did not choose (`event_types`) is not
 * recorded (CONTRACT §8), so it is not streamed either.
 */
export class EventFeed {
  constructor(private readonly deps: EventFeedDeps) {}

  /**
   * Events of `merchantId` recorded from now on (of `types` only, when given), oldest first, each once. Ends when
   * the reader stops (`return`: the subscription completed or its socket closed).
   */
  async stream(merchantId: string, types?: readonly string[] | null): Promise<AsyncIterableIterator<RecordedEvent>> {
    const { sql, clock, pollMs } = this.deps;
    const typeFilter = types && types.length > 0 ? [...types] : null;
    /** Ids seen, with their times: those at or after `since`, the window each look reads. */
    const seen = new Map<string, number>();
    let since = clock.now().getTime() - LOOKBACK_MS;
    // What is already recorded is not news: it is what the stream starts after.
    for (const row of await sql.query<{ id: string; at: Date }>(
      `select id, created_at as at from outbox_event where merchant_id = $1 and created_at >= $2 and ($3::text[] is null or type = any($3))`,
      [merchantId, new Date(since), typeFilter],
    )) {
      seen.set(row.id, row.at.getTime());
    }

    const look = async (): Promise<RecordedEvent[]> => {
      const rows = await sql.query<{ id: string; type: string; createdAt: Date; payload: string }>(
        `select id, type, created_at as "createdAt", payload::text as payload from outbox_event
         where merchant_id = $1 and created_at >= $2 and not (id = any($3::text[])) and ($4::text[] is null or type = any($4))
         order by created_at, id limit ${PAGE}`,
        [merchantId, new Date(since), [...seen.keys()], typeFilter],
      );
      let newest = since + LOOKBACK_MS;
      for (const row of rows) {
        seen.set(row.id, row.createdAt.getTime());
        newest = Math.max(newest, row.createdAt.getTime());
      }
      since = newest - LOOKBACK_MS;
      for (const [id, at] of seen) if (at < since) seen.delete(id);
      // webhookBody: the one builder of the body, as the dispatcher sends it.
      return rows.map((row) => ({ id: row.id, type: row.type, createdAt: row.createdAt, body: webhookBody(row, row.payload) }));
    };

    const queue: RecordedEvent[] = [];
    let done = false;
    let wake: (() => void) | undefined;
    let timer: NodeJS.Timeout | undefined;
    let lookedLast = Number.NEGATIVE_INFINITY;
    const pause = (ms: number) =>
      new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, ms);
      });
    const finish = async (): Promise<void> => {
      done = true;
      clearTimeout(timer);
      wake?.();
    };
    // Pulled: a look runs only while the reader waits and has nothing queued, at most every pollMs.
    return stoppableIterator<RecordedEvent>(async () => {
      while (!done && queue.length === 0) {
        const wait = lookedLast + pollMs - performance.now();
        if (wait > 0) await pause(wait);
        if (done) break;
        lookedLast = performance.now();
        const found = await look();
        queue.push(...found);
        if (found.length === PAGE) lookedLast = Number.NEGATIVE_INFINITY; // more waiting: the next look at once
      }
      if (queue.length > 0) return { value: queue.shift()!, done: false };
      return { value: undefined, done: true };
    }, finish);
  }
}
