import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { IDEMPOTENT_OPERATIONS } from './generated/idempotent-operations';
import type { paths } from './generated/openapi';
import { ApiError, unwrap } from './errors';
import { TokenManager } from './tokens';

export interface PaymentsClientOptions {
  /** The service's address, e.g. `http://127.0.0.1:4000` (the paths start with /v1). */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** The fetch to send with (default: the global fetch). */
  fetch?: (request: Request) => Promise<Response>;
  /** How often a request that got no answer (connection lost) is sent again, when that is safe (default 2). */
  maxNetworkRetries?: number;
  /** Renew the access token this many seconds before it expires (default 60). */
  refreshMarginSeconds?: number;
  /** This machine's clock, in ms (default Date.now). */
  now?: () => number;
}

type Body<P extends keyof paths, M extends 'post'> = paths[P][M] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
type Data<P extends keyof paths, M extends 'get' | 'post'> = paths[P][M] extends { responses: { 200: { content: { 'application/json': { data: infer D } } } } }
  ? D
  : never;
type Page<P extends keyof paths> = paths[P]['get'] extends { responses: { 200: { content: { 'application/json': infer E } } } }
  ? Pick<E & { data: unknown; meta: unknown }, 'data' | 'meta'>
  : never;
/** Per-request options of the resource methods: your own Idempotency-Key (one is made for each create otherwise). */
export interface RequestOptions {
  idempotencyKey?: string;
}

/** The hosted checkout (docs/checkout.md): take a payment without touching card data. */
export interface CheckoutResource {
  sessions: {
    /** `POST /v1/checkout/sessions`: send the customer to the answer's `url`; complete the order on `checkout.session.completed`. */
    create(body: Body<'/v1/checkout/sessions', 'post'>, options?: RequestOptions): Promise<Data<'/v1/checkout/sessions', 'post'>>;
    /** `GET /v1/checkout/sessions/{id}`. */
    retrieve(id: string): Promise<Data<'/v1/checkout/sessions/{id}', 'get'>>;
  };
}

/** Payment links: a page at /pay/{slug} (and its QR code) that opens a checkout session on each visit. */
export interface PaymentLinksResource {
  create(body: Body<'/v1/payment-links', 'post'>, options?: RequestOptions): Promise<Data<'/v1/payment-links', 'post'>>;
  retrieve(id: string): Promise<Data<'/v1/payment-links/{id}', 'get'>>;
  /** The newest first, a page at a time: `after` is the previous page's `meta.next_cursor`. */
  list(query?: { limit?: number; after?: string }): Promise<Page<'/v1/payment-links'>>;
  deactivate(id: string): Promise<Data<'/v1/payment-links/{id}/deactivate', 'post'>>;
}

/** The typed REST client (openapi-fetch over the service's OpenAPI document), authenticated. */
export type PaymentsClient = Client<paths> & {
  /** A current access token, for the GraphQL door (`Authorization: Bearer …`, graphql-ws `connection_init`). */
  getAccessToken(): Promise<string>;
  checkout: CheckoutResource;
  paymentLinks: PaymentLinksResource;
};

/** Your Idempotency-Key on a create, when you give one (the middleware makes one otherwise). */
const keyed = (options?: RequestOptions) => (options?.idempotencyKey ? { header: { [IDEMPOTENCY_KEY]: options.idempotencyKey } } : {});

/** The resource methods: each one call of the typed client, its envelope's `data` unwrapped (ApiError otherwise). */
function resources(client: Client<paths>): Pick<PaymentsClient, 'checkout' | 'paymentLinks'> {
  return {
    checkout: {
      sessions: {
        create: async (body, options) => unwrap(await client.POST('/v1/checkout/sessions', { body, params: keyed(options) as never })),
        retrieve: async (id) => unwrap(await client.GET('/v1/checkout/sessions/{id}', { params: { path: { id } } })),
      },
    },
    paymentLinks: {
      create: async (body, options) => unwrap(await client.POST('/v1/payment-links', { body, params: keyed(options) as never })),
      retrieve: async (id) => unwrap(await client.GET('/v1/payment-links/{id}', { params: { path: { id } } })),
      list: async (query = {}) => {
        const result = await client.GET('/v1/payment-links', { params: { query } });
        if (result.data === undefined) throw ApiError.from(result.response, result.error);
        return { data: result.data.data, meta: result.data.meta } as Page<'/v1/payment-links'>;
      },
      deactivate: async (id) => unwrap(await client.POST('/v1/payment-links/{id}/deactivate', { params: { path: { id } } })),
    },
  };
}

export const IDEMPOTENCY_KEY = 'Idempotency-Key';

/**
 * Gives every request to an operation that takes an Idempotency-Key (the creates: customers, KYC,
 * collections, transfers, payments, refunds…) a new UUID, unless the caller set one. The key is set
 * on the request before the bearer middleware copies it, so every retry sends the same key.
 */
const idempotencyKeys: Middleware = {
  onRequest({ request, schemaPath }) {
    if (IDEMPOTENT_OPERATIONS.has(`${request.method} ${schemaPath}`) && !request.headers.has(IDEMPOTENCY_KEY)) {
      request.headers.set(IDEMPOTENCY_KEY, globalThis.crypto.randomUUID());
    }
  },
};

/** Safe to send twice: the methods that are idempotent by definition, and a create with its key. */
const safeToRepeat = (request: Request) => ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'].includes(request.method) || request.headers.has(IDEMPOTENCY_KEY);

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `Authorization: Bearer` on every request, and the retries:
 * - a 401 renews the token once (shared by concurrent requests) and sends the request again, once;
 * - a request that got no answer is sent again (up to maxNetworkRetries) when safeToRepeat;
 * - a create whose key is still being executed (409 with Retry-After) is sent again after the wait.
 * Each retry sends an unread copy of the request taken before it left: same body, same key.
 */
function bearerAuth(tokens: TokenManager, fetch: (request: Request) => Promise<Response>, maxNetworkRetries: number): Middleware {
  const copies = new Map<string, Request>();

  /** Sends a copy of `request`; a lost answer is sent again, up to `retries` times, when that is safe. */
  async function send(request: Request, retries = maxNetworkRetries): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await fetch(request.clone());
      } catch (err) {
        if (attempt >= retries || !safeToRepeat(request)) throw err;
        await pause(100 * 2 ** attempt);
      }
    }
  }

  return {
    async onRequest({ request, schemaPath, id }) {
      // The OAuth endpoints authenticate the client, not a token (a Bearer there is refused).
      if (schemaPath.startsWith('/v1/oauth/')) return;
      request.headers.set('Authorization', `Bearer ${await tokens.accessToken()}`);
      copies.set(id, request.clone());
    },
    async onError({ id, error }) {
      const copy = copies.get(id);
      if (!copy || maxNetworkRetries === 0 || !safeToRepeat(copy)) {
        copies.delete(id);
        return error instanceof Error ? error : new Error(String(error));
      }
      await pause(100);
      try {
        // Answered: onResponse runs next, and may still renew the token.
        return await send(copy, maxNetworkRetries - 1);
      } catch (err) {
        copies.delete(id);
        return err instanceof Error ? err : new Error(String(err));
      }
    },
    async onResponse({ id, response }) {
      const copy = copies.get(id);
      copies.delete(id);
      if (!copy) return undefined;
      let answer = response;
      for (let waits = 0; answer.status === 409 && copy.headers.has(IDEMPOTENCY_KEY) && waits < maxNetworkRetries; waits++) {
        const retryAfter = Number(answer.headers.get('retry-after'));
        if (!Number.isFinite(retryAfter) || retryAfter <= 0) break;
        await pause(Math.min(retryAfter, 5) * 1000);
        answer = await send(copy);
      }
      if (answer.status === 401) {
        const rejected = copy.headers.get('Authorization')?.replace(/^Bearer /, '') ?? '';
        copy.headers.set('Authorization', `Bearer ${await tokens.renewAfterRejection(rejected)}`);
        answer = await send(copy);
      }
      return answer === response ? undefined : answer;
    },
  };
}

/**
 * The SDK's REST client: `client.POST('/v1/crossborder/global-collection', { body })` and so on, every
 * path, body and answer typed from the service's OpenAPI document. Tokens, Idempotency-Keys and retries
 * are handled; `unwrap(result)` gives the envelope's `data` or throws an ApiError.
 */
export function createPaymentsClient(options: PaymentsClientOptions): PaymentsClient {
  const fetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const tokens = new TokenManager(createClient<paths>({ baseUrl: options.baseUrl, fetch }), {
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    refreshMarginMs: (options.refreshMarginSeconds ?? 60) * 1000,
    now: options.now ?? Date.now,
  });
  const client = createClient<paths>({ baseUrl: options.baseUrl, fetch });
  client.use(idempotencyKeys, bearerAuth(tokens, fetch, options.maxNetworkRetries ?? 2));
  return Object.assign(client, { getAccessToken: () => tokens.accessToken() }, resources(client));
}
