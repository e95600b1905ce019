import pino from 'pino';
import { RateLimitedError, RateLimits, rateLimitHeaders, type RateLimitConfig } from '../../src/shared/rate-limits';

const config = (overrides: Partial<RateLimitConfig> = {}): RateLimitConfig => ({
  windowS: 60,
  merchant: 10,
  tokenClient: 3,
  tokenIp: 0,
  admin: 2,
  graphqlCostUnit: 50,
  ...overrides,
});
const logger = pino({ level: 'silent' });

describe('RateLimits', () => {
  it('counts points per key and refuses with the state the headers need', async () => {
    const limits = new RateLimits(config(), undefined, logger);
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
    const limits = new RateLimits(config({ tokenIp: 0 }), undefined, logger);
    for (let i = 0; i < 100; i++) expect(await limits.consume('tokenIp', '127.0.0.1')).toBeUndefined();
  });

  it('GraphQL operations cost their cost in units, at least one point', () => {
    const limits = new RateLimits(config({ graphqlCostUnit: 50 }), undefined, logger);
    expect(limits.graphqlPoints(0)).toBe(1);
    expect(limits.graphqlPoints(50)).toBe(1);
    expect(limits.graphqlPoints(50.5)).toBe(2);
    expect(limits.graphqlPoints(30000)).toBe(600);
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

  it('with Redis unreachable, an in-process limiter stands in: the budget still holds', async () => {
    const limits = new RateLimits(config({ admin: 2 }), 'redis://127.0.0.1:1', logger);
    try {
      await expect(limits.consume('admin', '198.51.100.1')).resolves.toMatchObject({ remaining: 1 });
      await expect(limits.consume('admin', '198.51.100.1')).resolves.toMatchObject({ remaining: 0 });
      await expect(limits.consume('admin', '198.51.100.1')).rejects.toBeInstanceOf(RateLimitedError);
    } finally {
      await limits.close();
    }
  });
});
