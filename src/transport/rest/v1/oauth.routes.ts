import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../../../container';
import type { ClientCredentials } from '../../../modules/auth/oauth.service';
import { AppError } from '../../../shared/errors';
import type { RateLimits } from '../../rate-limits';
import { sendSuccess } from '../envelope';
import { limitRequest } from '../rate-limit';
import { fromRest } from '../field-names';

/** RFC 6749 §2.3.1: HTTP Basic with form-urlencoded client_id and client_secret. */
function basicClient(request: FastifyRequest): ClientCredentials | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) throw AppError.invalidClient();
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw AppError.invalidClient();
  try {
    const clientId = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
    const clientSecret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
    return { clientId, clientSecret };
  } catch {
    throw AppError.invalidClient();
  }
}

/** The client_id an attempt names (body or Basic), for its budget; unreadable → none (the grant refuses it anyway). */
function claimedClientId(request: FastifyRequest): string | undefined {
  const body = request.body as Record<string, unknown> | undefined;
  if (typeof body?.client_id === 'string') return body.client_id.slice(0, 256);
  try {
    return basicClient(request)?.clientId.slice(0, 256);
  } catch {
    return undefined;
  }
}

export async function oauthRoutes(app: FastifyInstance, { services, rateLimits }: { services: Services; rateLimits: RateLimits }) {
  // OAuth clients commonly send form bodies; this scope, and only it, accepts them.
  await app.register(formbody, { bodyLimit: 16 * 1024 });
  // Every attempt counts by address, before the body is read. Failures count by (client_id, address), by
  // address and by client_id (rate-limits.ts): guessing stays slow, and a stranger who knows a client_id
  // cannot lock its merchant out, because only the guesser's address is refused.
  app.addHook('onRequest', async (request, reply) => limitRequest(rateLimits, 'tokenIp', request.ip, reply));
  app.addHook('preHandler', async (request) => rateLimits.assertTokenAttemptAllowed(claimedClientId(request), request.ip));
  /** Runs an attempt; a failed one (wrong credentials, a bad token) is counted, and answered 429 once the client_id's ceiling is spent. */
  const counted = async <T>(request: FastifyRequest, attempt: () => Promise<T>): Promise<T> => {
    try {
      return await attempt();
    } catch (err) {
      if (err instanceof AppError && (err.code === 'INVALID_CLIENT' || err.code === 'INVALID_TOKEN')) {
        throw (await rateLimits.tokenAttemptFailed(claimedClientId(request), request.ip)) ?? err;
      }
      throw err;
    }
  };
  // Token responses, successful or not, must never be cached (RFC 6749 §5.1).
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  });

  app.post('/oauth/token', async (request, reply) => {
    const grant = await counted(request, () => services.oauth.issueToken(fromRest(request.body), basicClient(request)));
    return sendSuccess(reply, 'Access token issued', {
      access_token: grant.accessToken,
      token_type: grant.tokenType,
      expires_in: grant.expiresIn,
      refresh_token: grant.refreshToken,
    });
  });

  app.post('/oauth/revoke', async (request, reply) => {
    await counted(request, () => services.oauth.revokeToken(fromRest(request.body), basicClient(request)));
    return sendSuccess(reply, 'Token revoked', {});
  });
}
