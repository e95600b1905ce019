import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { Logger } from '../shared/logger';
import type { PublicAddress } from '../shared/public-address';

/* What the proxy in front of the service tells it (TRUST_PROXY, PUBLIC_BASE_URL): the scheme browsers use, and the client's address. */

/** Two years, this host and its subdomains (issue 34): what browsers' preload lists ask for, without the preload flag. */
const HSTS = 'max-age=63072000; includeSubDomains';

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
 * Strict-Transport-Security on every answer served over https (docs/operations.md → Configuration, PUBLIC_BASE_URL and TRUST_PROXY): a
 * browser that has seen it never again reaches this host, or its subdomains, over plain http, so no
 * network in between can strip TLS or plant a cookie over http. Never over plain http (browsers ignore it there).
 */
export function registerHsts(app: FastifyInstance, publicAddress: PublicAddress): void {
  app.addHook('onSend', async (request, reply) => {
    if (servedOverHttps(request, publicAddress)) reply.header('strict-transport-security', HSTS);
  });
}

/**
 * Behind a load balancer without TRUST_PROXY every client has the balancer's address, so the
 * per-address budgets are shared by all of them: 60 failed token attempts a minute, from anyone,
 * refuse every merchant's tokens (issue 34). The first request carrying X-Forwarded-For while
 * TRUST_PROXY is unset logs a warning saying what to set: once per process, never per request.
 */
export function warnOnUntrustedForwarding(app: FastifyInstance, trustProxy: Config['trustProxy'], logger: Logger): void {
  if (trustProxy !== false) return;
  let warned = false;
  app.addHook('onRequest', (request, _reply, done) => {
    if (!warned && request.headers['x-forwarded-for'] !== undefined) {
      warned = true;
      logger.warn(
        { peer: request.ip },
        'a request arrived with X-Forwarded-For but TRUST_PROXY is not set: the per-address rate limits see the proxy’s address for every client, ' +
          'so a few clients’ failures refuse everyone behind it. Set TRUST_PROXY to the number of proxies in front of the service (e.g. 1) ' +
          'or their addresses/CIDRs; if no proxy is in front, a client sent the header itself and this can be ignored (logged once)',
      );
    }
    done();
  });
}
