import { randomUUID } from 'node:crypto';

/** Where the service is and the API key to sign in with (`payments-gateway --help`). */
export interface Credentials {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
}

/** An error answer of the service, in its envelope (`{status:"error", message, code}`). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

/** Renew this long before the access token expires. */
const REFRESH_MARGIN_MS = 60_000;

/**
 * The service's REST API for the CLI: OAuth 2.0 client credentials (POST /v1/oauth/token, CONTRACT §3; a new grant
 * shortly before the access token expires, as the SDK's TokenManager renews), and JSON requests in the service's
 * envelope, each POST with its own Idempotency-Key.
 */
export class Api {
  #token: { value: string; expiresAt: number } | undefined;
  #pending: Promise<string> | undefined;

  constructor(readonly credentials: Credentials) {}

  /** A current access token. */
  async accessToken(): Promise<string> {
    if (this.#token && Date.now() < this.#token.expiresAt - REFRESH_MARGIN_MS) return this.#token.value;
    this.#pending ??= this.#signIn().finally(() => (this.#pending = undefined));
    return this.#pending;
  }

  async #signIn(): Promise<string> {
    const { clientId, clientSecret } = this.credentials;
    const requestedAt = Date.now();
    const data = await this.#send<{ access_token: string; expires_in: number }>('POST', '/v1/oauth/token', {
      body: { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret },
    });
    this.#token = { value: data.access_token, expiresAt: requestedAt + data.expires_in * 1000 };
    return data.access_token;
  }

  /** A request with the bearer token: the answer's `data`, or an ApiError. */
  async request<T>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<T> {
    return this.#send<T>(method, path, { body, token: await this.accessToken() });
  }

  async #send<T>(method: string, path: string, { body, token }: { body?: unknown; token?: string }): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (method === 'POST' && token) headers['idempotency-key'] = randomUUID();
    let response: Response;
    try {
      response = await fetch(new URL(path, this.credentials.baseUrl), {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (err) {
      throw new Error(`cannot reach ${this.credentials.baseUrl} (${(err as Error).cause ?? (err as Error).message})`);
    }
    const text = await response.text();
    let answer: { data?: T; message?: string; code?: string } | undefined;
    try {
      answer = JSON.parse(text) as typeof answer;
    } catch {
      // not JSON: reported below
    }
    if (!response.ok || !answer) {
      throw new ApiError(
        response.status,
        answer?.code,
        `${method} ${path}: ${response.status} ${answer?.message ?? (text.slice(0, 200) || response.statusText)}`,
      );
    }
    return answer.data as T;
  }
}
