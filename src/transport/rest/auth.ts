import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthContext } from '../../modules/auth/access-tokens';
import type { OAuthService } from '../../modules/auth/oauth.service';
import { AppError } from '../../shared/errors';

declare module 'fastify' {
  interface FastifyRequest {
    auth?: AuthContext;
  }
}

/** Guards every route registered in this scope with the bearer token, before the body is read. */
export function requireBearer(scope: FastifyInstance, oauth: OAuthService): void {
  scope.addHook('onRequest', async (request) => {
    request.auth = await oauth.authenticate(request.headers.authorization);
  });
}

export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw AppError.invalidToken();
  return request.auth;
}
