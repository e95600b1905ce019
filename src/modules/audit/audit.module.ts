import { defineModule, type ModuleInfra } from '../module';
import { AuditLog } from './audit-log';

/** The append-only audit log (docs/access.md): written by every module and door that changes something security-relevant. */
export const auditModule = defineModule({
  name: 'audit',
  create: ({ sql, clock }: Pick<ModuleInfra, 'sql' | 'clock'>, _deps: object) => ({ services: { audit: new AuditLog({ sql, clock }) } }),
});
