import type { EntityManager } from '@mikro-orm/postgresql';
import { actorOf, type AuditAction, type AuditLog, type RequestOrigin } from '../../audit/audit-log';
import type { AuthContext } from '../../auth/access-tokens';

/**
 * The audit entries of payout destinations, written in the transaction of the step they record. They show the
 * account masked (bank and last four), never its whole number.
 */
export class DestinationAudit {
  constructor(private readonly audit: AuditLog) {}

  added(em: EntityManager, auth: AuthContext, origin: RequestOrigin | undefined, id: string, after: Record<string, unknown>) {
    return this.byPerson(em, 'payout_destination.added', auth, origin, id, after);
  }

  approvalRequested(em: EntityManager, auth: AuthContext, origin: RequestOrigin | undefined, id: string, after: Record<string, unknown>) {
    return this.byPerson(em, 'payout_destination.approval_requested', auth, origin, id, after);
  }

  approved(em: EntityManager, auth: AuthContext, origin: RequestOrigin | undefined, id: string, after: Record<string, unknown>) {
    return this.byPerson(em, 'payout_destination.approved', auth, origin, id, after);
  }

  canceled(em: EntityManager, auth: AuthContext, origin: RequestOrigin | undefined, id: string, before: Record<string, unknown>) {
    return this.audit.recordOn(em, {
      merchantId: auth.merchantId,
      actor: actorOf(auth),
      action: 'payout_destination.canceled',
      target: { type: 'payout_destination', id },
      origin,
      before,
    });
  }

  /** A lone member's change that took effect at the end of its cooling-off: nobody acted, the service did. */
  activated(em: EntityManager, merchantId: string, id: string, after: Record<string, unknown>) {
    return this.audit.recordOn(em, {
      merchantId,
      actor: { type: 'system', label: 'cooling-off ended' },
      action: 'payout_destination.activated',
      target: { type: 'payout_destination', id },
      after,
    });
  }

  private byPerson(em: EntityManager, action: AuditAction, auth: AuthContext, origin: RequestOrigin | undefined, id: string, after: Record<string, unknown>) {
    return this.audit.recordOn(em, { merchantId: auth.merchantId, actor: actorOf(auth), action, target: { type: 'payout_destination', id }, origin, after });
  }
}
