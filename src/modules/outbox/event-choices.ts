import type { Sql } from '../../db/sql';
import { MerchantCache } from '../../events/merchant-cache';
import type { PubSub } from '../../events/pubsub';
import { OutboxTopic } from './outbox.topics';
import type { Logger } from '../../shared/logger';
import { PROGRESS_EVENT_TYPES, type EventType } from './event-types';

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
 * Which progress events (`*.processing`, `payment.requires_action`) each merchant chose, held in memory
 * (MerchantCache: forgotten on a change, here at once and elsewhere by pub/sub): every initiation asks,
 * and most merchants chose none, so their initiation's statement carries no event at all (no outbox,
 * delivery or job part: as before the choice existed). The statement that records an event checks the
 * choice again in the database (Outbox.eventSql), so this memory can only leave out an event just
 * chosen on another instance, never send one not chosen.
 */
export class EventChoices {
  private readonly cache: MerchantCache<ReadonlySet<string>>;

  constructor(deps: EventChoicesDeps) {
    this.cache = new MerchantCache({
      pubsub: deps.pubsub,
      topic: OutboxTopic.EventChoiceChanged,
      logger: deps.logger,
      what: 'an event-type choice',
      now: deps.now,
      load: async (merchantId) => {
        const [row] = await deps.sql.query<{ types: string[] | null }>(
          'select webhook_event_types as types from merchant where id = $1',
          [merchantId],
          'merchant_event_types',
        );
        return new Set((row?.types ?? []).filter((t) => PROGRESS.has(t)));
      },
    });
  }

  start(): Promise<void> {
    return this.cache.start();
  }

  stop(): Promise<void> {
    return this.cache.stop();
  }

  /** Whether an event of this type may be recorded for the merchant: always for the others; a progress event only if chosen. */
  async mayRecord(merchantId: string, type: EventType): Promise<boolean> {
    if (!PROGRESS.has(type)) return true;
    return (await this.cache.get(merchantId)).has(type);
  }

  /** After the merchant's choice changed (committed). */
  changed(merchantId: string): Promise<void> {
    return this.cache.changed(merchantId);
  }
}
