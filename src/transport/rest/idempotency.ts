import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { IdempotencyClaim, IdempotencyStore } from '../../modules/idempotency/idempotency.store';
import { AppError, type ErrorDetail } from '../../shared/errors';
import { authOf } from './auth';

/** The request header (Stripe's name, CONTRACT §1) and the one that marks a replayed answer. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/**
 * The POSTs that create something and accept Idempotency-Key, as "METHOD pattern" under /v1.
 * `omit`: body fields left out of the request's fingerprint because they are never kept, in
 * any form (a card's CVC, PCI DSS 3.3.1.2): a retry that changes only those is the same request.
 * The OAuth and operator POSTs are left out: the header means nothing there and is ignored.
 */
export const IDEMPOTENT_ROUTES: Readonly<Record<string, { omit?: readonly string[] }>> = {
  'POST /v1/customer/enroll': {},
  'POST /v1/customer/:uuid/kyc': {},
  'POST /v1/crossborder/global-collection': {},
  'POST /v1/crossborder/global-transfer': {},
  'POST /v1/payments/initiate': { omit: ['card.cvc'] },
  'POST /v1/checkout/sessions': {},
  'POST /v1/payment-links': {},
  'POST /v1/webhooks/events/:id/resend': {},
  'POST /v1/sandbox/transactions/:reference/simulate': {},
  'POST /v1/refunds': {},
  'POST /v1/sandbox/balance/top-up': {},
  // A manual payout takes no reference of the merchant's: without the key, a retried request would pay out twice.
  'POST /v1/payouts': {},
  'POST /v1/balance/funding': {},
};

/**
 * POSTs whose answer holds a secret shown once. Replaying that answer would show the secret
 * twice, and ignoring the header would let a retry silently create a second secret, so the
 * header is refused (400) there.
 */
export const SECRET_ROUTES: Readonly<Record<string, string>> = {
  'POST /v1/webhooks/secret/rotate': 'its answer holds the new webhook secret',
  'POST /v1/admin/merchants': 'its answer holds the new merchant’s client and webhook secrets',
};

/** What the OpenAPI document says about the header on one route (OpenAPI path form, `{param}`). */
export function idempotencyOfRoute(method: string, openApiPath: string): { accepted: true } | { refused: string } | undefined {
  const route = `${method.toUpperCase()} ${openApiPath.replace(/\{(\w+)\}/g, ':$1')}`;
  if (IDEMPOTENT_ROUTES[route]) return { accepted: true };
  const why = SECRET_ROUTES[route];
  return why ? { refused: why } : undefined;
}

/** Printable ASCII (space included, which HTTP trims at the ends), 1 to 255 characters. */
const KEY = /^[\x20-\x7e]{1,255}$/;
const HEADER_NAME = IDEMPOTENCY_KEY_HEADER.toLowerCase();

const keyProblem = (issue: string, message: string) => {
  const detail: ErrorDetail = { field: IDEMPOTENCY_KEY_HEADER, issue };
  return AppError.invalidRequest(message, [detail]);
};

/** The request's key, or undefined when it sent none. Several headers, or a malformed key: 400 naming the header. */
function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const value = request.headers[HEADER_NAME];
  if (value === undefined) return undefined;
  // Node joins repeated headers with ", ": count them in the raw list (only when the header is there at all).
  let seen = 0;
  for (let i = 0; i < request.raw.rawHeaders.length; i += 2) if (request.raw.rawHeaders[i]!.toLowerCase() === HEADER_NAME) seen++;
  if (Array.isArray(value) || seen > 1) throw keyProblem('must be sent once', `Send one ${IDEMPOTENCY_KEY_HEADER} header, not several`);
  if (!KEY.test(value)) {
    throw keyProblem('must be 1 to 255 printable ASCII characters', `${IDEMPOTENCY_KEY_HEADER} must be 1 to 255 printable ASCII characters`);
  }
  return value;
}

const toArray = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/**
 * Idempotency-Key on the REST door (CONTRACT §1, with the semantics of Stripe's): the same key and
 * request from the same merchant within 24 h replays the first answer (status and body) with
 * `Idempotent-Replayed: true`; the key with another request is 400; while the first request
 * executes, another with its key is 409 INVALID_STATE with `Retry-After: 1`.
 *
 * Attached when a listed route is registered (onRoute), so other routes carry no hook at all,
 * and a listed route without the header pays one header lookup. The claim is made last before
 * the handler (after the token, the rate limit and the body's parsing: an answer from those is
 * never stored), and the answer is stored in onSend, before it leaves, so a retry that arrives
 * after the answer always finds it. Must be called on the /v1 instance before its routes.
 */
export function registerIdempotency(app: FastifyInstance, store: IdempotencyStore): void {
  const claims = new WeakMap<FastifyRequest, IdempotencyClaim>();

  app.addHook('onRoute', (route: RouteOptions) => {
    if (typeof route.method !== 'string') return;
    const id = `${route.method} ${route.url}`;
    const accepted = IDEMPOTENT_ROUTES[id];
    const secret = SECRET_ROUTES[id];
    if (accepted) {
      const pattern = route.url;
      const omit = accepted.omit ?? [];
      route.preHandler = [
        ...toArray(route.preHandler),
        async function claimIdempotencyKey(request: FastifyRequest, reply: FastifyReply) {
          const key = idempotencyKeyOf(request);
          if (key === undefined) return;
          const found = await store.claim(
            authOf(request).merchantId,
            key,
            { method: request.method, route: pattern, params: request.params, body: request.body },
            omit,
          );
          switch (found.outcome) {
            case 'claimed':
              claims.set(request, found.claim);
              return;
            case 'replay':
              return reply.code(found.statusCode).header(REPLAYED_HEADER, 'true').type('application/json; charset=utf-8').send(found.body);
            case 'mismatch':
              throw keyProblem(
                'was used with a different request',
                `This ${IDEMPOTENCY_KEY_HEADER} was already used with a different request (method, path or body) in the last 24 hours; use a new key for a new request`,
              );
            case 'in_progress':
              reply.header('retry-after', '1');
              throw new AppError('INVALID_STATE', `A request with this ${IDEMPOTENCY_KEY_HEADER} is still in progress; retry after it has completed`);
            case 'unreadable':
              throw keyProblem(
                'cannot be replayed',
                `The answer to the first request with this ${IDEMPOTENCY_KEY_HEADER} can no longer be read; use a new key`,
              );
          }
        },
      ] as RouteOptions['preHandler'];
      route.onSend = [
        ...toArray(route.onSend),
        async function storeIdempotentAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
          const claim = claims.get(request);
          if (!claim) return payload;
          claims.delete(request);
          try {
            if (typeof payload === 'string') await store.complete(claim, reply.statusCode, payload);
            else await store.release(claim);
          } catch (err) {
            // The answer still goes out; the key stays claimed until the lock timeout, then a retry runs again.
            request.log.error({ err }, 'the idempotent answer could not be stored');
          }
          return payload;
        },
      ] as RouteOptions['onSend'];
    } else if (secret) {
      route.preHandler = [
        ...toArray(route.preHandler),
        async function refuseIdempotencyKey(request: FastifyRequest) {
          if (request.headers[HEADER_NAME] === undefined) return;
          throw keyProblem(
            'is not accepted on this route',
            `${IDEMPOTENCY_KEY_HEADER} is not accepted on ${id}: ${secret}, and a secret is shown only once, never replayed; send the request without the header`,
          );
        },
      ] as RouteOptions['preHandler'];
    }
  });
}
