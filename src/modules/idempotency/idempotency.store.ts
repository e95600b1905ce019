import { randomUUID } from 'node:crypto';
import type { Sql } from '../../db/sql';
import type { Clock } from '../../shared/clock';
import { hmac, type SecretBox } from '../../shared/crypto';
import type { Logger } from '../../shared/logger';
import { fingerprintText, keepsAnswer, storedKeyState, type IdempotencyLimits, type IdempotentRequest } from './idempotency.rules';

/** A key this request holds while it executes; completing it stores (or drops) the answer. */
export interface IdempotencyClaim {
  merchantId: string;
  key: string;
  claimId: string;
}

export type ClaimOutcome =
  | { outcome: 'claimed'; claim: IdempotencyClaim }
  /** The first answer, as it was sent. */
  | { outcome: 'replay'; statusCode: number; body: string }
  /** The key was used with another request (another body, route or path). */
  | { outcome: 'mismatch' }
  /** A request with the key is still executing. */
  | { outcome: 'in_progress' }
  /** The first answer is kept but can no longer be opened (ENCRYPTION_KEY changed). */
  | { outcome: 'unreadable' };

/** 24 h, as Stripe keeps keys. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;

/** At most this many expired rows go per purge statement. */
const PURGE_BATCH = 5000;

/**
 * Which instance holds a claim, and whether an instance is still alive: the job runner's heartbeats
 * (`job_worker_instance`), which every instance of the service writes anyway (JobRunner).
 */
interface InstanceLiveness {
  /** This instance's id; undefined while it has none (before its job runner starts; a CLI). */
  readonly instanceId: string | undefined;
  /** An instance silent this long is dead. */
  readonly deadAfterMs: number;
  /** SQL: the instance `idSql` is not alive (no heartbeat within `secondsSql` seconds, or no row). */
  instanceGoneSql(idSql: string, secondsSql: string): string;
}

/**
 * A new key is inserted as a claim, with the instance that holds it: one statement, as before
 * holders existed. An existing row is taken over only when it has expired, or when it is a claim
 * (same request only) abandoned by a process that died: its holder no longer heartbeats, or it is
 * past the lock timeout (a claim without a holder: made before holders were kept, or by an
 * instance whose runner had not started). The same conditions as storedKeyState. Otherwise
 * nothing is written and nothing returned. The holder's liveness is read only on a conflict (a
 * retry of a known key), never for a new key.
 */
const claimSql = (gone: (idSql: string, secondsSql: string) => string) => `
  insert into idempotency_key as k (merchant_id, idempotency_key, fingerprint, claim_id, created_at, holder)
  values ($1, $2, $3, $4, $5, $8)
  on conflict (merchant_id, idempotency_key) do update
    set fingerprint = excluded.fingerprint, claim_id = excluded.claim_id, created_at = excluded.created_at, holder = excluded.holder,
        completed_at = null, status_code = null, response_sealed = null
    where k.created_at <= $6
       or (k.completed_at is null and k.fingerprint = excluded.fingerprint
           and (k.created_at <= $7 or (k.holder is not null and ${gone('k.holder', '$9::float8')})))
  returning claim_id`;

const findSql = (gone: (idSql: string, secondsSql: string) => string) => `
  select fingerprint, created_at, completed_at is not null as completed, status_code, response_sealed,
         (holder is not null and ${gone('holder', '$3::float8')}) as holder_gone
    from idempotency_key where merchant_id = $1 and idempotency_key = $2`;

/** Without liveness (a store outside a running service): no holder is ever gone; the lock timeout decides. (Names the parameter, which the statement still sends.) */
const NEVER_GONE = (_idSql: string, secondsSql: string) => `(${secondsSql} < 0)`;

/** Only the claim's own holder completes or releases it: a slow request whose claim was taken over changes nothing. */
const COMPLETE = `
  update idempotency_key set completed_at = $4, status_code = $5, response_sealed = $6
   where merchant_id = $1 and idempotency_key = $2 and claim_id = $3 and completed_at is null`;

const RELEASE = `delete from idempotency_key where merchant_id = $1 and idempotency_key = $2 and claim_id = $3 and completed_at is null`;

/** `created_at` is checked again on the row deleted, so a row a claim has just taken over (fresh created_at) stays. */
const PURGE = `
  with gone as (
    delete from idempotency_key where created_at <= $1 and (merchant_id, idempotency_key) in (
      select merchant_id, idempotency_key from idempotency_key where created_at <= $1 limit ${PURGE_BATCH})
    returning 1)
  select count(*)::int as n from gone`;

interface StoredRow {
  fingerprint: string;
  created_at: Date;
  completed: boolean;
  status_code: number | null;
  response_sealed: string | null;
  holder_gone: boolean;
}

/** What IdempotencyStore is built with (the composition root passes it). */
export interface IdempotencyStoreDeps {
  sql: Sql;
  clock: Clock;
  box: SecretBox;
  /** Keys the request fingerprint (HMAC): a card number in a body is never kept as a plain hash. */
  fingerprintKey: Buffer;
  limits: IdempotencyLimits;
  logger: Logger;
  /** Which instance this is and whether another is alive (the job runner); without it, only the lock timeout frees a claim. */
  instances?: InstanceLiveness;
}

/**
 * Idempotency-Key's memory (CONTRACT §1): per merchant and key, a claim while the first request
 * executes, then its answer, sealed, for 24 h. A claim costs one statement when the key is new,
 * and its completion one more; a retry of a known key reads its row once.
 */
export class IdempotencyStore {
  private readonly claimStatement: string;
  private readonly findStatement: string;

  constructor(private readonly deps: IdempotencyStoreDeps) {
    const gone = deps.instances ? deps.instances.instanceGoneSql.bind(deps.instances) : NEVER_GONE;
    this.claimStatement = claimSql(gone);
    this.findStatement = findSql(gone);
  }

  /** Seconds of silence after which a claim's holder counts as dead. */
  private get deadAfterS(): number {
    return (this.deps.instances?.deadAfterMs ?? this.deps.limits.lockTimeoutMs) / 1000;
  }

  /** How long answers are kept, and when a claim in flight is taken to be a dead process's. */
  get limits(): IdempotencyLimits {
    return this.deps.limits;
  }

  /**
   * Claims `key` for this request, or says what the key already stands for. `omit` names body
   * fields left out of the fingerprint (never kept in any form, e.g. a card's CVC).
   */
  async claim(merchantId: string, key: string, request: IdempotentRequest, omit: readonly string[] = []): Promise<ClaimOutcome> {
    const fingerprint = hmac(this.deps.fingerprintKey, fingerprintText(request, omit));
    // A row can vanish (released after a 5xx, purged) or lapse between the two statements: then claim again.
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = this.deps.clock.now();
      const claimId = randomUUID();
      const claimed = await this.deps.sql.query(
        this.claimStatement,
        [
          merchantId,
          key,
          fingerprint,
          claimId,
          now,
          this.before(now, this.deps.limits.retentionMs),
          this.before(now, this.deps.limits.lockTimeoutMs),
          this.deps.instances?.instanceId ?? null,
          this.deadAfterS,
        ],
        'idempotency_claim',
      );
      if (claimed.length === 1) return { outcome: 'claimed', claim: { merchantId, key, claimId } };
      const [row] = await this.deps.sql.query<StoredRow>(this.findStatement, [merchantId, key, this.deadAfterS], 'idempotency_find');
      if (!row) continue;
      const state = storedKeyState(
        { fingerprint: row.fingerprint, createdAt: row.created_at, completed: row.completed, holderGone: row.holder_gone },
        fingerprint,
        now,
        this.deps.limits,
      );
      if (state === 'absent') continue;
      if (state !== 'replay') return { outcome: state };
      try {
        return { outcome: 'replay', statusCode: row.status_code!, body: this.deps.box.open(row.response_sealed!) };
      } catch {
        this.deps.logger.warn({ merchantId }, 'an idempotent answer could not be opened (was ENCRYPTION_KEY changed?)');
        return { outcome: 'unreadable' };
      }
    }
    return { outcome: 'in_progress' };
  }

  /** Stores the answer for replay, or (for an answer that is not kept: 5xx, 400) frees the key for a retry. */
  async complete(claim: IdempotencyClaim, statusCode: number, body: string): Promise<void> {
    if (!keepsAnswer(statusCode)) return this.release(claim);
    await this.deps.sql.query(
      COMPLETE,
      [claim.merchantId, claim.key, claim.claimId, this.deps.clock.now(), statusCode, this.deps.box.seal(body)],
      'idempotency_complete',
    );
  }

  /** Frees the key: the request it was claimed for ends without an answer worth replaying. */
  async release(claim: IdempotencyClaim): Promise<void> {
    await this.deps.sql.query(RELEASE, [claim.merchantId, claim.key, claim.claimId], 'idempotency_release');
  }

  /** Deletes the rows past the retention (the periodic sweep); expired rows already count as absent. Returns how many. */
  async purgeExpired(): Promise<number> {
    const cutoff = this.before(this.deps.clock.now(), this.deps.limits.retentionMs);
    let total = 0;
    for (;;) {
      const [row] = await this.deps.sql.query<{ n: number }>(PURGE, [cutoff], 'idempotency_purge');
      total += row!.n;
      if (row!.n < PURGE_BATCH) return total;
    }
  }

  private before(now: Date, ms: number): Date {
    return new Date(now.getTime() - ms);
  }
}
