import { csvLine, quoted, textCell } from '../../shared/csv';
import { readerOf, wireName, type FieldSpec } from '../../shared/record-definition';
import { chunksOf } from '../../shared/streaming';
import { AUDIT_ENTRY, type AuditRecord } from './audit.definition';

type Field = keyof typeof AUDIT_ENTRY.fields;

/** A public field's column: its REST name, its value written by `write`. */
function column(name: Field, write: (value: never) => string): { header: string; cell: (entry: AuditRecord) => string } {
  const spec = AUDIT_ENTRY.fields[name] as FieldSpec<AuditRecord>;
  const read = readerOf(name, spec);
  return { header: wireName(name, spec as FieldSpec<never>), cell: (entry) => write(read(entry) as never) };
}

const iso = (d: Date) => d.toISOString();
/** Before and after as their JSON text, guarded like any text from outside (a reason, a URL). */
const json = (value: Record<string, unknown> | null) => textCell(value === null ? null : JSON.stringify(value));

/**
 * The columns of GET /v1/audit-logs/export.csv: every field of the entry, in the REST record's order.
 * What the service wrote (times, actions, types, roles) is quoted only if it must be; what came from
 * outside (labels, ids, addresses, user agents, values) is guarded against formula injection.
 */
const AUDIT_CSV = [
  column('createdAt', iso),
  column('action', quoted),
  column('actorType', quoted),
  column('actorId', textCell),
  column('actorLabel', textCell),
  column('role', quoted),
  column('targetType', quoted),
  column('targetId', textCell),
  column('ip', textCell),
  column('userAgent', textCell),
  column('before', json),
  column('after', json),
];

export const AUDIT_CSV_COLUMNS: readonly string[] = AUDIT_CSV.map((c) => c.header);

/** The whole CSV, a slice of lines at a time as the batches arrive: the header, then every entry. */
export async function* auditLogCsv(batches: AsyncIterable<AuditRecord[]>): AsyncGenerator<string> {
  yield csvLine([...AUDIT_CSV_COLUMNS]);
  for await (const batch of batches) {
    for (const chunk of chunksOf(batch)) yield chunk.map((entry) => csvLine(AUDIT_CSV.map((c) => c.cell(entry)))).join('');
  }
}
