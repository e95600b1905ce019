import type { Orm } from '../../db/orm';
import type { PubSub, Unsubscribe } from '../../events/pubsub';
import { AuthTopic } from './auth.topics';
import type { Logger } from '../../shared/logger';
import { systemClock } from '../../shared/clock';

/** Access tokens live an hour; a revoked family needs remembering a little longer than that. */
const REMEMBER_MS = 2 * 60 * 60 * 1000;

/** What TokenRevocations is built with (its module's factory passes it). */
export interface TokenRevocationsDeps {
  orm: Orm;
  pubsub: PubSub;
  /** How often revocations made elsewhere are read again, in case a pub/sub message was lost. */
  pollMs: number;
  logger: Logger;
}

/**
 * The set of revoked token families, held in memory so that checking an access
 * token costs no database round trip. It learns of revocations three ways: its
 * own instance (at once), pub/sub from other instances (at once, best effort),
 * and a poll of the append-only token_revocation table by sequence number (within
 * TOKEN_REVOCATION_POLL_MS, so a missed message is only late, never lost).
 */
export class TokenRevocations {
  private readonly revoked = new Map<string, number>();
  private readonly listeners = new Set<(familyId: string) => void>();
  private lastSeq = 0;
  private timer?: NodeJS.Timeout;
  private unsubscribe?: Unsubscribe;

  constructor(private readonly deps: TokenRevocationsDeps) {}

  async start(): Promise<void> {
    await this.poll(`revoked_at > now() - interval '2 hours'`);
    this.unsubscribe = await this.deps.pubsub.subscribe(AuthTopic.TokenFamilyRevoked, ({ familyId }) => this.remember(familyId));
    this.timer = setInterval(() => {
      this.poll().catch((err) => this.deps.logger.warn({ err: (err as Error).message }, 'token revocation poll failed'));
    }, this.deps.pollMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.unsubscribe?.();
  }

  isRevoked(familyId: string): boolean {
    return this.revoked.has(familyId);
  }

  /** Told of each family the first time this instance learns it is revoked (open sockets end on it). */
  onRevoked(listener: (familyId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called after the revocation has committed. */
  async announce(familyId: string): Promise<void> {
    this.remember(familyId);
    await this.deps.pubsub.publish(AuthTopic.TokenFamilyRevoked, { familyId }).catch((err) => {
      this.deps.logger.warn({ err: (err as Error).message }, 'could not publish a token revocation; other instances will poll it');
    });
  }

  private remember(familyId: string): void {
    const known = this.revoked.has(familyId);
    this.revoked.set(familyId, systemClock.now().getTime());
    if (known) return;
    for (const listener of this.listeners) {
      try {
        listener(familyId);
      } catch (err) {
        this.deps.logger.warn({ err }, 'a token revocation listener failed');
      }
    }
  }

  private async poll(extraCondition?: string): Promise<void> {
    const em = this.deps.orm.em.fork();
    const where = extraCondition ? `seq > ? and ${extraCondition}` : 'seq > ?';
    const rows: Array<{ seq: string; family_id: string }> = await em.execute(`select seq, family_id from token_revocation where ${where} order by seq`, [
      this.lastSeq,
    ]);
    for (const row of rows) {
      this.remember(row.family_id);
      this.lastSeq = Math.max(this.lastSeq, Number(row.seq));
    }
    if (extraCondition && rows.length === 0) {
      const [max] = await em.execute<Array<{ seq: string | null }>>('select max(seq) as seq from token_revocation');
      this.lastSeq = Number(max?.seq ?? 0);
    }
    const cutoff = systemClock.now().getTime() - REMEMBER_MS;
    for (const [familyId, at] of this.revoked) if (at < cutoff) this.revoked.delete(familyId);
  }
}
