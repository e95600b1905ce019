import Redis from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from '../shared/errors';
import type { RateLimitConfig } from '../config';
import type { Logger } from '../shared/logger';
import { StreamSlots } from './stream-slots';
import { systemClock } from '../shared/clock';

export type Budget = 'merchant' | 'tokenClient' | 'tokenIp' | 'tokenFailures' | 'tokenIpFailures' | 'admin' | 'adminFailures' | 'checkoutIp';
const BUDGETS: Budget[] = ['merchant', 'tokenClient', 'tokenIp', 'tokenFailures', 'tokenIpFailures', 'admin', 'adminFailures', 'checkoutIp'];

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

/** The key of a (client_id, address) failure budget. */
const tokenFailureKey = (clientId: string, ip: string) => `${ip}|${clientId}`;

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
  /** A lease being taken from Redis, per key: concurrent requests wait for it instead of each taking one. */
  private readonly refills = new Map<string, Promise<void>>();
  /** The client_ids whose failure ceiling was logged as spent, and until when (one line per window). */
  private readonly attacksLogged = new Map<string, number>();
  /** Statements and exports streaming per merchant (shared through the same Redis). */
  readonly streams: StreamSlots;

  readonly config: RateLimitConfig;
  private readonly logger: Logger;

  /** `redisUrl`: REDIS_URL; without it every instance counts its own. */
  constructor({ config, redisUrl, logger }: { config: RateLimitConfig; redisUrl: string | undefined; logger: Logger }) {
    this.config = config;
    this.logger = logger;
    if (redisUrl) {
      // Its own connection: the pub/sub one is in subscriber mode. Commands fail fast while it is down (the insurance limiter answers).
      this.redis = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
      this.redis.on('error', (err) => logger.debug({ err: err.message }, 'rate limit store: redis error'));
    }
    this.streams = new StreamSlots({ limit: config.streamsPerMerchant, redis: this.redis, logger, prefix: config.prefix });
    for (const budget of BUDGETS) {
      const points = config[budget];
      if (points <= 0) continue;
      // The deployment's prefix first: two deployments on one Redis never share a budget (issue 34).
      const opts = { points, duration: config.windowS, keyPrefix: `rl:${config.prefix}:${budget}` };
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
   * What a streamed file (a statement, the transaction export) costs on top of its request: a point
   * per `streamRowsPerPoint` rows, at most half the merchant budget, so that the largest file can
   * still be had once a window.
   */
  streamPoints(rows: number): number {
    const most = Math.max(1, Math.floor(this.config.merchant / 2));
    return Math.min(most, Math.ceil(rows / this.config.streamRowsPerPoint));
  }

  /** Charges a streamed file's rows to the merchant budget (nothing for an empty one); throws RateLimitedError when it does not fit. */
  async chargeStream(merchantId: string, rows: number): Promise<RateLimitState | undefined> {
    const points = this.streamPoints(rows);
    return points > 0 ? this.consume('merchant', merchantId, points) : undefined;
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

  /**
   * From this instance's lease when it holds enough; else a new lease, or exactly near the
   * budget's end. Concurrent requests for one key share one refill (single flight): each
   * taking a lease of its own overwrote the others', losing their unspent points, so a busy
   * merchant got a fraction of its budget (110 of 600 at 50 concurrent requests).
   */
  private async consumeLeased(limiter: RateLimiterAbstract, key: string, points: number): Promise<RateLimitState> {
    for (let round = 0; ; round++) {
      const now = systemClock.now().getTime();
      const lease = this.leases.get(key);
      if (lease?.spent && lease.until > now) throw new RateLimitedError({ ...lease.spent, resetS: Math.max(1, Math.ceil((lease.until - now) / 1000)) });
      if (lease && lease.until > now && lease.left >= points) {
        lease.left -= points;
        return this.leaseState(lease, now);
      }
      const chunk = Math.min(LEASE_MAX, Math.floor(limiter.points / LEASE_FRACTION));
      // A small budget, a large operation, the budget's last lease's worth, or a request that lost
      // the race for refills a few times: count this request exactly.
      const nearTheEnd = lease !== undefined && lease.until > now && lease.remainingThen < chunk;
      if (chunk <= points || nearTheEnd || round >= 3) return this.consumeExactlyLeased(limiter, key, points, now);
      let refill = this.refills.get(key);
      if (!refill) {
        refill = this.takeLease(limiter, key, chunk).finally(() => this.refills.delete(key));
        this.refills.set(key, refill);
      }
      await refill;
    }
  }

  /** Takes `chunk` points from the shared counter into this instance's lease, keeping what the lease still held in this window. */
  private async takeLease(limiter: RateLimiterAbstract, key: string, chunk: number): Promise<void> {
    const now = systemClock.now().getTime();
    let res: RateLimiterRes;
    try {
      res = await limiter.consume(key, chunk);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      // Less than a lease is left: give it back; requests are counted exactly from now on in this window.
      await limiter.reward(key, chunk);
      this.remember(key, { left: 0, remainingThen: 0, until: now + rejection.msBeforeNext, limit: limiter.points });
      return;
    }
    const current = this.leases.get(key);
    const leftover = current && current.until > now && !current.spent ? current.left : 0;
    this.remember(key, { left: chunk + leftover, remainingThen: res.remainingPoints, until: now + res.msBeforeNext, limit: limiter.points });
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

  /**
   * Before a token attempt's credentials are checked: refused (429) while this address has
   * spent its failures for this client_id, or across client ids. Successes cost nothing here
   * but a read of each counter.
   */
  async assertTokenAttemptAllowed(clientId: string | undefined, ip: string): Promise<void> {
    const spent = await Promise.all([
      clientId === undefined ? undefined : this.spentState('tokenFailures', tokenFailureKey(clientId, ip)),
      this.spentState('tokenIpFailures', ip),
    ]);
    const state = spent.find((s) => s !== undefined);
    if (state) throw new RateLimitedError(state);
  }

  /**
   * After a failed token attempt: one failure for (client_id, address), for the address, and
   * for the client_id. Returns the 429 to answer instead of the failure when the client_id's
   * ceiling (failures from every address) is spent; the attempt that spends an address's
   * budget still gets its own answer, and the next is refused by assertTokenAttemptAllowed.
   */
  async tokenAttemptFailed(clientId: string | undefined, ip: string): Promise<RateLimitedError | undefined> {
    const [, , ceiling] = await Promise.all([
      clientId === undefined ? undefined : this.countFailure('tokenFailures', tokenFailureKey(clientId, ip)),
      this.countFailure('tokenIpFailures', ip),
      clientId === undefined ? undefined : this.countFailure('tokenClient', clientId),
    ]);
    if (!ceiling || clientId === undefined) return undefined;
    const now = systemClock.now().getTime();
    if ((this.attacksLogged.get(clientId) ?? 0) <= now) {
      if (this.attacksLogged.size >= LEASES_MAX) this.attacksLogged.clear();
      this.attacksLogged.set(clientId, now + ceiling.resetS * 1000);
      this.logger.warn(
        { clientId, failures: ceiling.limit, windowS: ceiling.windowS },
        'token failures for one client_id reached its ceiling: a distributed guessing attack',
      );
    }
    return new RateLimitedError(ceiling);
  }

  /** The state of a spent budget for `key` (remaining 0), or undefined while it has points (or is off). */
  private async spentState(budget: Budget, key: string): Promise<RateLimitState | undefined> {
    const limiter = this.limiters.get(budget);
    if (!limiter) return undefined;
    const res = await limiter.get(key);
    return res && res.consumedPoints >= limiter.points ? this.stateOf(limiter, res) : undefined;
  }

  /** Counts one failure; the state of the budget when this failure spent it (or it was spent already). */
  private async countFailure(budget: Budget, key: string): Promise<RateLimitState | undefined> {
    const limiter = this.limiters.get(budget);
    if (!limiter) return undefined;
    try {
      const res = await limiter.consume(key, 1);
      return res.remainingPoints <= 0 ? this.stateOf(limiter, res) : undefined;
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      return this.stateOf(limiter, rejection);
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
