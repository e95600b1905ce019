import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import pino from 'pino';
import type { RateLimitConfig } from '../../src/config';
import { RateLimitedError, RateLimits, rateLimitHeaders } from '../../src/transport/rate-limits';
import { StreamsBusyError } from '../../src/transport/stream-slots';

const config = (overrides: Partial<RateLimitConfig> = {}): RateLimitConfig => ({
  windowS: 60,
  prefix: 'unit',
  merchant: 10,
  tokenClient: 3,
  tokenIp: 0,
  tokenFailures: 0,
  tokenIpFailures: 0,
  checkoutIp: 0,
  admin: 2,
  adminFailures: 2,
  graphqlCostUnit: 50,
  streamRowsPerPoint: 100,
  streamsPerMerchant: 2,
  ...overrides,
});
const logger = pino({ level: 'silent' });

describe('RateLimits', () => {
  it('counts points per key and refuses with the state the headers need', async () => {
    const limits = new RateLimits({ config: config(), redisUrl: undefined, logger });
    expect(await limits.consume('merchant', 'm1', 4)).toMatchObject({ limit: 10, remaining: 6, windowS: 60 });
    expect(await limits.consume('merchant', 'm1', 6)).toMatchObject({ remaining: 0 });
    const refusal = await limits.consume('merchant', 'm1').catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(RateLimitedError);
    const { state, code, httpStatus } = refusal as RateLimitedError;
    expect({ code, httpStatus }).toEqual({ code: 'RATE_LIMITED', httpStatus: 429 });
    expect(state.remaining).toBe(0);
    expect(state.resetS).toBeGreaterThanOrEqual(1);
    expect(state.resetS).toBeLessThanOrEqual(60);
    // Another key has its own budget.
    expect(await limits.consume('merchant', 'm2')).toMatchObject({ remaining: 9 });
  });

  it('a budget of 0 is off', async () => {
    const limits = new RateLimits({ config: config({ tokenIp: 0 }), redisUrl: undefined, logger });
    for (let i = 0; i < 100; i++) expect(await limits.consume('tokenIp', '127.0.0.1')).toBeUndefined();
  });

  it('GraphQL operations cost their cost in units, at least one point', () => {
    const limits = new RateLimits({ config: config({ graphqlCostUnit: 50 }), redisUrl: undefined, logger });
    expect(limits.graphqlPoints(0)).toBe(1);
    expect(limits.graphqlPoints(50)).toBe(1);
    expect(limits.graphqlPoints(50.5)).toBe(2);
    expect(limits.graphqlPoints(30000)).toBe(600);
  });

  it('a streamed file costs a point per streamRowsPerPoint rows, at most half the merchant budget (issue 34)', async () => {
    const limits = new RateLimits({ config: config({ merchant: 6000, streamRowsPerPoint: 100 }), redisUrl: undefined, logger });
    expect([0, 1, 100, 101, 20_000, 100_000, 300_000, 10_000_000].map((rows) => limits.streamPoints(rows))).toEqual([0, 1, 1, 2, 200, 1000, 3000, 3000]);
    // An empty file costs nothing beyond its request; a large one is charged at once.
    expect(await limits.chargeStream('m1', 0)).toBeUndefined();
    expect(await limits.chargeStream('m1', 20_000)).toMatchObject({ remaining: 5800 });
  });

  it('stream slots: two per merchant in process, a third refused with Retry-After, freed once released (issue 34)', async () => {
    const limits = new RateLimits({ config: config({ streamsPerMerchant: 2 }), redisUrl: undefined, logger });
    const [a, b] = [await limits.streams.acquire('m1'), await limits.streams.acquire('m1')];
    const refusal = await limits.streams.acquire('m1').catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(StreamsBusyError);
    expect(refusal).toMatchObject({ code: 'RATE_LIMITED', httpStatus: 429, retryAfterS: 5 });
    await limits.streams.acquire('m2'); // another merchant's own
    a.release();
    a.release(); // twice is once
    const c = await limits.streams.acquire('m1');
    expect(await limits.streams.acquire('m1').catch((e: unknown) => e)).toBeInstanceOf(StreamsBusyError);
    b.release();
    c.release();
  });

  it('headers: RateLimit-* always, Retry-After only on a refusal', () => {
    const state = { limit: 10, remaining: 3, resetS: 42, windowS: 60 };
    expect(rateLimitHeaders(state, false)).toEqual({
      'ratelimit-limit': '10',
      'ratelimit-remaining': '3',
      'ratelimit-reset': '42',
      'ratelimit-policy': '10;w=60',
    });
    expect(rateLimitHeaders(state, true)['retry-after']).toBe('42');
  });

  it('a refused merchant request does not count (a large operation refused leaves room for small ones); a refused admin request does', async () => {
    const limits = new RateLimits({ config: config({ merchant: 10, admin: 3 }), redisUrl: undefined, logger });
    await limits.consume('merchant', 'm', 8);
    await expect(limits.consume('merchant', 'm', 5)).rejects.toMatchObject({ state: expect.objectContaining({ remaining: 2 }) });
    await expect(limits.consume('merchant', 'm', 2)).resolves.toMatchObject({ remaining: 0 });
    await limits.consume('admin', 'c', 3);
    await expect(limits.consume('admin', 'c')).rejects.toBeInstanceOf(RateLimitedError);
    await expect(limits.consume('admin', 'c')).rejects.toBeInstanceOf(RateLimitedError);
  });

  it('with Redis unreachable, an in-process limiter stands in: the budget still holds', async () => {
    const limits = new RateLimits({ config: config({ admin: 2 }), redisUrl: 'redis://127.0.0.1:1', logger });
    try {
      await expect(limits.consume('admin', '198.51.100.1')).resolves.toMatchObject({ remaining: 1 });
      await expect(limits.consume('admin', '198.51.100.1')).resolves.toMatchObject({ remaining: 0 });
      await expect(limits.consume('admin', '198.51.100.1')).rejects.toBeInstanceOf(RateLimitedError);
      // Stream slots too: counted in this instance while Redis does not answer.
      await limits.streams.acquire('m1');
      await limits.streams.acquire('m1');
      await expect(limits.streams.acquire('m1')).rejects.toBeInstanceOf(StreamsBusyError);
    } finally {
      await limits.close();
    }
  });
});

describe.each([
  ['in process', undefined],
  ['with Redis', process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'],
])('RateLimits, token failures (%s): guessing is slow, and nobody can lock a merchant out', (_where, redisUrl) => {
  const limits = new RateLimits({ config: config({ tokenFailures: 3, tokenIpFailures: 5, tokenClient: 8 }), redisUrl: redisUrl, logger });
  beforeAll(() => limits.ready());
  afterAll(() => limits.close());

  // Addresses unique to each run: the Redis counters outlive a run by their window.
  const address = () => `198.51.100.1-${randomUUID()}`;

  it('failures by (client_id, address) refuse that address for that client_id only', async () => {
    const client = randomUUID();
    const ip = address();
    for (let i = 0; i < 3; i++) {
      await limits.assertTokenAttemptAllowed(client, ip);
      expect(await limits.tokenAttemptFailed(client, ip)).toBeUndefined();
    }
    await expect(limits.assertTokenAttemptAllowed(client, ip)).rejects.toBeInstanceOf(RateLimitedError);
    // Another address, for the same client_id; and the same address, for another client_id.
    await expect(limits.assertTokenAttemptAllowed(client, address())).resolves.toBeUndefined();
    await expect(limits.assertTokenAttemptAllowed(randomUUID(), ip)).resolves.toBeUndefined();
  });

  it('failures by address, across client ids, refuse that address (credential stuffing)', async () => {
    const ip = address();
    for (let i = 0; i < 5; i++) expect(await limits.tokenAttemptFailed(randomUUID(), ip)).toBeUndefined();
    await expect(limits.assertTokenAttemptAllowed(randomUUID(), ip)).rejects.toBeInstanceOf(RateLimitedError);
  });

  it("the client_id's ceiling, spent from many addresses, turns failures into 429 but never refuses an attempt before its secret is checked", async () => {
    const client = randomUUID();
    const answers: Array<boolean> = [];
    for (let i = 0; i < 10; i++) {
      const ip = `192.0.2.${i}-${client}`;
      await limits.assertTokenAttemptAllowed(client, ip);
      answers.push((await limits.tokenAttemptFailed(client, ip)) instanceof RateLimitedError);
    }
    expect(answers).toEqual([false, false, false, false, false, false, false, true, true, true]);
    // A fresh address may still try (its secret is checked; the right one gets a token).
    await expect(limits.assertTokenAttemptAllowed(client, `192.0.2.99-${client}`)).resolves.toBeUndefined();
  });
});

describe('RateLimits with Redis: the merchant budget is leased', () => {
  const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const redis = new Redis(REDIS_URL);
  afterAll(() => redis.quit());
  const counter = async (key: string) => Number(await redis.get(`rl:unit:merchant:${key}`));

  it('one round trip takes a hundredth of the budget; requests spend it locally; the headers count down', async () => {
    const limits = new RateLimits({ config: config({ merchant: 1000 }), redisUrl: REDIS_URL, logger });
    const key = randomUUID();
    await limits.ready();
    try {
      const seen: number[] = [];
      for (let i = 0; i < 10; i++) seen.push((await limits.consume('merchant', key))!.remaining);
      expect(seen).toEqual([999, 998, 997, 996, 995, 994, 993, 992, 991, 990]);
      expect(await counter(key)).toBe(10);
      await limits.consume('merchant', key);
      expect(await counter(key)).toBe(20);
    } finally {
      await limits.close();
    }
  });

  it('across instances the budget stays exact: near its end each request is counted alone, and exactly the budget is granted', async () => {
    const key = randomUUID();
    const a = new RateLimits({ config: config({ merchant: 1000 }), redisUrl: REDIS_URL, logger });
    const b = new RateLimits({ config: config({ merchant: 1000 }), redisUrl: REDIS_URL, logger });
    await Promise.all([a.ready(), b.ready()]);
    try {
      // Both instances spend until each has been refused: what each holds in a lease is its own to spend.
      let granted = 0;
      const refused = new Set<RateLimits>();
      for (let i = 0; i < 1200 && refused.size < 2; i++) {
        const instance = i % 3 === 0 ? b : a;
        if (refused.has(instance)) continue;
        try {
          await instance.consume('merchant', key);
          granted++;
        } catch (err) {
          expect(err).toBeInstanceOf(RateLimitedError);
          refused.add(instance);
        }
      }
      expect(refused.size).toBe(2);
      // Never more than the budget; fewer only by leases taken and not spent (at most one of 10 per instance).
      expect(granted).toBeGreaterThanOrEqual(980);
      expect(granted).toBeLessThanOrEqual(1000);
      expect(await counter(key)).toBeLessThanOrEqual(1000);
      // Once refused, an instance refuses again without asking Redis.
      const before = await counter(key);
      await expect(a.consume('merchant', key)).rejects.toBeInstanceOf(RateLimitedError);
      expect(await counter(key)).toBe(before);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it.each([10, 50])('%i concurrent requests share one lease: a busy merchant gets its whole budget, never more', async (concurrency) => {
    const key = randomUUID();
    const limits = new RateLimits({ config: config({ merchant: 600 }), redisUrl: REDIS_URL, logger });
    await limits.ready();
    try {
      let granted = 0;
      let refused = 0;
      // Lockstep batches, as a busy merchant's concurrent requests arrive, until every request of a batch is refused.
      for (let batch = 0; batch < 100 && refused < concurrency; batch++) {
        refused = 0;
        const outcomes = await Promise.allSettled(Array.from({ length: concurrency }, () => limits.consume('merchant', key)));
        for (const o of outcomes) {
          if (o.status === 'fulfilled') granted++;
          else {
            expect(o.reason).toBeInstanceOf(RateLimitedError);
            refused++;
          }
        }
      }
      // Before the single flight: 195 of 600 at 10 concurrent requests, 110 at 50.
      expect(granted).toBe(600);
      expect(await counter(key)).toBeLessThanOrEqual(600);
    } finally {
      await limits.close();
    }
  });
});
