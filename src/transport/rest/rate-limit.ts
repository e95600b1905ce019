import type { FastifyReply } from 'fastify';
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
