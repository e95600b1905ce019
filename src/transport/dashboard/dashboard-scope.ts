import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RequestOrigin } from '../../modules/audit/audit-log';
import { AppError } from '../../shared/errors';
import type { PublicAddress } from '../../shared/public-address';
import { configuredOrigin, servedOverHttps } from '../proxy';
import type { RateLimits } from '../rate-limits';
import { limitRequest } from '../rest/rate-limit';

/** Where the dashboard's session routes live, and (over plain http) the only path its cookie is sent to. */
export const DASHBOARD_SESSION_PATH = '/dashboard/session';
/** The cookie holding the session's refresh token over plain http, local development (HttpOnly: no script reads it). */
const DASHBOARD_SESSION_COOKIE = 'dashboard_session';
/**
 * Its name over https. A `__Host-` cookie is Secure, has Path=/ and no Domain, and browsers refuse any
 * other: no related subdomain, and no page over plain http, can set or shadow it. Path=/ sends it to
 * every path of this host; only the session routes read it, each on its exact path.
 */
const DASHBOARD_SESSION_HOST_COOKIE = `__Host-${DASHBOARD_SESSION_COOKIE}`;
/**
 * A cookie the page CAN read, beside the session cookie and with its lifetime: it says only that a
 * session cookie was set (it holds no token, and grants nothing), so that a page loaded without one
 * shows the sign-in form at once instead of asking the refresh route for a session it cannot have (a
 * 401 in the browser's console on every first visit). Path=/dashboard: every page of the dashboard reads it.
 */
const DASHBOARD_SIGNED_IN_COOKIE = 'dashboard_signed_in';
/** The header every call must carry: a cross-site page cannot send it without a CORS preflight, which this service never grants. */
export const DASHBOARD_SESSION_HEADER = 'x-requested-with';

/** A refresh token as the service issues them (randomToken('rt')); anything else in the cookie is no session. */
const REFRESH_TOKEN = /^rt_[A-Za-z0-9_-]{16,128}$/;

/** What the request's cookies say about the session: none, one (its refresh token), or more than one (refused). */
export type SessionCookie = { kind: 'none' } | { kind: 'one'; refreshToken: string } | { kind: 'many' };

/**
 * Reads the raw Cookie header(s) (Node joins repeated ones with `; `), counting every session cookie of
 * either name. A browser sends two when a cookie was planted beside ours (from a related subdomain with
 * Domain=, or with a longer Path, which a browser sends first): a parser keeping the first or the last
 * would let the planted one sign the victim into the attacker's merchant, or end the victim's session,
 * so two are refused. One counts only under the name this scheme uses (`__Host-` over https).
 */
export function sessionCookie(request: FastifyRequest, https: boolean): SessionCookie {
  const found: Array<{ name: string; value: string }> = [];
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    const name = (eq < 0 ? part : part.slice(0, eq)).trim();
    if (name === DASHBOARD_SESSION_COOKIE || name === DASHBOARD_SESSION_HOST_COOKIE) found.push({ name, value: eq < 0 ? '' : part.slice(eq + 1).trim() });
  }
  if (found.length > 1) return { kind: 'many' };
  const [cookie] = found;
  if (!cookie || cookie.name !== (https ? DASHBOARD_SESSION_HOST_COOKIE : DASHBOARD_SESSION_COOKIE) || !REFRESH_TOKEN.test(cookie.value))
    return { kind: 'none' };
  return { kind: 'one', refreshToken: cookie.value };
}

const DUPLICATE_SESSION = 'More than one dashboard session cookie: refused; sign in again';

/**
 * The request came from a page of this service, or from no page at all (a script, curl): a cross-site
 * page's request carries its own Origin, or Sec-Fetch-Site other than same-origin. Under the dashboard's
 * `Referrer-Policy: no-referrer` Chromium sends `Origin: null` on a same-origin POST; Sec-Fetch-Site,
 * which no page can set, then says where it came from.
 */
export function fromThisOrigin(request: FastifyRequest, publicAddress: PublicAddress): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return false;
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  if (origin === 'null') return site === 'same-origin';
  return origin === `${request.protocol}://${request.host}` || origin === configuredOrigin(publicAddress);
}

/** What a request says of where it came from, for the audit log and the sessions list. */
export const originOf = (request: FastifyRequest): RequestOrigin => ({ ip: request.ip, userAgent: request.headers['user-agent'] ?? null });

/** The cookie's handling, shared by the dashboard's unauthenticated routes (dashboardScope). */
export interface DashboardCookies {
  https(request: FastifyRequest): boolean;
  setSession(request: FastifyRequest, reply: FastifyReply, refreshToken: string): void;
  clearSession(request: FastifyRequest, reply: FastifyReply): void;
  /** Two session cookies: 401 INVALID_TOKEN, clearing what this service can clear (a cookie planted with Domain= stays until it expires). */
  refuseDuplicates(request: FastifyRequest, reply: FastifyReply): never;
  /** The request's session cookie; two are refused. */
  readSession(request: FastifyRequest, reply: FastifyReply): SessionCookie;
}

/**
 * The rules every dashboard-internal route keeps (its session routes, sign-up, email and password
 * links), installed on the caller's plugin scope: each route answers its exact path only; every call
 * is counted by address (the token budget); CSRF: the custom header and the origin check refuse a
 * cross-site page's request before anything is read; answers are never cached. Returns the session
 * cookie's handling.
 */
export function dashboardScope(app: FastifyInstance, publicAddress: PublicAddress, rateLimits: RateLimits): DashboardCookies {
  // Over https the cookie is sent to every path of the host (Path=/), so no path scopes it any more: each route
  // answers its exact path only, not another spelling the router would match (`/dashboard/session/%72efresh`).
  app.addHook('onRequest', async (request) => {
    const path = request.url.split('?')[0];
    if (path !== request.routeOptions.url) throw AppError.notFound(`Route ${request.method} ${DASHBOARD_SESSION_PATH}`);
  });
  app.addHook('onRequest', async (request, reply) => limitRequest(rateLimits, 'tokenIp', request.ip, reply));
  // CSRF: SameSite=Strict keeps the cookie off cross-site requests; the custom header and the origin check
  // refuse a cross-site page's request (a forged sign-in, a sign-out) before anything is read.
  app.addHook('onRequest', async (request) => {
    if (!fromThisOrigin(request, publicAddress)) throw AppError.invalidRequest('Cross-site request refused: the dashboard’s session is for its own pages');
    if (!request.headers[DASHBOARD_SESSION_HEADER]) throw AppError.invalidRequest('The X-Requested-With header is required');
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  });

  const https = (request: FastifyRequest) => servedOverHttps(request, publicAddress);
  const attributes = '; HttpOnly; SameSite=Strict';
  const clearedPlain = (secure: boolean) => `${DASHBOARD_SESSION_COOKIE}=; Path=${DASHBOARD_SESSION_PATH}; Max-Age=0${attributes}${secure ? '; Secure' : ''}`;
  // A browser-session cookie (no Max-Age): it outlives reloads and is shared by the tabs, and ends with the browser; the refresh
  // token itself lasts 30 days. Over https the cookie of the plain name, which an earlier version set there, is cleared.
  // The readable hint (DASHBOARD_SIGNED_IN_COOKIE) follows the session cookie's lines, set and cleared with it.
  const hint = (secure: boolean, set: boolean) =>
    `${DASHBOARD_SIGNED_IN_COOKIE}=${set ? '1' : ''}; Path=/dashboard${set ? '' : '; Max-Age=0'}; SameSite=Strict${secure ? '; Secure' : ''}`;
  const setSession = (request: FastifyRequest, reply: FastifyReply, refreshToken: string) =>
    reply.header(
      'set-cookie',
      https(request)
        ? [`${DASHBOARD_SESSION_HOST_COOKIE}=${refreshToken}; Path=/${attributes}; Secure`, clearedPlain(true), hint(true, true)]
        : [`${DASHBOARD_SESSION_COOKIE}=${refreshToken}; Path=${DASHBOARD_SESSION_PATH}${attributes}`, hint(false, true)],
    );
  const clearSession = (request: FastifyRequest, reply: FastifyReply) =>
    reply.header(
      'set-cookie',
      https(request)
        ? [`${DASHBOARD_SESSION_HOST_COOKIE}=; Path=/; Max-Age=0${attributes}; Secure`, clearedPlain(true), hint(true, false)]
        : [clearedPlain(false), hint(false, false)],
    );
  const refuseDuplicates = (request: FastifyRequest, reply: FastifyReply): never => {
    clearSession(request, reply);
    throw AppError.invalidToken(DUPLICATE_SESSION);
  };
  const readSession = (request: FastifyRequest, reply: FastifyReply): SessionCookie => {
    const session = sessionCookie(request, https(request));
    return session.kind === 'many' ? refuseDuplicates(request, reply) : session;
  };
  return { https, setSession, clearSession, refuseDuplicates, readSession };
}
