import type { FastifyReply } from 'fastify';
import { AppError } from '../../shared/errors';
import { rateLimitHeaders, type Budget, type RateLimits } from '../rate-limits';

/**
 * Counts one REST request against a budget and puts the RateLimit-* headers on the
 * reply; a spent budget throws RATE_LIMITED, which the error handler answers with
 * 429, Retry-After and the same headers.
 */
export async function limitRequest(rateLimits: RateLimits, budget: Budget, key: string, reply: FastifyReply): Promise<void> {
  const state = await rateLimits.consume(budget, key);
  if (state) reply.headers(rateLimitHeaders(state, false));
}

/**
 * Runs a token attempt (a grant, a revocation, a dashboard sign-in or refresh): a failed one (wrong
 * credentials, a bad token) is counted against the address and the client_id it named, and answered
 * 429 instead once the client_id's ceiling is spent (rate-limits.ts).
 */
export async function countedTokenAttempt<T>(rateLimits: RateLimits, clientId: string | undefined, ip: string, attempt: () => Promise<T>): Promise<T> {
  try {
    return await attempt();
  } catch (err) {
    if (err instanceof AppError && (err.code === 'INVALID_CLIENT' || err.code === 'INVALID_TOKEN')) {
      throw (await rateLimits.tokenAttemptFailed(clientId, ip)) ?? err;
    }
    throw err;
  }
}
