/**
 * When and how long the SDK waits before it sends a request again. The policy (retryDelayMs and its
 * parts) is pure; retryingFetch applies it around a fetch.
 */

export const IDEMPOTENCY_KEY = 'Idempotency-Key';

/** How requests are sent again (`createPaymentsClient({ retry })`). */
export interface RetryOptions {
  /** Attempts per request, the first one included (default 3); 1 sends every request once. */
  maxAttempts?: number;
  /** The first retry waits about this long, each next one twice as long, with jitter (default 500 ms). */
  baseDelayMs?: number;
  /**
   * The longest wait before a retry (default 30 s): the backoff stops growing there, and an answer whose
   * `Retry-After` asks for longer is returned as it is rather than waited for.
   */
  maxDelayMs?: number;
}

export type RetryPolicy = Required<RetryOptions>;

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 3, baseDelayMs: 500, maxDelayMs: 30_000 };

/** The caller's options over the defaults (an option left undefined keeps its default); a value that makes no sense is a RangeError. */
export function retryPolicy(options: RetryOptions = {}): RetryPolicy {
  const policy = { ...DEFAULT_RETRY_POLICY };
  for (const [name, value] of Object.entries(options) as Array<[keyof RetryPolicy, number | undefined]>) {
    if (value === undefined || !(name in policy)) continue;
    const valid = name === 'maxAttempts' ? Number.isInteger(value) && value >= 1 : Number.isFinite(value) && value >= 0;
    if (!valid)
      throw new RangeError(`retry.${name} must be ${name === 'maxAttempts' ? 'a whole number, 1 or more' : 'a number of ms, 0 or more'} (got ${value})`);
    policy[name] = value;
  }
  return policy;
}

/** What one attempt got: an answer (its status and `Retry-After`), or none (the connection failed on the way). */
export type AttemptOutcome = { status: number; retryAfter: string | null } | { status: 'no answer' };

export interface RetryContext {
  /** Attempts made so far (1 after the first). */
  attempt: number;
  /** Safe to send twice (safeToRepeat): an idempotent method, or a request with an Idempotency-Key. */
  repeatable: boolean;
  /** The request carries an Idempotency-Key. */
  keyed: boolean;
  /** The clock, in ms (for a `Retry-After` that is a date). */
  now: number;
  /** A number in [0, 1) (Math.random): the jitter. */
  random: () => number;
}

/** The methods that are idempotent by definition (RFC 9110 §9.2.2). */
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** Safe to send twice: an idempotent method, or a create with its Idempotency-Key (the service replays the first answer). */
const safeToRepeat = (request: Request): boolean => IDEMPOTENT_METHODS.has(request.method) || request.headers.has(IDEMPOTENCY_KEY);

/** 5xx answers that another attempt cannot change. */
const PERMANENT_SERVER_ERRORS = new Set([501, 505]);

/**
 * `Retry-After` (RFC 9110 §10.2.3) as a wait in ms: a number of seconds, or an HTTP date (a date already
 * past is 0). undefined when absent or unreadable.
 */
export function retryAfterMs(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date has letters (`Wed, 21 Oct 2015 07:28:00 GMT`); this keeps Date.parse from reading "1.5" as a date.
  const at = /[a-z]/i.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Exponential backoff with jitter: attempt n waits between half and all of min(maxDelayMs, baseDelayMs × 2^(n-1)). */
export function backoffMs(attempt: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/**
 * How long to wait before the next attempt, or undefined to give the caller this outcome:
 * - no more than policy.maxAttempts attempts in all;
 * - no answer (a connection lost): again, after the backoff, when the request is safe to repeat;
 * - 429: again, whatever the request (the service refused it before doing anything);
 * - 5xx (not 501 or 505): again when the request is safe to repeat (the service may have done part of it);
 * - 409 with `Retry-After` on a request with an Idempotency-Key (the first request with that key still runs): again;
 * - the wait is the answer's `Retry-After` when it has one (undefined if that is over policy.maxDelayMs), else the backoff.
 */
export function retryDelayMs(outcome: AttemptOutcome, context: RetryContext, policy: RetryPolicy): number | undefined {
  if (context.attempt >= policy.maxAttempts) return undefined;
  if (outcome.status === 'no answer') return context.repeatable ? backoffMs(context.attempt, policy, context.random) : undefined;
  const { status } = outcome;
  const retryable =
    status === 429 ||
    (status >= 500 && status <= 599 && !PERMANENT_SERVER_ERRORS.has(status) && context.repeatable) ||
    (status === 409 && context.keyed && outcome.retryAfter !== null);
  if (!retryable) return undefined;
  const asked = retryAfterMs(outcome.retryAfter, context.now);
  if (asked === undefined) return status === 409 ? undefined : backoffMs(context.attempt, policy, context.random);
  return asked <= policy.maxDelayMs ? asked : undefined;
}

/** What retryingFetch waits with: the clock, a timer and the jitter (tests give their own). */
export interface RetryClock {
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
}

/** A request the caller aborted (its signal): never sent again. */
const abortedBy = (request: Request, err: unknown) =>
  request.signal.aborted || (err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError'));

/**
 * `fetch`, sending the request again as retryDelayMs says. Each attempt sends an unread copy of the
 * request as the caller made it: the same body, and the same Idempotency-Key.
 */
export function retryingFetch(fetch: (request: Request) => Promise<Response>, policy: RetryPolicy, clock: RetryClock): (request: Request) => Promise<Response> {
  return async (request) => {
    const context = { repeatable: safeToRepeat(request), keyed: request.headers.has(IDEMPOTENCY_KEY), random: clock.random };
    for (let attempt = 1; ; attempt++) {
      let outcome: AttemptOutcome;
      let response: Response | undefined;
      try {
        response = await fetch(request.clone());
        outcome = { status: response.status, retryAfter: response.headers.get('retry-after') };
      } catch (err) {
        if (abortedBy(request, err)) throw err;
        const delay = retryDelayMs({ status: 'no answer' }, { ...context, attempt, now: clock.now() }, policy);
        if (delay === undefined) throw err;
        await clock.sleep(delay);
        continue;
      }
      const delay = retryDelayMs(outcome, { ...context, attempt, now: clock.now() }, policy);
      if (delay === undefined) return response;
      // The answer is not used: let its connection go.
      await response.body?.cancel().catch(() => undefined);
      await clock.sleep(delay);
      if (request.signal.aborted) throw request.signal.reason;
    }
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
