import type { FastifyRequest } from 'fastify';
import { actorOf, type AuditActor, type AuditContext, type RequestOrigin } from '../../modules/audit/audit-log';
import { authOf } from './auth';

/** Where a request came from, for the audit log (the address as the proxy settings say: TRUST_PROXY). */
export function originOf(request: FastifyRequest): RequestOrigin {
  return { ip: request.ip, userAgent: request.headers['user-agent'] ?? null };
}

/** Who is acting (the bearer token's key or person) and from where: what a service that records an action takes. */
export function auditOf(request: FastifyRequest): AuditContext {
  return { actor: actorOf(authOf(request)), origin: originOf(request) };
}

/** The operator through the admin API (its key names no one), and from where. */
export function operatorAuditOf(request: FastifyRequest): AuditContext {
  const actor: AuditActor = { type: 'operator', label: 'admin_api' };
  return { actor, origin: originOf(request) };
}
