import { EventEmitter } from 'node:events';
import Redis from 'ioredis';
import type { Logger } from '../shared/logger';

/**
 * A pub/sub topic: its name (the Redis channel) and, in its type only, its payload. Each module
 * declares the topics it publishes (`<area>.topics.ts`, or beside the one class that uses it), so
 * events/ knows no module's payload; a module's factory lists its topics.
 */
export interface Topic<P> {
  readonly name: string;
  /** Never set: carries the payload type. */
  readonly payload?: P;
}

/** Declares a topic: `defineTopic<{ familyId: string }>('auth.token_family_revoked')`. */
export function defineTopic<P>(name: string): Topic<P> {
  return { name };
}

/** A topic about one merchant: subscriptions filter it by `merchantId` in one place (merchant-events.ts). */
export type MerchantTopic<P extends { merchantId: string } = { merchantId: string }> = Topic<P>;

export type Unsubscribe = () => Promise<void>;

/**
 * The one pub/sub. In-process by default; Redis when REDIS_URL is set, so that
 * every instance hears what any instance publishes. Delivery is best effort:
 * anything that must not be lost is also in PostgreSQL.
 */
export interface PubSub {
  publish<P>(topic: Topic<P>, payload: P): Promise<void>;
  subscribe<P>(topic: Topic<P>, handler: (payload: P) => void): Promise<Unsubscribe>;
  /** Resolves if the transport answers now, else throws (readiness checks; in-process always answers). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export class InProcessPubSub implements PubSub {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  async publish<P>(topic: Topic<P>, payload: P): Promise<void> {
    this.emitter.emit(topic.name, payload);
  }

  async subscribe<P>(topic: Topic<P>, handler: (payload: P) => void): Promise<Unsubscribe> {
    this.emitter.on(topic.name, handler);
    return async () => void this.emitter.off(topic.name, handler);
  }

  /** A message heard on a channel (RedisPubSub's subscriber), to this process's subscribers of that topic. */
  deliver(channel: string, payload: unknown): void {
    this.emitter.emit(channel, payload);
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}

class RedisPubSub implements PubSub {
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly local = new InProcessPubSub();
  private readonly connected: Promise<unknown>;
  /** Every topic subscribed to, so that a subscription asked for while Redis was unreachable is made once it is back. */
  private readonly topics = new Set<string>();

  private readonly logger: Logger;

  constructor({ url, logger }: { url: string; logger: Logger }) {
    this.logger = logger;
    this.publisher = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
    this.subscriber = new Redis(url, { lazyConnect: true });
    for (const client of [this.publisher, this.subscriber]) {
      client.on('error', (err) => this.logger.warn({ err: err.message }, 'redis connection error'));
    }
    // SUBSCRIBE before the connection is ready races ioredis's ready check (INFO is not
    // allowed in subscriber mode), so every command waits for both connections first.
    // A failed first connect is logged, not fatal: ioredis keeps retrying and queues commands meanwhile.
    this.connected = Promise.all([this.publisher.connect(), this.subscriber.connect()]).catch((err: Error) =>
      this.logger.warn({ err: err.message }, 'redis is not reachable yet; retrying'),
    );
    // ioredis re-subscribes on reconnection only to what Redis had confirmed.
    this.subscriber.on('ready', () => {
      for (const topic of this.topics)
        this.subscriber.subscribe(topic).catch((err: Error) => this.logger.warn({ topic, err: err.message }, 'redis subscribe failed'));
    });
    this.subscriber.on('message', (channel: string, message: string) => {
      try {
        this.local.deliver(channel, JSON.parse(message));
      } catch (err) {
        this.logger.warn({ channel, err: (err as Error).message }, 'dropped malformed pub/sub message');
      }
    });
  }

  async publish<P>(topic: Topic<P>, payload: P): Promise<void> {
    await this.connected;
    await this.publisher.publish(topic.name, JSON.stringify(payload));
  }

  async subscribe<P>(topic: Topic<P>, handler: (payload: P) => void): Promise<Unsubscribe> {
    await this.connected;
    this.topics.add(topic.name);
    // Unreachable Redis does not stop the service starting (delivery is best effort): the 'ready' handler subscribes later.
    if (this.subscriber.status === 'ready') await this.subscriber.subscribe(topic.name);
    return this.local.subscribe(topic, handler);
  }

  async ping(): Promise<void> {
    // Not connected: say so at once, rather than queue a PING behind ioredis's reconnection attempts.
    for (const client of [this.publisher, this.subscriber]) if (client.status !== 'ready') throw new Error(`redis connection is ${client.status}`);
    await this.publisher.ping();
  }

  async close(): Promise<void> {
    await this.local.close();
    this.subscriber.disconnect();
    this.publisher.disconnect();
  }
}

export function createPubSub(redisUrl: string | undefined, logger: Logger): PubSub {
  return redisUrl ? new RedisPubSub({ url: redisUrl, logger }) : new InProcessPubSub();
}
