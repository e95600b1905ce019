import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { OAuthService, TokenGrant } from '../../modules/auth/oauth.service';
import { AppError } from '../../shared/errors';
import type { PublicAddress } from '../../shared/public-address';
import type { RateLimits } from '../rate-limits';
import { sendSuccess } from '../rest/envelope';
import { countedTokenAttempt, limitRequest } from '../rest/rate-limit';

/** The services this file calls (the composition root passes them). */
type UsedServices = { oauth: OAuthService; publicAddress: PublicAddress };

/** Where the dashboard's session routes live, and the only path its cookie is sent to. */
export const DASHBOARD_SESSION_PATH = '/dashboard/session';
/** The cookie holding the session's refresh token (HttpOnly: no script reads it). */
export const DASHBOARD_SESSION_COOKIE = 'dashboard_session';
/** The header every call must carry: a cross-site page cannot send it without a CORS preflight, which this service never grants. */
export const DASHBOARD_SESSION_HEADER = 'x-requested-with';

/** A refresh token as the service issues them (randomToken('rt')); anything else in the cookie is no session. */
const REFRESH_TOKEN = /^rt_[A-Za-z0-9_-]{16,128}$/;
const BEARER = /^Bearer\s+([A-Za-z0-9._~+/-]{1,4000}=*)\s*$/i;

/** The session cookie's value, when the request carries one of the right shape. */
function sessionCookie(request: FastifyRequest): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === DASHBOARD_SESSION_COOKIE) {
      const value = part.slice(eq + 1).trim();
      return REFRESH_TOKEN.test(value) ? value : undefined;
    }
  }
  return undefined;
}

/**
 * The request came from a page of this service, or from no page at all (a script, curl): a cross-site
 * page's request carries its own Origin, or Sec-Fetch-Site other than same-origin. Under the dashboard's
 * `Referrer-Policy: no-referrer` Chromium sends `Origin: null` on a same-origin POST; Sec-Fetch-Site,
 * which no page can set, then says where it came from.
 */
function fromThisOrigin(request: FastifyRequest, publicAddress: PublicAddress): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return false;
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  if (origin === 'null') return site === 'same-origin';
  return origin === `${request.protocol}://${request.host}` || origin === publicOrigin(publicAddress);
}

/** PUBLIC_BASE_URL's origin, or the listening address's; none before the service listens. */
function publicOrigin(publicAddress: PublicAddress): string | undefined {
  try {
    return publicAddress.origin;
  } catch {
    return undefined;
  }
}

/** What the page keeps in memory: the access token alone (the refresh token never leaves the cookie). */
const accessAnswer = (grant: TokenGrant) => ({ access_token: grant.accessToken, token_type: grant.tokenType, expires_in: grant.expiresIn });

/**
 * The merchant dashboard's session (README → Merchant dashboard; docs/design.md → The dashboard):
 * sign-in with the client credentials, refresh, sign-out, over the OAuth service's grants. The
 * refresh token lives in an HttpOnly, SameSite=Strict cookie sent only to these routes (Secure when
 * the page is served over https); the access token is answered in the body and kept in the page's
 * memory. Dashboard-internal: not in the OpenAPI document (an integration uses /v1/oauth/*). Rate
 * limited as /v1/oauth/* is: every call by address, failed ones by address and client_id.
 */
export async function dashboardSessionRoutes(app: FastifyInstance, { services, rateLimits }: { services: UsedServices; rateLimits: RateLimits }) {
  app.addHook('onRequest', async (request, reply) => limitRequest(rateLimits, 'tokenIp', request.ip, reply));
  // CSRF: SameSite=Strict keeps the cookie off cross-site requests; the custom header and the origin check
  // refuse a cross-site page's request (a forged sign-in, a sign-out) before anything is read.
  app.addHook('onRequest', async (request) => {
    if (!fromThisOrigin(request, services.publicAddress))
      throw AppError.invalidRequest('Cross-site request refused: the dashboard’s session is for its own pages');
    if (!request.headers[DASHBOARD_SESSION_HEADER]) throw AppError.invalidRequest('The X-Requested-With header is required');
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  });

  const secure = (request: FastifyRequest) => request.protocol === 'https' || publicOrigin(services.publicAddress)?.startsWith('https:') === true;
  // A browser-session cookie (no Max-Age): it outlives reloads and is shared by the tabs, and ends with the browser; the refresh token itself lasts 30 days.
  const setSession = (request: FastifyRequest, reply: FastifyReply, refreshToken: string) =>
    reply.header(
      'set-cookie',
      `${DASHBOARD_SESSION_COOKIE}=${refreshToken}; Path=${DASHBOARD_SESSION_PATH}; HttpOnly; SameSite=Strict${secure(request) ? '; Secure' : ''}`,
    );
  const clearSession = (request: FastifyRequest, reply: FastifyReply) =>
    reply.header(
      'set-cookie',
      `${DASHBOARD_SESSION_COOKIE}=; Path=${DASHBOARD_SESSION_PATH}; Max-Age=0; HttpOnly; SameSite=Strict${secure(request) ? '; Secure' : ''}`,
    );

  app.post(DASHBOARD_SESSION_PATH, async (request, reply) => {
    const body = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw AppError.invalidRequest('The body must be a JSON object with client_id and client_secret');
    const { client_id: clientId, client_secret: clientSecret } = body as Record<string, unknown>;
    const claimed = typeof clientId === 'string' ? clientId.slice(0, 256) : undefined;
    await rateLimits.assertTokenAttemptAllowed(claimed, request.ip);
    const grant = await countedTokenAttempt(rateLimits, claimed, request.ip, () =>
      services.oauth.issueToken({ grantType: 'client_credentials', clientId: clientId as string, clientSecret: clientSecret as string }),
    );
    setSession(request, reply, grant.refreshToken);
    return sendSuccess(reply, 'Signed in', accessAnswer(grant));
  });

  app.post(`${DASHBOARD_SESSION_PATH}/refresh`, async (request, reply) => {
    const refreshToken = sessionCookie(request);
    if (!refreshToken) {
      clearSession(request, reply);
      throw AppError.invalidToken('No dashboard session: sign in');
    }
    await rateLimits.assertTokenAttemptAllowed(undefined, request.ip);
    let grant: TokenGrant;
    try {
      grant = await countedTokenAttempt(rateLimits, undefined, request.ip, () => services.oauth.issueToken({ grantType: 'refresh_token', refreshToken }));
    } catch (err) {
      // A refused token stays refused: the browser stops sending it.
      if (err instanceof AppError && err.code === 'INVALID_TOKEN') clearSession(request, reply);
      throw err;
    }
    setSession(request, reply, grant.refreshToken);
    return sendSuccess(reply, 'Session refreshed', accessAnswer(grant));
  });

  // Revokes the cookie's family and the family of the access token the page sends (another tab may have
  // signed in since, putting a new family in the cookie), then clears the cookie. 200 whether or not either was known.
  app.post(`${DASHBOARD_SESSION_PATH}/sign-out`, async (request, reply) => {
    const refreshToken = sessionCookie(request);
    const accessToken = BEARER.exec(request.headers.authorization ?? '')?.[1];
    for (const token of [refreshToken, accessToken]) if (token) await services.oauth.revokeToken({ token });
    clearSession(request, reply);
    return sendSuccess(reply, 'Signed out', {});
  });
}
