import type { Sql } from '../../db/sql';
import { Topic, type PubSub, type Unsubscribe } from '../../events/pubsub';
import type { Logger } from '../../shared/logger';
import { PROGRESS_EVENT_TYPES, type EventType } from './event-types';

/** How long a merchant's choice is trusted without a word from pub/sub. */
const TRUST_MS = 60_000;
const REMEMBER_MAX = 10_000;

const PROGRESS: ReadonlySet<string> = new Set(PROGRESS_EVENT_TYPES);

/** What EventChoices is built with (the composition root passes it). */
export interface EventChoicesDeps {
  sql: Sql;
  pubsub: PubSub;
  logger: Logger;
  /** Milliseconds since the epoch, for the memory's expiry (Date.now unless a test passes its own). */
  now?: () => number;
}

/**
 * Which progress events (`*.processing`, `payment.requires_action`) each merchant chose, held in memory:
 * every initiation asks, and most merchants chose none, so their initiation's statement carries no event
 * at all (no outbox, delivery or job part: as before the choice existed). Forgotten when the merchant
 * changes its choice (here at once, on other instances by pub/sub, after TRUST_MS at the latest). The
 * statement that records an event checks the choice again in the database (Outbox.eventSql), so this
 * memory can only leave out an event just chosen on another instance, never send one not chosen.
 */
export class EventChoices {
  private readonly known = new Map<string, { progress: ReadonlySet<string>; until: number }>();
  private unsubscribe?: Unsubscribe;
  private readonly deps: Required<EventChoicesDeps>;

  constructor(deps: EventChoicesDeps) {
    this.deps = { now: Date.now, ...deps };
  }

  async start(): Promise<void> {
    this.unsubscribe = await this.deps.pubsub.subscribe(Topic.EventChoiceChanged, ({ merchantId }) => this.known.delete(merchantId));
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
  }

  /** Whether an event of this type may be recorded for the merchant: always for the others; a progress event only if chosen. */
  async mayRecord(merchantId: string, type: EventType): Promise<boolean> {
    if (!PROGRESS.has(type)) return true;
    return (await this.progressOf(merchantId)).has(type);
  }

  /** After the merchant's choice changed (committed): forgotten here, and on the other instances. */
  async changed(merchantId: string): Promise<void> {
    this.known.delete(merchantId);
    await this.deps.pubsub.publish(Topic.EventChoiceChanged, { merchantId }).catch((err: unknown) => {
      this.deps.logger.warn({ err: (err as Error).message }, 'could not publish an event-type choice; other instances use their copy for at most a minute');
    });
  }

  private async progressOf(merchantId: string): Promise<ReadonlySet<string>> {
    const hit = this.known.get(merchantId);
    if (hit && hit.until > this.deps.now()) return hit.progress;
    const [row] = await this.deps.sql.query<{ types: string[] | null }>(
      'select webhook_event_types as types from merchant where id = $1',
      [merchantId],
      'merchant_event_types',
    );
    const progress = new Set((row?.types ?? []).filter((t) => PROGRESS.has(t)));
    if (this.known.size >= REMEMBER_MAX && !this.known.has(merchantId)) this.known.delete(this.known.keys().next().value!);
    this.known.set(merchantId, { progress, until: this.deps.now() + TRUST_MS });
    return progress;
  }
}
