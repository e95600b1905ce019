import {
  backoffMs,
  DEFAULT_RETRY_POLICY,
  retryAfterMs,
  retryDelayMs,
  retryingFetch,
  retryPolicy,
  type AttemptOutcome,
  type RetryContext,
  type RetryPolicy,
} from '../../sdk/src/retries';

/** The SDK's retry policy (sdk/src/retries.ts): pure, with the clock and the jitter given. */
describe('SDK retry policy', () => {
  const policy: RetryPolicy = { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 1000 };
  const NOW = Date.parse('2026-03-01T12:00:00Z');
  const context = (over: Partial<RetryContext> = {}): RetryContext => ({ attempt: 1, repeatable: true, keyed: false, now: NOW, random: () => 0.5, ...over });
  const answer = (status: number, retryAfter: string | null = null): AttemptOutcome => ({ status, retryAfter });
  const noAnswer: AttemptOutcome = { status: 'no answer' };

  describe('retryAfterMs', () => {
    it('reads seconds, and an HTTP date as the time left until it (0 once past)', () => {
      expect(retryAfterMs('2', NOW)).toBe(2000);
      expect(retryAfterMs(' 0 ', NOW)).toBe(0);
      expect(retryAfterMs('Sun, 01 Mar 2026 12:00:03 GMT', NOW)).toBe(3000);
      expect(retryAfterMs('Sun, 01 Mar 2026 11:59:00 GMT', NOW)).toBe(0);
    });

    it('gives nothing for an absent or unreadable value (not a number of seconds, not a date)', () => {
      for (const value of [null, '', 'soon', '-1', '1.5', '2 seconds']) expect([value, retryAfterMs(value, NOW)]).toEqual([value, undefined]);
    });
  });

  describe('backoffMs', () => {
    it('doubles from baseDelayMs on each attempt, jittered between half and all of it', () => {
      expect([1, 2, 3].map((attempt) => backoffMs(attempt, policy, () => 0))).toEqual([50, 100, 200]);
      expect([1, 2, 3].map((attempt) => backoffMs(attempt, policy, () => 0.999999))).toEqual([100, 200, 400]);
      expect(backoffMs(2, policy, () => 0.5)).toBe(150);
    });

    it('stops growing at maxDelayMs', () => {
      expect(backoffMs(20, policy, () => 0.999999)).toBe(1000);
      expect(backoffMs(20, policy, () => 0)).toBe(500);
    });
  });

  describe('retryDelayMs', () => {
    it('waits as long as a 429 or a 503 says in Retry-After, in seconds or as a date', () => {
      expect(retryDelayMs(answer(429, '1'), context(), policy)).toBe(1000);
      expect(retryDelayMs(answer(503, 'Sun, 01 Mar 2026 12:00:00 GMT'), context(), policy)).toBe(0);
      expect(retryDelayMs(answer(503, '0'), context(), policy)).toBe(0);
    });

    it('backs off when the answer has no Retry-After, or one it cannot read', () => {
      expect(retryDelayMs(answer(429), context({ attempt: 2 }), policy)).toBe(150);
      expect(retryDelayMs(answer(500, 'later'), context({ attempt: 1 }), policy)).toBe(75);
      expect(retryDelayMs(answer(502), context({ attempt: 3 }), policy)).toBe(300);
    });

    it('gives the answer back rather than wait longer than maxDelayMs', () => {
      expect(retryDelayMs(answer(429, '2'), context(), policy)).toBeUndefined();
      expect(retryDelayMs(answer(429, '1'), context(), policy)).toBe(1000);
    });

    it('stops after maxAttempts attempts in all', () => {
      expect(retryDelayMs(answer(503), context({ attempt: 3 }), policy)).toBeDefined();
      expect(retryDelayMs(answer(503), context({ attempt: 4 }), policy)).toBeUndefined();
      expect(retryDelayMs(noAnswer, context({ attempt: 4 }), policy)).toBeUndefined();
      expect(retryDelayMs(answer(429, '0'), context({ attempt: 1 }), { ...policy, maxAttempts: 1 })).toBeUndefined();
    });

    it('retries a 429 whatever the request, but a 5xx or a lost connection only when the request is safe to repeat', () => {
      const notRepeatable = context({ repeatable: false });
      expect(retryDelayMs(answer(429), notRepeatable, policy)).toBe(75);
      expect(retryDelayMs(answer(503), notRepeatable, policy)).toBeUndefined();
      expect(retryDelayMs(noAnswer, notRepeatable, policy)).toBeUndefined();
      expect(retryDelayMs(noAnswer, context(), policy)).toBe(75);
    });

    it('never retries a 501 or a 505, nor any other answer', () => {
      for (const status of [200, 201, 204, 400, 401, 402, 403, 404, 409, 422, 501, 505]) {
        expect([status, retryDelayMs(answer(status, '0'), context(), policy)]).toEqual([status, undefined]);
      }
    });

    it('retries a 409 with Retry-After (its Idempotency-Key still in progress) only when the request has a key', () => {
      expect(retryDelayMs(answer(409, '1'), context({ keyed: true }), policy)).toBe(1000);
      expect(retryDelayMs(answer(409), context({ keyed: true }), policy)).toBeUndefined();
      expect(retryDelayMs(answer(409, '1'), context({ keyed: false }), policy)).toBeUndefined();
    });
  });

  describe('retryPolicy', () => {
    it('defaults to 3 attempts, backoff from 500 ms, waits of at most 30 s; an option left undefined keeps its default', () => {
      expect(DEFAULT_RETRY_POLICY).toEqual({ maxAttempts: 3, baseDelayMs: 500, maxDelayMs: 30_000 });
      expect(retryPolicy()).toEqual(DEFAULT_RETRY_POLICY);
      expect(retryPolicy({ maxAttempts: 1, baseDelayMs: undefined })).toEqual({ maxAttempts: 1, baseDelayMs: 500, maxDelayMs: 30_000 });
      expect(retryPolicy({ baseDelayMs: 0, maxDelayMs: 5000 })).toEqual({ maxAttempts: 3, baseDelayMs: 0, maxDelayMs: 5000 });
    });

    it('refuses a value that would retry forever or wait a negative time', () => {
      for (const options of [
        { maxAttempts: 0 },
        { maxAttempts: 2.5 },
        { maxAttempts: Number.POSITIVE_INFINITY },
        { baseDelayMs: -1 },
        { maxDelayMs: Number.NaN },
      ]) {
        expect(() => retryPolicy(options)).toThrow(RangeError);
      }
      expect(() => retryPolicy({ maxAttempts: 0 })).toThrow('retry.maxAttempts must be a whole number, 1 or more (got 0)');
    });
  });

  describe('retryingFetch (a fake fetch and clock: what it sends, and what it waits)', () => {
    function scripted(outcomes: Array<number | 'lost'>, retryAfter: string | null = null) {
      const sent: Array<{ method: string; key: string | null; body: string }> = [];
      const waits: number[] = [];
      const fetch = async (request: Request) => {
        sent.push({ method: request.method, key: request.headers.get('idempotency-key'), body: await request.text() });
        const next = outcomes.shift();
        if (next === undefined) throw new Error('the script has no more answers');
        if (next === 'lost') throw new TypeError('fetch failed');
        return new Response(null, { status: next, headers: retryAfter === null ? {} : { 'retry-after': retryAfter } });
      };
      const send = retryingFetch(fetch, policy, { now: () => NOW, random: () => 0, sleep: async (ms) => void waits.push(ms) });
      return { send, sent, waits };
    }
    const post = (key?: string) => new Request('http://127.0.0.1/v1/x', { method: 'POST', body: '{"a":1}', headers: key ? { 'Idempotency-Key': key } : {} });

    it('sends the same body and key on every attempt, until an answer it keeps', async () => {
      const { send, sent, waits } = scripted(['lost', 503, 429, 200]);
      expect((await send(post('k-1'))).status).toBe(200);
      expect(sent).toEqual(Array(4).fill({ method: 'POST', key: 'k-1', body: '{"a":1}' }));
      expect(waits).toEqual([50, 100, 200]);
    });

    it('returns the last answer when the attempts are spent, and throws the last error when none came', async () => {
      const answered = scripted([503, 503, 503, 503, 200]);
      expect((await answered.send(post('k'))).status).toBe(503);
      expect(answered.sent).toHaveLength(4);
      const lost = scripted(['lost', 'lost', 'lost', 'lost']);
      await expect(lost.send(new Request('http://127.0.0.1/v1/x'))).rejects.toThrow('fetch failed');
      expect(lost.sent).toHaveLength(4);
    });

    it('sends a POST without a key once when its answer is a 5xx or lost, but again after a 429', async () => {
      const failed = scripted([503]);
      expect((await failed.send(post())).status).toBe(503);
      const lost = scripted(['lost']);
      await expect(lost.send(post())).rejects.toThrow('fetch failed');
      const limited = scripted([429, 200], '1');
      expect((await limited.send(post())).status).toBe(200);
      expect([failed.sent.length, lost.sent.length, limited.sent.length, limited.waits]).toEqual([1, 1, 2, [1000]]);
    });

    it('never sends again a request its caller aborted', async () => {
      const { send, sent } = scripted(['lost', 200]);
      const controller = new AbortController();
      controller.abort();
      await expect(send(new Request('http://127.0.0.1/v1/x', { signal: controller.signal }))).rejects.toThrow();
      expect(sent).toHaveLength(1);
    });
  });
});
