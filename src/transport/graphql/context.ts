import type { OAuthService } from '../../modules/auth/oauth.service';
import type { SubscriptionService } from '../../modules/subscriptions/subscription.service';
import type { AuthContext } from '../../modules/auth/access-tokens';
import { actorOf, type AuditContext, type RequestOrigin } from '../../modules/audit/audit-log';
import { AppError } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import { toGraphQLError } from './errors';

/** The services this file calls (the composition root passes them). */
type UsedServices = { oauth: OAuthService };

/** What every resolver receives, over HTTP and over the socket alike. */
export interface GraphQLContext {
  auth: AuthContext;
  /** Where the operation came from (the audit log's address and user agent). */
  origin?: RequestOrigin;
  /** Only over the WebSocket: the streams subscriptions read from. */
  subscriptions?: SubscriptionService;
  /** Only over the WebSocket: the operation's logger, carrying its request id (HTTP requests have Fastify's). */
  log?: Logger;
  reqId?: string;
  /** Only over the WebSocket: operations with the same key get the same result for an event (executed once: ws-server.ts). */
  shareKey?: string;
}

/** Authenticates the bearer token once per operation; a failure answers 401 INVALID_TOKEN. */
export async function authenticatedContext(services: UsedServices, authorization: unknown, origin?: RequestOrigin): Promise<GraphQLContext> {
  try {
    return { auth: await services.oauth.authenticate(typeof authorization === 'string' ? authorization : undefined), ...(origin ? { origin } : {}) };
  } catch (err) {
    throw toGraphQLError(err instanceof AppError ? err : AppError.invalidToken());
  }
}

/** Who is acting (the token's key or person) and from where: what a service that records an action takes. */
export function auditOf(ctx: GraphQLContext): AuditContext {
  return { actor: actorOf(ctx.auth), origin: ctx.origin };
}
