import { EventEmitter } from 'node:events';
import Redis from 'ioredis';
import type { TransactionWire } from '../modules/transactions/transaction.record';
import type { Logger } from '../shared/logger';

/** Every topic the service publishes. Payload types are fixed per topic. */
export enum Topic {
  TokenFamilyRevoked = 'auth.token_family_revoked',
  /** A merchant was disabled or enabled: every instance forgets what it cached of its status. */
  MerchantAccessChanged = 'auth.merchant_access_changed',
  /** A transaction's status changed (published after the commit). */
  TransactionStatusChanged = 'transaction.status_changed',
  /** A customer's KYC status changed (published after the commit). */
  KycStatusChanged = 'kyc.status_changed',
  /** A merchant's balance in a currency changed (published after the commit). */
  BalanceChanged = 'ledger.balance_changed',
  /** An operator changed a merchant's fees: every instance forgets what it cached of them. */
  FeeScheduleChanged = 'ledger.fee_schedule_changed',
  /** A merchant changed the event types it receives: every instance forgets what it cached of them. */
  EventChoiceChanged = 'webhooks.event_choice_changed',
  /** Which merchants have transaction subscribers on which instance (events/listener-presence.ts). */
  ListenerPresence = 'subscriptions.listener_presence',
}

/** Every merchant-scoped payload names its merchant, so subscriptions can filter by it in one place. */
export interface TopicPayloads {
  [Topic.TokenFamilyRevoked]: { familyId: string };
  [Topic.MerchantAccessChanged]: { merchantId: string };
  /** Carries the record itself, so no subscriber reads it again from the database. */
  [Topic.TransactionStatusChanged]: { merchantId: string; reference: string; externalReference: string; transaction: TransactionWire };
  [Topic.KycStatusChanged]: { merchantId: string; customerUuid: string };
  [Topic.BalanceChanged]: { merchantId: string; currency: string };
  [Topic.FeeScheduleChanged]: { merchantId: string };
  [Topic.EventChoiceChanged]: { merchantId: string };
  [Topic.ListenerPresence]: { instanceId: string; present?: string[]; gone?: string[]; rollCall?: boolean };
}

export type MerchantTopic = Topic.TransactionStatusChanged | Topic.KycStatusChanged | Topic.BalanceChanged;

export type Unsubscribe = () => Promise<void>;

/**
 * The one pub/sub. In-process by default; Redis when REDIS_URL is set, so that
 * every instance hears what any instance publishes. Delivery is best effort:
 * anything that must not be lost is also in PostgreSQL.
 */
export interface PubSub {
  publish<T extends Topic>(topic: T, payload: TopicPayloads[T]): Promise<void>;
  subscribe<T extends Topic>(topic: T, handler: (payload: TopicPayloads[T]) => void): Promise<Unsubscribe>;
  /** Resolves if the transport answers now, else throws (readiness checks; in-process always answers). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export class InProcessPubSub implements PubSub {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  async publish<T extends Topic>(topic: T, payload: TopicPayloads[T]): Promise<void> {
    this.emitter.emit(topic, payload);
  }

  async subscribe<T extends Topic>(topic: T, handler: (payload: TopicPayloads[T]) => void): Promise<Unsubscribe> {
    this.emitter.on(topic, handler);
    return async () => void this.emitter.off(topic, handler);
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
  private readonly topics = new Set<Topic>();

  constructor(
    url: string,
    private readonly logger: Logger,
  ) {
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
        void this.local.publish(channel as Topic, JSON.parse(message));
      } catch (err) {
        this.logger.warn({ channel, err: (err as Error).message }, 'dropped malformed pub/sub message');
      }
    });
  }

  async publish<T extends Topic>(topic: T, payload: TopicPayloads[T]): Promise<void> {
    await this.connected;
    await this.publisher.publish(topic, JSON.stringify(payload));
  }

  async subscribe<T extends Topic>(topic: T, handler: (payload: TopicPayloads[T]) => void): Promise<Unsubscribe> {
    await this.connected;
    this.topics.add(topic);
    // Unreachable Redis does not stop the service starting (delivery is best effort): the 'ready' handler subscribes later.
    if (this.subscriber.status === 'ready') await this.subscriber.subscribe(topic);
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
  return redisUrl ? new RedisPubSub(redisUrl, logger) : new InProcessPubSub();
}
