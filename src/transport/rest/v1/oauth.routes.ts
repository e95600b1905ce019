import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { OAuthService, ClientCredentials } from '../../../modules/auth/oauth.service';
import { AppError } from '../../../shared/errors';
import type { RateLimits } from '../../rate-limits';
import { serializeTokenGrant, TokenGrantRecord } from '../../../modules/auth/oauth.serializer';
import { revokeRequestSchema, tokenRequestSchema } from '../../../modules/auth/oauth.service';
import { fromRest } from '../field-names';
import { EmptyAnswer } from '../openapi/components';
import { operation } from '../openapi/operation';
import { countedTokenAttempt, limitRequest } from '../rate-limit';

/** The services this file calls (the composition root passes them). */
type UsedServices = { oauth: OAuthService };

const issueToken = operation({
  operationId: 'issueToken',
  tag: 'OAuth',
  access: 'client',
  summary: 'Issue an access token',
  description:
    'Client credentials grant (client_id and client_secret in the body, or HTTP Basic) or refresh_token grant. ' +
    'The access token lasts 3600 s. A refresh token is single use: presenting a used one revokes its whole family. JSON or form body. Never cached.',
  body: {
    name: 'TokenRequest',
    schema: tokenRequestSchema,
    form: true,
    example: { grant_type: 'client_credentials', client_id: 'ci_3f9a…', client_secret: 'sk_9b1e…' },
  },
  fields: { grant_type: { description: '`client_credentials` or `refresh_token`' } },
  ok: { message: 'Access token issued', data: TokenGrantRecord, noStore: true },
  errors: {
    INVALID_REQUEST: 'grant_type missing or unsupported; refresh_token missing; client authenticated twice (Basic and body)',
    INVALID_CLIENT: 'wrong client credentials',
    INVALID_TOKEN: 'refresh token unknown, expired, revoked or already used',
  },
});

const revokeToken = operation({
  operationId: 'revokeToken',
  tag: 'OAuth',
  access: 'client',
  summary: 'Revoke a token and its family',
  description:
    'RFC 7009: revokes a refresh or access token’s whole family. Answers 200 whether or not the token was known. If the client authenticates, only its own tokens are revoked.',
  body: { name: 'RevokeRequest', schema: revokeRequestSchema, form: true, example: { token: 'rt_5c0f…' } },
  ok: { message: 'Token revoked', data: EmptyAnswer, noStore: true },
  errors: { INVALID_CLIENT: 'client credentials given, and wrong' },
});

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

export async function oauthRoutes(app: FastifyInstance, { services, rateLimits }: { services: UsedServices; rateLimits: RateLimits }) {
  // OAuth clients commonly send form bodies; this scope, and only it, accepts them.
  await app.register(formbody, { bodyLimit: 16 * 1024 });
  // Every attempt counts by address, before the body is read. Failures count by (client_id, address), by
  // address and by client_id (rate-limits.ts): guessing stays slow, and a stranger who knows a client_id
  // cannot lock its merchant out, because only the guesser's address is refused.
  app.addHook('onRequest', async (request, reply) => limitRequest(rateLimits, 'tokenIp', request.ip, reply));
  app.addHook('preHandler', async (request) => rateLimits.assertTokenAttemptAllowed(claimedClientId(request), request.ip));
  /** Runs an attempt; a failed one (wrong credentials, a bad token) is counted, and answered 429 once the client_id's ceiling is spent. */
  const counted = <T>(request: FastifyRequest, attempt: () => Promise<T>): Promise<T> =>
    countedTokenAttempt(rateLimits, claimedClientId(request), request.ip, attempt);
  // Token responses, successful or not, must never be cached (RFC 6749 §5.1).
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  });

  app.post('/oauth/token', issueToken.route, async (request, reply) => {
    const grant = await counted(request, () => services.oauth.issueToken(fromRest(request.body), basicClient(request)));
    return issueToken.send(reply, serializeTokenGrant(grant));
  });

  app.post('/oauth/revoke', revokeToken.route, async (request, reply) => {
    await counted(request, () => services.oauth.revokeToken(fromRest(request.body), basicClient(request)));
    return revokeToken.send(reply, {});
  });
}
