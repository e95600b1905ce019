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

/**
 * Rate limits on rate-limiter-flexible: counters in Redis when REDIS_URL is set (one
 * INCRBY per request, so a limit holds across instances), in process otherwise. If
 * Redis stops answering, an in-process limiter stands in (insurance) rather than
 * letting everything through or refusing everything. Weighted consumption (a
 * GraphQL operation costs its cost) is why this library and not @fastify/rate-limit,
 * which counts requests only.
 */
export class RateLimits {
  private readonly limiters = new Map<Budget, RateLimiterAbstract>();
  private readonly redis?: Redis;

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
          ? new RateLimiterRedis({ ...opts, storeClient: this.redis, rejectIfRedisNotReady: true, insuranceLimiter: memory, inMemoryBlockOnConsumed: points })
          : memory,
      );
    }
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
    try {
      return this.stateOf(limiter, await limiter.consume(key, points));
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) throw new RateLimitedError(this.stateOf(limiter, rejection));
      throw rejection;
    }
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
