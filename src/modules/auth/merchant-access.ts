import type { Sql } from '../../db/sql';
import type { PubSub, Unsubscribe } from '../../events/pubsub';
import { AuthTopic } from './auth.topics';
import type { Logger } from '../../shared/logger';
import { UUID_ID } from '../../shared/pagination';

/** How long a merchant's status is trusted without asking the database again. */
const TRUST_MS = 60_000;
/** Statuses remembered at most (a flood of forged merchant ids cannot grow memory without bound). */
const REMEMBER_MAX = 50_000;

/** What MerchantAccess is built with (its module's factory passes it). */
export interface MerchantAccessDeps {
  sql: Sql;
  pubsub: PubSub;
  logger: Logger;
  /** Milliseconds since the epoch (Date.now unless a test passes its own). */
  now?: () => number;
}

/**
 * Whether a token's merchant may still act: it exists and is not disabled. Held in
 * memory so that the common case (a known, active merchant) costs a map lookup, not
 * a round trip. What is remembered is forgotten three ways: at once on this instance
 * when an operator disables or enables a merchant here; by pub/sub on the others; and
 * after TRUST_MS at the latest (a CLI without Redis). A disabled merchant's tokens
 * are also revoked, which every instance learns through TokenRevocations.
 */
export class MerchantAccess {
  private readonly known = new Map<string, { active: boolean; until: number }>();
  private unsubscribe?: Unsubscribe;

  private readonly now: () => number;

  constructor(private readonly deps: MerchantAccessDeps) {
    this.now = deps.now ?? Date.now;
  }

  async start(): Promise<void> {
    this.unsubscribe = await this.deps.pubsub.subscribe(AuthTopic.MerchantAccessChanged, ({ merchantId }) => this.known.delete(merchantId));
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
  }

  /** From memory when known and fresh; else one indexed read, remembered. */
  async isActive(merchantId: string): Promise<boolean> {
    const hit = this.known.get(merchantId);
    if (hit && hit.until > this.now()) return hit.active;
    if (!UUID_ID.test(merchantId)) return false;
    const [row] = await this.deps.sql.query<{ disabled: boolean }>(
      'select disabled_at is not null as disabled from merchant where id = $1',
      [merchantId],
      'merchant_access',
    );
    const active = row !== undefined && !row.disabled;
    this.learned(merchantId, active);
    return active;
  }

  /** Without a round trip: false only when this instance knows the merchant is gone or disabled (long-lived sockets). */
  isKnownInactive(merchantId: string): boolean {
    return this.known.get(merchantId)?.active === false;
  }

  /** What a grant just read from the database (it holds the row lock): fresher than anything remembered. */
  learned(merchantId: string, active: boolean): void {
    if (this.known.size >= REMEMBER_MAX && !this.known.has(merchantId)) this.known.delete(this.known.keys().next().value!);
    this.known.set(merchantId, { active, until: this.now() + TRUST_MS });
  }

  /** After an operator's change has committed: forget here at once, and tell the other instances. */
  async changed(merchantId: string): Promise<void> {
    this.known.delete(merchantId);
    await this.deps.pubsub.publish(AuthTopic.MerchantAccessChanged, { merchantId }).catch((err) => {
      this.deps.logger.warn(
        { err: (err as Error).message },
        'could not publish a merchant access change; other instances trust their copy for at most a minute',
      );
    });
  }
}
