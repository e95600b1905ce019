import { createHash } from 'node:crypto';
import { ProviderUnreachable } from './connector';

/** A provider's answer: status, raw text and the JSON it holds (undefined when it is not JSON). */
export interface ProviderResponse {
  status: number;
  text: string;
  json: unknown;
}

export interface ProviderRequest {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
  /** What the call is, for errors and logs ("requesttopay"). */
  operation: string;
}

/**
 * One provider's HTTP API over Node's fetch (undici): a base URL, and a timeout on every
 * call (the request is aborted, never left running). No answer, a reset connection or a
 * 5xx throw ProviderUnreachable: the outcome is unknown, and the caller resolves it by
 * asking again, never by assuming a failure. Everything else comes back as it is, for the
 * connector to read.
 */
export class ProviderHttp {
  readonly connector: string;
  readonly baseUrl: string;
  private readonly timeoutMs: number;

  constructor({ connector, baseUrl, timeoutMs }: { connector: string; baseUrl: string; timeoutMs: number }) {
    this.connector = connector;
    this.baseUrl = baseUrl;
    this.timeoutMs = timeoutMs;
  }

  async send(request: ProviderRequest, options: { unknownOn5xx?: boolean } = {}): Promise<ProviderResponse> {
    const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${this.baseUrl}${request.path}`, {
        method: request.method,
        headers,
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'error',
      });
      text = await response.text();
    } catch (err) {
      const cause = err as Error;
      const detail =
        cause.name === 'TimeoutError'
          ? `no answer within ${this.timeoutMs} ms`
          : `connection failed (${cause.cause ? String((cause.cause as Error).message ?? cause.cause) : cause.message})`;
      throw new ProviderUnreachable(this.connector, request.operation, detail);
    }
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (response.status >= 500 && options.unknownOn5xx !== false) {
      throw new ProviderUnreachable(this.connector, request.operation, `HTTP ${response.status} ${text.slice(0, 200)}`);
    }
    return { status: response.status, text, json };
  }
}

/**
 * An OAuth-style access token, fetched when first needed and kept until `marginMs` before it
 * expires; concurrent callers share one fetch. `invalidate` drops it (the provider said 401).
 */
export class TokenCache {
  private token: { value: string; expiresAt: number } | null = null;
  private inFlight: Promise<string> | null = null;

  private readonly fetchToken: () => Promise<{ value: string; expiresInS: number }>;
  private readonly now: () => number;
  private readonly marginMs: number;

  constructor({
    fetchToken,
    now = Date.now,
    marginMs = 60_000,
  }: {
    fetchToken: () => Promise<{ value: string; expiresInS: number }>;
    now?: () => number;
    marginMs?: number;
  }) {
    this.fetchToken = fetchToken;
    this.now = now;
    this.marginMs = marginMs;
  }

  async get(): Promise<string> {
    if (this.token && this.now() < this.token.expiresAt) return this.token.value;
    this.inFlight ??= this.fetchToken()
      .then(({ value, expiresInS }) => {
        // Kept until shortly before it expires (at most half its life early, for short-lived tokens).
        const margin = Math.min(this.marginMs, (expiresInS * 1000) / 2);
        this.token = { value, expiresAt: this.now() + expiresInS * 1000 - margin };
        return value;
      })
      .finally(() => (this.inFlight = null));
    return this.inFlight;
  }

  invalidate(value: string): void {
    if (this.token?.value === value) this.token = null;
  }

  /**
   * Runs `call` with a token; an answer saying the token is not valid (`rejected`: a 401 by
   * default) drops it and tries once more with a fresh one (nothing was done with a bad token).
   */
  async withToken(call: (token: string) => Promise<ProviderResponse>, rejected = (res: ProviderResponse) => res.status === 401): Promise<ProviderResponse> {
    const token = await this.get();
    const first = await call(token);
    if (!rejected(first)) return first;
    this.invalidate(token);
    return call(await this.get());
  }
}

/** A notification's body as JSON, or undefined when it is not JSON (anyone may send anything). */
export function lenientJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** The dedupe key of a notification: its body's SHA-256 (the same bytes twice are one notification). */
export function bodyDigest(body: string): string {
  return createHash('sha256').update(body).digest('hex');
}

/** NUL and lone surrogates: what a PostgreSQL text or jsonb value cannot hold. */
// eslint-disable-next-line no-control-regex -- NUL is exactly what must go
const UNSTORABLE = /\u0000|\p{Surrogate}/gu;

/** The JSON body's field as a string, if it is one. */
export function field(json: unknown, ...path: string[]): string | null {
  let value: unknown = json;
  for (const key of path) {
    if (!value || typeof value !== 'object') return null;
    value = (value as Record<string, unknown>)[key];
  }
  // Read from a body anyone with a callback address could send: nothing PostgreSQL cannot store (NUL, a lone surrogate).
  if (typeof value === 'string') return value.replace(UNSTORABLE, '');
  if (typeof value === 'number') return String(value);
  return null;
}
