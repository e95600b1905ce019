import type { RecordOf } from '../../shared/records';
import { AuditLogEntryRest, type AuditRecord } from './audit.definition';

/** The audit log's entry as REST answers it: a view of its definition (audit.definition.ts). */
export const AuditLogEntryRecord = AuditLogEntryRest.registered();

export const serializeAuditEntry: (entry: AuditRecord) => RecordOf<typeof AuditLogEntryRecord> = AuditLogEntryRest.serialize;
