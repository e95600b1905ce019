import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PublicAddress } from '../shared/public-address';

/** Two years, this host and its subdomains (issue 34): what browsers' preload lists ask for, without the preload flag. */
export const HSTS = 'max-age=63072000; includeSubDomains';

/**
 * Whether browsers reach this service over https. The service speaks plain HTTP itself; TLS ends at a
 * proxy in front of it, which says so by `X-Forwarded-Proto: https`, believed only from the proxies
 * TRUST_PROXY names (Fastify's `request.protocol`), or the operator says so with an https PUBLIC_BASE_URL.
 */
export function servedOverHttps(request: FastifyRequest, publicAddress: PublicAddress): boolean {
  return request.protocol === 'https' || configuredOrigin(publicAddress)?.startsWith('https:') === true;
}

/** PUBLIC_BASE_URL's origin, or the listening address's; none before the service listens. */
export function configuredOrigin(publicAddress: PublicAddress): string | undefined {
  try {
    return publicAddress.origin;
  } catch {
    return undefined;
  }
}

/**
 * Strict-Transport-Security on every answer served over https (README → Running behind a proxy): a
 * browser that has seen it never again reaches this host, or its subdomains, over plain http, so no
 * network in between can strip TLS or plant a cookie over http. Never over plain http (browsers ignore it there).
 */
export function registerHsts(app: FastifyInstance, publicAddress: PublicAddress): void {
  app.addHook('onSend', async (request, reply) => {
    if (servedOverHttps(request, publicAddress)) reply.header('strict-transport-security', HSTS);
  });
}
