import { stoppableIterator } from '../shared/async-iterator';
import type { Logger } from '../shared/logger';
import type { MerchantTopic, PubSub } from './pubsub';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- one fan-out holds every topic's listeners; merchantEvents<T>() gives each its topic's payload type
type Listener = (payload: any) => void;

/**
 * One pub/sub subscription per topic per process, fanned out to the listeners of
 * the event's merchant only: an event costs its own merchant's subscribers, not
 * every open subscription on the instance.
 */
class MerchantFanout {
  private readonly byTopic = new Map<string, Promise<Map<string, Set<Listener>>>>();

  constructor(private readonly pubsub: PubSub) {}

  async add(topic: MerchantTopic, merchantId: string, listener: Listener): Promise<() => void> {
    let routes = this.byTopic.get(topic.name);
    if (!routes) {
      const map = new Map<string, Set<Listener>>();
      routes = this.pubsub
        .subscribe(topic, (payload) => {
          for (const l of map.get(payload.merchantId) ?? []) l(payload);
        })
        .then(
          () => map,
          (err) => {
            this.byTopic.delete(topic.name); // the next subscriber tries again
            throw err;
          },
        );
      this.byTopic.set(topic.name, routes);
    }
    const map = await routes;
    const set = map.get(merchantId) ?? map.set(merchantId, new Set()).get(merchantId)!;
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && map.get(merchantId) === set) map.delete(merchantId);
    };
  }
}

const fanouts = new WeakMap<PubSub, MerchantFanout>();

/**
 * The one place subscriptions are filtered by merchant: an async iterator over a
 * topic that yields only `merchantId`'s events (and only those `accept` keeps).
 * Unsubscribes when the consumer stops (socket closed, operation completed). `presence` is told
 * when the stream starts and ends (ListenerPresence: who listens to a merchant's transactions).
 */
export async function merchantEvents<P extends { merchantId: string }>(
  pubsub: PubSub,
  topic: MerchantTopic<P>,
  merchantId: string,
  accept: (payload: P) => boolean = () => true,
  presence?: { joined(merchantId: string): void; left(merchantId: string): void },
): Promise<AsyncIterableIterator<P>> {
  const queue: P[] = [];
  let waiting: ((result: IteratorResult<P>) => void) | undefined;
  let done = false;
  const fanout = fanouts.get(pubsub) ?? fanouts.set(pubsub, new MerchantFanout(pubsub)).get(pubsub)!;
  const unsubscribe = await fanout.add(topic, merchantId, (payload: P) => {
    if (done || payload.merchantId !== merchantId || !accept(payload)) return;
    if (waiting) {
      const resolve = waiting;
      waiting = undefined;
      resolve({ value: payload, done: false });
    } else {
      queue.push(payload);
    }
  });
  presence?.joined(merchantId);
  const finish = async (): Promise<void> => {
    if (!done) {
      done = true;
      unsubscribe();
      presence?.left(merchantId);
      waiting?.({ value: undefined, done: true });
      waiting = undefined;
    }
  };
  return stoppableIterator<P>(() => {
    if (queue.length > 0) return Promise.resolve({ value: queue.shift()!, done: false });
    if (done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (waiting = resolve));
  }, finish);
}

/** Publishes after a commit; a failed publish is logged, never turned into a failed request (the state is committed). */
export function publishAfterCommit<P extends { merchantId: string }>(pubsub: PubSub, logger: Logger, topic: MerchantTopic<P>, payload: P): void {
  pubsub.publish(topic, payload).catch((err) => logger.warn({ topic: topic.name, err: (err as Error).message }, 'could not publish an event to subscribers'));
}
