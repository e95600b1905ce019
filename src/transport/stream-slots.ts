import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import { AppError } from '../shared/errors';
import type { Logger } from '../shared/logger';

/** What a refused stream's Retry-After says: a statement or an export of the largest size takes a few seconds. */
const RETRY_AFTER_S = 5;
/** A slot held in Redis lapses this long after its holder last renewed it: an instance that died frees its slots. */
const LEASE_MS = 30_000;
const RENEW_MS = 10_000;

/** 429 RATE_LIMITED: the merchant has as many files streaming as it may. The REST error handler adds Retry-After. */
export class StreamsBusyError extends AppError {
  constructor(limit: number) {
    super(
      'RATE_LIMITED',
      `${limit === 1 ? 'A statement or export' : `${limit} statements or exports`} of yours ${limit === 1 ? 'is' : 'are'} being streamed already; retry when one has finished`,
    );
    this.retryAfterS = RETRY_AFTER_S;
  }
}

/** A slot taken: give it back once the file has been sent (or the client went away). Idempotent. */
export interface StreamSlot {
  release(): void;
}

/**
 * Holders as a sorted set per merchant, each scored by when its lease lapses, on Redis's clock
 * (one clock for every instance). Lapsed holders are dropped before counting.
 */
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]))
return 1`;
const RENEW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return 1`;

/**
 * How many statements and exports one merchant has streaming at once (a file of 100,000 rows
 * takes seconds and a pooled connection per batch). With Redis (REDIS_URL) the count is shared
 * by every instance, as the rate limits are; each slot is leased and renewed while its file
 * streams, so one left by an instance that died lapses within LEASE_MS. Without Redis, or while
 * it does not answer, each instance counts its own.
 */
export class StreamSlots {
  private readonly local = new Map<string, number>();

  readonly limit: number;
  private readonly redis: Redis | undefined;
  private readonly logger: Logger;
  /** The deployment's rate-limit prefix (RATE_LIMIT_PREFIX): two deployments on one Redis never share slots. */
  private readonly prefix: string;

  constructor({ limit, redis, logger, prefix }: { limit: number; redis: Redis | undefined; logger: Logger; prefix: string }) {
    this.limit = limit;
    this.redis = redis;
    this.logger = logger;
    this.prefix = prefix;
  }

  /** Takes one of the merchant's slots, or throws StreamsBusyError when they are all taken. */
  async acquire(merchantId: string): Promise<StreamSlot> {
    if (this.redis) {
      const key = `rl:${this.prefix}:streams:${merchantId}`;
      const holder = randomUUID();
      let taken: unknown;
      try {
        taken = await this.redis.eval(ACQUIRE, 1, key, this.limit, holder, LEASE_MS);
      } catch (err) {
        this.logger.warn({ err: (err as Error).message }, 'stream slots: redis did not answer; counting in this instance');
        return this.acquireLocally(merchantId);
      }
      if (Number(taken) !== 1) throw new StreamsBusyError(this.limit);
      return this.leased(key, holder);
    }
    return this.acquireLocally(merchantId);
  }

  private leased(key: string, holder: string): StreamSlot {
    const redis = this.redis!;
    const renew = setInterval(() => {
      redis.eval(RENEW, 1, key, holder, LEASE_MS).catch((err: Error) => this.logger.warn({ err: err.message }, 'stream slots: renewal failed'));
    }, RENEW_MS);
    renew.unref();
    let held = true;
    return {
      release: () => {
        if (!held) return;
        held = false;
        clearInterval(renew);
        redis.zrem(key, holder).catch((err: Error) => this.logger.warn({ err: err.message }, 'stream slots: release failed; the lease lapses'));
      },
    };
  }

  private acquireLocally(merchantId: string): StreamSlot {
    const holders = this.local.get(merchantId) ?? 0;
    if (holders >= this.limit) throw new StreamsBusyError(this.limit);
    this.local.set(merchantId, holders + 1);
    let held = true;
    return {
      release: () => {
        if (!held) return;
        held = false;
        const left = (this.local.get(merchantId) ?? 1) - 1;
        if (left <= 0) this.local.delete(merchantId);
        else this.local.set(merchantId, left);
      },
    };
  }
}
