import { defineModule, type ModuleInfra } from '../module';
import { AuditLog } from './audit-log';
import { AuditLogQueries } from './audit.queries';

/**
 * The append-only audit log (docs/access.md): written by every module and door that changes something
 * security-relevant (AuditLog), read by a merchant's owners and admins (AuditLogQueries).
 */
export const auditModule = defineModule({
  name: 'audit',
  create: ({ sql, clock }: Pick<ModuleInfra, 'sql' | 'clock'>, _deps: object) => ({
    services: { audit: new AuditLog({ sql, clock }), auditQueries: new AuditLogQueries({ sql }) },
  }),
});
