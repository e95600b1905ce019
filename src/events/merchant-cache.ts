import type { Logger } from '../shared/logger';
import type { MerchantTopic, PubSub, Unsubscribe } from './pubsub';

/** What MerchantCache is built with. */
export interface MerchantCacheOptions<T> {
  pubsub: PubSub;
  /** Published by `changed`, heard by every instance. */
  /** A topic that says "forget what you hold of this merchant". */
  topic: MerchantTopic;
  /** Reads a merchant's value from the database. */
  load: (merchantId: string) => Promise<T>;
  logger: Logger;
  /** What the value is, for the warning when a change cannot be published (e.g. "a fee change"). */
  what: string;
  /** Milliseconds since the epoch (Date.now unless a test passes its own). */
  now?: () => number;
}

/** How long a value is trusted without a word from pub/sub. */
const TRUST_MS = 60_000;
const REMEMBER_MAX = 10_000;

/**
 * Something read on a hot path per merchant and changed rarely (fees, the event types chosen), held
 * in memory and forgotten when it changes: here at once, on the other instances by pub/sub, after
 * TRUST_MS at the latest. At most REMEMBER_MAX merchants are held (the oldest entry goes first).
 */
export class MerchantCache<T> {
  private readonly known = new Map<string, { value: T; until: number }>();
  private unsubscribe?: Unsubscribe;
  private readonly now: () => number;

  constructor(private readonly options: MerchantCacheOptions<T>) {
    this.now = options.now ?? Date.now;
  }

  async start(): Promise<void> {
    this.unsubscribe = await this.options.pubsub.subscribe(this.options.topic, ({ merchantId }) => this.known.delete(merchantId));
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
  }

  async get(merchantId: string): Promise<T> {
    const hit = this.known.get(merchantId);
    if (hit && hit.until > this.now()) return hit.value;
    const value = await this.options.load(merchantId);
    if (this.known.size >= REMEMBER_MAX && !this.known.has(merchantId)) this.known.delete(this.known.keys().next().value!);
    this.known.set(merchantId, { value, until: this.now() + TRUST_MS });
    return value;
  }

  /** After the merchant's value changed (committed): forgotten here, and on the other instances. */
  async changed(merchantId: string): Promise<void> {
    this.known.delete(merchantId);
    await this.options.pubsub.publish(this.options.topic, { merchantId }).catch((err: unknown) => {
      this.options.logger.warn({ err: (err as Error).message }, `could not publish ${this.options.what}; other instances use their copy for at most a minute`);
    });
  }
}
