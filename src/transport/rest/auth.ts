import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthContext } from '../../modules/auth/access-tokens';
import type { OAuthService } from '../../modules/auth/oauth.service';
import { AppError } from '../../shared/errors';
import { assertPermitted } from '../../modules/access/permissions';
import type { RateLimits } from '../rate-limits';
import { limitRequest } from './rate-limit';

declare module 'fastify' {
  interface FastifyRequest {
    auth?: AuthContext;
  }
}

/**
 * Guards every route registered in this scope with the bearer token, before the body is
 * read, and counts the request against its merchant's budget.
 */
export function requireBearer(scope: FastifyInstance, oauth: OAuthService, rateLimits: RateLimits): void {
  scope.addHook('onRequest', async (request, reply) => {
    request.auth = await oauth.authenticate(request.headers.authorization);
    await limitRequest(rateLimits, 'merchant', request.auth.merchantId, reply);
    assertRoutePermitted(request, request.auth);
  });
}

/**
 * The role matrix at the REST door (docs/access.md): the route's declared permission, checked before
 * the body is read. Fails closed: a bearer route that declares none is refused to everyone (a test
 * walks every route, so none ships that way).
 */
function assertRoutePermitted(request: FastifyRequest, auth: AuthContext): void {
  const permission = request.routeOptions.config.operation?.permission;
  if (permission === undefined) throw AppError.forbidden('This route declares no permission: refused (docs/access.md)');
  assertPermitted(auth, permission === 'signed_in' ? 'transactions:read' : permission, permission === 'signed_in');
}

export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw AppError.invalidToken();
  return request.auth;
}
