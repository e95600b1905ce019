import type { FastifyInstance } from 'fastify';
import type { SessionGrant } from '../../modules/accounts/sessions.service';
import type { SignInService } from '../../modules/accounts/sign-in.service';
import type { OAuthService, TokenGrant } from '../../modules/auth/oauth.service';
import { AppError } from '../../shared/errors';
import type { PublicAddress } from '../../shared/public-address';
import type { RateLimits } from '../rate-limits';
import { sendSuccess } from '../rest/envelope';
import { fromRest } from '../rest/field-names';
import { countedTokenAttempt } from '../rest/rate-limit';
import { DASHBOARD_SESSION_PATH, dashboardScope, originOf, sessionCookie } from './dashboard-scope';

/** The services this file calls (the composition root passes them). */
type UsedServices = { oauth: OAuthService; signIn: SignInService; publicAddress: PublicAddress };

const BEARER = /^Bearer\s+([A-Za-z0-9._~+/-]{1,4000}=*)\s*$/i;

/** What the page keeps in memory: the access token alone (the refresh token never leaves the cookie). */
const accessAnswer = (grant: TokenGrant) => ({ access_token: grant.accessToken, token_type: grant.tokenType, expires_in: grant.expiresIn });

/** A new session's answer: the access token, where and as what it signed in, and whether 2FA must be enrolled first. */
export const sessionAnswer = (grant: SessionGrant) => ({
  ...accessAnswer(grant),
  merchant_id: grant.merchantId,
  role: grant.role,
  ...(grant.enrolmentOnly ? { two_factor_required: true } : {}),
});

/** The body as an object, or 400 naming what it must hold. */
export function jsonObject(body: unknown, holds: string): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw AppError.invalidRequest(`The body must be a JSON object with ${holds}`);
  return body as Record<string, unknown>;
}

/**
 * The key a sign-in's failures are counted under (with the address, and alone as a looser ceiling that
 * answers 429 but never refuses the right password): the email as typed, known or not, so both count alike.
 */
const accountKey = (email: unknown) => (typeof email === 'string' ? `user:${email.trim().toLowerCase().slice(0, 254)}` : undefined);

/**
 * The merchant dashboard's session (docs/dashboard.md; docs/design.md → The dashboard):
 * sign-in with a person's email and password (and 2FA code), refresh, sign-out, switching merchant,
 * over the OAuth service's grants (a session is a token family of the person's). The
 * refresh token lives in an HttpOnly, SameSite=Strict cookie: over https `__Host-dashboard_session`
 * (Secure, Path=/), over plain http `dashboard_session` with Path=/dashboard/session. A request
 * with two session cookies is refused. The access token is answered in the body and kept in the
 * page's memory. Dashboard-internal: not in the OpenAPI document (an integration uses /v1/oauth/*).
 * Rate limited as /v1/oauth/* is: every call by address; failed sign-ins by address and email and by
 * address (no stranger can lock an account out: the email's own ceiling answers 429 to failures only).
 */
export async function dashboardSessionRoutes(app: FastifyInstance, { services, rateLimits }: { services: UsedServices; rateLimits: RateLimits }) {
  const { setSession, clearSession, refuseDuplicates, readSession, https } = dashboardScope(app, services.publicAddress, rateLimits);

  app.post(DASHBOARD_SESSION_PATH, async (request, reply) => {
    readSession(request, reply);
    const body = jsonObject(request.body, 'email and password');
    const account = accountKey(body.email);
    await rateLimits.assertTokenAttemptAllowed(account, request.ip);
    const grant = await countedTokenAttempt(rateLimits, account, request.ip, () => services.signIn.signIn(fromRest(body), originOf(request)));
    setSession(request, reply, grant.refreshToken);
    return sendSuccess(reply, 'Signed in', sessionAnswer(grant));
  });

  // The cookie's session moved to another of the person's merchants: a new session there, the old one ended.
  app.post(`${DASHBOARD_SESSION_PATH}/switch`, async (request, reply) => {
    const session = readSession(request, reply);
    if (session.kind !== 'one') {
      clearSession(request, reply);
      throw AppError.invalidToken('No dashboard session: sign in');
    }
    const { merchant_id: merchantId } = jsonObject(request.body, 'merchant_id');
    const grant = await services.signIn.switchMerchant(session.refreshToken, merchantId as string, originOf(request));
    setSession(request, reply, grant.refreshToken);
    return sendSuccess(reply, 'Switched merchant', sessionAnswer(grant));
  });

  app.post(`${DASHBOARD_SESSION_PATH}/refresh`, async (request, reply) => {
    const session = readSession(request, reply);
    if (session.kind !== 'one') {
      clearSession(request, reply);
      throw AppError.invalidToken('No dashboard session: sign in');
    }
    await rateLimits.assertTokenAttemptAllowed(undefined, request.ip);
    let grant: TokenGrant;
    try {
      grant = await countedTokenAttempt(rateLimits, undefined, request.ip, () =>
        services.oauth.issueToken({ grantType: 'refresh_token', refreshToken: session.refreshToken }),
      );
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
  // With two session cookies neither is trusted (one may be an attacker's): the page's own access token is still
  // signed out, and the answer is the 401 every session route gives them.
  app.post(`${DASHBOARD_SESSION_PATH}/sign-out`, async (request, reply) => {
    const accessToken = BEARER.exec(request.headers.authorization ?? '')?.[1];
    const session = sessionCookie(request, https(request));
    if (session.kind === 'many') {
      if (accessToken) await services.oauth.revokeToken({ token: accessToken });
      refuseDuplicates(request, reply);
    }
    for (const token of [session.kind === 'one' ? session.refreshToken : undefined, accessToken]) if (token) await services.oauth.revokeToken({ token });
    clearSession(request, reply);
    return sendSuccess(reply, 'Signed out', {});
  });
}
