import Redis from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from './errors';
import type { Logger } from './logger';

/**
 * The budgets, each counted in a fixed window of `windowS` seconds:
 * - merchant: every authenticated REST request (1 point) and GraphQL operation (its cost, in units);
 * - tokenClient / tokenIp: every attempt at /v1/oauth/token and /v1/oauth/revoke, by client_id and by address;
 * - admin: every request to /v1/admin/*, by address, counted before the key is checked.
 * A budget of 0 turns that limit off.
 */
export interface RateLimitConfig {
  windowS: number;
  merchant: number;
  tokenClient: number;
  tokenIp: number;
  admin: number;
  /** GraphQL cost per point of the merchant budget: an operation costing up to this counts as one request. */
  graphqlCostUnit: number;
}

export type Budget = 'merchant' | 'tokenClient' | 'tokenIp' | 'admin';
const BUDGETS: Budget[] = ['merchant', 'tokenClient', 'tokenIp', 'admin'];

/** What the RateLimit-* headers say after a request was counted. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetS: number;
  windowS: number;
}

/** 429 RATE_LIMITED, carrying what the Retry-After and RateLimit-* headers say. */
export class RateLimitedError extends AppError {
  constructor(readonly state: RateLimitState) {
    super('RATE_LIMITED', `Too many requests; retry after ${state.resetS} s`);
  }
}

/** The headers both HTTP doors send, on success and on a 429 alike (IETF RateLimit header fields, draft 6 names). */
export function rateLimitHeaders(state: RateLimitState, limited: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    'ratelimit-limit': String(state.limit),
    'ratelimit-remaining': String(state.remaining),
    'ratelimit-reset': String(state.resetS),
    'ratelimit-policy': `${state.limit};w=${state.windowS}`,
  };
  if (limited) headers['retry-after'] = String(state.resetS);
  return headers;
}

/** Points taken from Redis at once for a busy merchant: a hundredth of its budget (at most 100). */
const LEASE_FRACTION = 100;
const LEASE_MAX = 100;
/** Leases remembered at most (one per busy merchant). */
const LEASES_MAX = 100_000;

/** Points an instance took from the shared counter and has not used yet, for one key. */
interface Lease {
  left: number;
  /** The shared counter's remaining points when the lease was taken. */
  remainingThen: number;
  /** When the shared window ends (the lease ends with it). */
  until: number;
  limit: number;
  /** The budget is spent: refused here, without a round trip, until the window ends. */
  spent?: RateLimitState;
}

/**
 * Rate limits on rate-limiter-flexible: counters in Redis when REDIS_URL is set (an
 * atomic INCRBY, so a limit holds across instances), in process otherwise. The merchant
 * budget, the busy one, is leased: an instance takes a hundredth of the budget from Redis
 * at once and spends it locally, so a merchant sending 100 requests costs one round trip,
 * not 100. Near the end of a budget (less than a lease left) every request is counted in
 * Redis again, so the limit stays exact; points leased but unused when the window ends
 * are lost, at most one lease per instance. If Redis stops answering, an in-process
 * limiter stands in (insurance) rather than
 * letting everything through or refusing everything. Weighted consumption (a
 * GraphQL operation costs its cost) is why this library and not @fastify/rate-limit,
 * which counts requests only.
 */
export class RateLimits {
  private readonly limiters = new Map<Budget, RateLimiterAbstract>();
  private readonly redis?: Redis;
  private readonly leases = new Map<string, Lease>();

  constructor(
    readonly config: RateLimitConfig,
    redisUrl: string | undefined,
    logger: Logger,
  ) {
    if (redisUrl) {
      // Its own connection: the pub/sub one is in subscriber mode. Commands fail fast while it is down (the insurance limiter answers).
      this.redis = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
      this.redis.on('error', (err) => logger.debug({ err: err.message }, 'rate limit store: redis error'));
    }
    for (const budget of BUDGETS) {
      const points = config[budget];
      if (points <= 0) continue;
      const opts = { points, duration: config.windowS, keyPrefix: `rl:${budget}` };
      const memory = new RateLimiterMemory(opts);
      this.limiters.set(
        budget,
        this.redis
          ? new RateLimiterRedis({
              ...opts,
              storeClient: this.redis,
              rejectIfRedisNotReady: true,
              insuranceLimiter: memory,
              // A spent key is refused in memory until its window ends (no round trip per refused request). The
              // leased budget does this itself: it gives back a refused lease, which an in-memory block would not see.
              ...(budget === 'merchant' ? {} : { inMemoryBlockOnConsumed: points }),
            })
          : memory,
      );
    }
  }

  /** Resolves once the Redis store answers (until then the in-process insurance limiter counts); at once without Redis. */
  async ready(): Promise<void> {
    const redis = this.redis;
    if (!redis || redis.status === 'ready') return;
    await new Promise<void>((resolve) => redis.once('ready', () => resolve()));
  }

  /** Points a GraphQL operation of this cost takes from the merchant budget (at least one). */
  graphqlPoints(cost: number): number {
    return Math.max(1, Math.ceil(cost / this.config.graphqlCostUnit));
  }

  /**
   * Counts `points` against `key` in `budget`. Resolves to the headers' state (undefined
   * when the budget is off); throws RateLimitedError when the budget is spent.
   */
  async consume(budget: Budget, key: string, points = 1): Promise<RateLimitState | undefined> {
    const limiter = this.limiters.get(budget);
    if (!limiter) return undefined;
    if (budget !== 'merchant') return this.consumeExactly(limiter, key, points, false);
    return this.redis ? this.consumeLeased(limiter, key, points) : this.consumeExactly(limiter, key, points, true);
  }

  /**
   * Counts the points at the store. `refundRefused`: a refused request does not count (the merchant
   * budget: a 600-point operation refused leaves room for small ones). The token and admin budgets
   * count every attempt, refused or not: guessing stays as slow as the budget.
   */
  private async consumeExactly(limiter: RateLimiterAbstract, key: string, points: number, refundRefused: boolean): Promise<RateLimitState> {
    try {
      return this.stateOf(limiter, await limiter.consume(key, points));
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const state = this.stateOf(limiter, rejection);
      if (refundRefused) {
        await limiter.reward(key, points);
        state.remaining = Math.max(0, limiter.points - (rejection.consumedPoints - points));
      }
      throw new RateLimitedError(state);
    }
  }

  /** Exactly; a budget found spent is refused here, without a round trip, until its window ends. */
  private async consumeExactlyLeased(limiter: RateLimiterAbstract, key: string, points: number, now: number): Promise<RateLimitState> {
    try {
      return await this.consumeExactly(limiter, key, points, true);
    } catch (err) {
      if (err instanceof RateLimitedError && err.state.remaining === 0) {
        this.remember(key, { left: 0, remainingThen: 0, until: now + err.state.resetS * 1000, limit: limiter.points, spent: err.state });
      }
      throw err;
    }
  }

  /** From this instance's lease when it holds enough; else a new lease, or exactly near the budget's end. */
  private async consumeLeased(limiter: RateLimiterAbstract, key: string, points: number): Promise<RateLimitState> {
    const now = Date.now();
    const lease = this.leases.get(key);
    if (lease?.spent && lease.until > now) throw new RateLimitedError({ ...lease.spent, resetS: Math.max(1, Math.ceil((lease.until - now) / 1000)) });
    if (lease && lease.until > now && lease.left >= points) {
      lease.left -= points;
      return this.leaseState(lease, now);
    }
    const chunk = Math.min(LEASE_MAX, Math.floor(limiter.points / LEASE_FRACTION));
    // A small budget, a large operation, or the budget's last lease's worth: count this request exactly.
    const nearTheEnd = lease !== undefined && lease.until > now && lease.remainingThen < chunk;
    if (chunk <= points || nearTheEnd) return this.consumeExactlyLeased(limiter, key, points, now);
    let res: RateLimiterRes;
    try {
      res = await limiter.consume(key, chunk);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      // Less than a lease is left: give the lease back and count this request alone.
      await limiter.reward(key, chunk);
      this.remember(key, { left: 0, remainingThen: 0, until: now + rejection.msBeforeNext, limit: limiter.points });
      return this.consumeExactlyLeased(limiter, key, points, now);
    }
    const taken = { left: chunk - points, remainingThen: res.remainingPoints, until: now + res.msBeforeNext, limit: limiter.points };
    this.remember(key, taken);
    return this.leaseState(taken, now);
  }

  /** What the headers say while a lease is spent locally: the shared count then, plus what this instance still holds. */
  private leaseState(lease: Lease, now: number): RateLimitState {
    return {
      limit: lease.limit,
      remaining: lease.remainingThen + lease.left,
      resetS: Math.max(1, Math.ceil((lease.until - now) / 1000)),
      windowS: this.config.windowS,
    };
  }

  /** One lease per key, at most LEASES_MAX keys (the oldest is forgotten first). */
  private remember(key: string, lease: Lease): void {
    if (this.leases.size >= LEASES_MAX && !this.leases.has(key)) this.leases.delete(this.leases.keys().next().value!);
    this.leases.set(key, lease);
  }

  async close(): Promise<void> {
    this.redis?.disconnect();
  }

  private stateOf(limiter: RateLimiterAbstract, res: RateLimiterRes): RateLimitState {
    return {
      limit: limiter.points,
      remaining: Math.max(0, res.remainingPoints),
      resetS: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
      windowS: this.config.windowS,
    };
  }
}
