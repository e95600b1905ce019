import { randomUUID } from 'node:crypto';
import { defineTopic, type PubSub, type Unsubscribe } from './pubsub';

/** Which merchants have transaction subscribers on which instance. */
export const ListenerPresenceTopic = defineTopic<{ instanceId: string; present?: string[]; gone?: string[]; rollCall?: boolean }>(
  'subscriptions.listener_presence',
);

/** How often each instance repeats which merchants it has transaction subscribers for. */
const ANNOUNCE_MS = 20_000;
/** An instance's word is forgotten after this without a repeat (it stopped, or died). */
const FORGET_MS = 3 * ANNOUNCE_MS;

/**
 * Which merchants have a `transactionStatusChanged` subscriber on some instance, so that a change
 * only subscribers care about (a transaction's creation: `processing`, `requires_action`) is published
 * only when someone listens. Most merchants never subscribe, and publishing every initiation to Redis
 * cost about 5 % of an initiation's CPU (BENCHMARKS.md, issue 24). A final status is always published.
 *
 * Each instance says when it gains its first subscriber of a merchant and loses its last, repeats its
 * list every ANNOUNCE_MS, and answers a roll call from an instance that starts. Until `start`, or when
 * the pub/sub is unreachable, it errs on the side of publishing. A subscriber that connects to one
 * instance while another publishes a creation in the same few milliseconds may miss that creation,
 * as it would have missed it by connecting a moment later; the final status always arrives.
 */
export class ListenerPresence {
  private readonly instanceId = randomUUID();
  private readonly local = new Map<string, number>();
  private readonly remote = new Map<string, Map<string, number>>();
  private unsubscribe?: Unsubscribe;
  private timer?: ReturnType<typeof setInterval>;

  private readonly pubsub: PubSub;
  private readonly now: () => number;

  /** `now`: milliseconds since the epoch (Date.now unless a test passes its own). */
  constructor(deps: { pubsub: PubSub; now?: () => number }) {
    this.pubsub = deps.pubsub;
    this.now = deps.now ?? Date.now;
  }

  async start(): Promise<void> {
    this.unsubscribe = await this.pubsub.subscribe(ListenerPresenceTopic, (m) => this.heard(m));
    this.timer = setInterval(() => this.announce(), ANNOUNCE_MS).unref();
    this.say({ instanceId: this.instanceId, rollCall: true, present: [...this.local.keys()] });
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    if (this.local.size > 0) this.say({ instanceId: this.instanceId, gone: [...this.local.keys()] });
    await this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  /** Whether some instance may have a subscriber of this merchant's transactions (true until started). */
  mayHaveListeners(merchantId: string): boolean {
    if (!this.unsubscribe || this.local.has(merchantId)) return true;
    const instances = this.remote.get(merchantId);
    if (!instances) return false;
    const now = this.now();
    for (const [instance, until] of instances) {
      if (until > now) return true;
      instances.delete(instance);
    }
    this.remote.delete(merchantId);
    return false;
  }

  /** A subscriber of this merchant's transactions started on this instance. */
  joined(merchantId: string): void {
    const count = (this.local.get(merchantId) ?? 0) + 1;
    this.local.set(merchantId, count);
    if (count === 1) this.say({ instanceId: this.instanceId, present: [merchantId] });
  }

  /** One of them ended. */
  left(merchantId: string): void {
    const count = (this.local.get(merchantId) ?? 1) - 1;
    if (count > 0) return void this.local.set(merchantId, count);
    this.local.delete(merchantId);
    this.say({ instanceId: this.instanceId, gone: [merchantId] });
  }

  private heard(m: { instanceId: string; present?: string[]; gone?: string[]; rollCall?: boolean }): void {
    if (m.instanceId === this.instanceId) return;
    const until = this.now() + FORGET_MS;
    for (const merchantId of m.present ?? []) {
      const instances = this.remote.get(merchantId) ?? this.remote.set(merchantId, new Map()).get(merchantId)!;
      instances.set(m.instanceId, until);
    }
    for (const merchantId of m.gone ?? []) {
      this.remote.get(merchantId)?.delete(m.instanceId);
      if (this.remote.get(merchantId)?.size === 0) this.remote.delete(merchantId);
    }
    if (m.rollCall) this.announce();
  }

  private announce(): void {
    if (this.local.size > 0) this.say({ instanceId: this.instanceId, present: [...this.local.keys()] });
  }

  private say(message: { instanceId: string; present?: string[]; gone?: string[]; rollCall?: boolean }): void {
    // Best effort: a lost word is repeated within ANNOUNCE_MS, and a silent instance is forgotten.
    this.pubsub.publish(ListenerPresenceTopic, message).catch(() => undefined);
  }
}
