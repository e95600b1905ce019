import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthContext } from '../../modules/auth/access-tokens';
import type { OAuthService } from '../../modules/auth/oauth.service';
import { AppError } from '../../shared/errors';
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
  });
}

export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw AppError.invalidToken();
  return request.auth;
}
