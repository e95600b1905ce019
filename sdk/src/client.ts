import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { IDEMPOTENT_OPERATIONS } from './generated/idempotent-operations';
import type { paths } from './generated/openapi';
import { ApiError, unwrap } from './errors';
import { IDEMPOTENCY_KEY, retryingFetch, retryPolicy, sleep, type RetryOptions } from './retries';
import { TokenManager } from './tokens';

export interface PaymentsClientOptions {
  /** The service's address, e.g. `http://127.0.0.1:4000` (the paths start with /v1). */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** The fetch to send with (default: the global fetch). */
  fetch?: (request: Request) => Promise<Response>;
  /**
   * When a request is sent again (429, 5xx, a lost connection: see retryDelayMs): `maxAttempts` (3, the
   * first included), `baseDelayMs` (500) and `maxDelayMs` (30 000).
   */
  retry?: RetryOptions;
  /** Renew the access token this many seconds before it expires (default 60). */
  refreshMarginSeconds?: number;
  /** This machine's clock, in ms (default Date.now). */
  now?: () => number;
  /** Waits `ms` before a retry (default a timer); tests give their own. */
  sleep?: (ms: number) => Promise<void>;
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

/**
 * Gives every request to an operation that takes an Idempotency-Key (the creates: customers, KYC,
 * collections, transfers, payments, refunds…) a new UUID, unless the caller set one. The key is set
 * on the request before it is sent, so every retry (retryingFetch sends copies of it) carries the same key.
 */
const idempotencyKeys: Middleware = {
  onRequest({ request, schemaPath }) {
    if (IDEMPOTENT_OPERATIONS.has(`${request.method} ${schemaPath}`) && !request.headers.has(IDEMPOTENCY_KEY)) {
      request.headers.set(IDEMPOTENCY_KEY, globalThis.crypto.randomUUID());
    }
  },
};

/**
 * `Authorization: Bearer` on every request; a 401 renews the token once (shared by concurrent requests)
 * and sends the request again, once: an unread copy taken before it left, same body, same key.
 */
function bearerAuth(tokens: TokenManager, send: (request: Request) => Promise<Response>): Middleware {
  const copies = new Map<string, Request>();
  return {
    async onRequest({ request, schemaPath, id }) {
      // The OAuth endpoints authenticate the client, not a token (a Bearer there is refused).
      if (schemaPath.startsWith('/v1/oauth/')) return;
      request.headers.set('Authorization', `Bearer ${await tokens.accessToken()}`);
      copies.set(id, request.clone());
    },
    // No answer even after the retries: the error goes to the caller as it is.
    onError({ id }) {
      copies.delete(id);
    },
    async onResponse({ id, response }) {
      const copy = copies.get(id);
      copies.delete(id);
      if (!copy || response.status !== 401) return undefined;
      const rejected = copy.headers.get('Authorization')?.replace(/^Bearer /, '') ?? '';
      copy.headers.set('Authorization', `Bearer ${await tokens.renewAfterRejection(rejected)}`);
      await response.body?.cancel().catch(() => undefined);
      return send(copy);
    },
  };
}

/**
 * The SDK's REST client: `client.POST('/v1/crossborder/global-collection', { body })` and so on, every
 * path, body and answer typed from the service's OpenAPI document. Tokens, Idempotency-Keys and retries
 * (retries.ts) are handled; `unwrap(result)` gives the envelope's `data` or throws an ApiError.
 */
export function createPaymentsClient(options: PaymentsClientOptions): PaymentsClient {
  const now = options.now ?? Date.now;
  // Every request, the token's included, is sent again as the retry policy says.
  const send = retryingFetch(options.fetch ?? ((request: Request) => globalThis.fetch(request)), retryPolicy(options.retry), {
    now,
    sleep: options.sleep ?? sleep,
    random: Math.random,
  });
  const tokens = new TokenManager(createClient<paths>({ baseUrl: options.baseUrl, fetch: send }), {
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    refreshMarginMs: (options.refreshMarginSeconds ?? 60) * 1000,
    now,
  });
  const client = createClient<paths>({ baseUrl: options.baseUrl, fetch: send });
  client.use(idempotencyKeys, bearerAuth(tokens, send));
  return Object.assign(client, { getAccessToken: () => tokens.accessToken() }, resources(client));
}
