import { z } from 'zod';
import { toJsonMoney } from '../../shared/money';
import { money, nullableTimestamp, record, timestamp, type RecordOf } from '../../shared/records';
import type { ItemSide, ReconciliationItem, ReconciliationRun } from './reconciliation.records';

const CLASSES = ['matched', 'amount_mismatch', 'status_mismatch', 'missing_at_provider', 'missing_here', 'in_flight', 'balance_mismatch'] as const;

const side = z
  .object({ amount: money.nullable(), currency: z.string().nullable(), status: z.string().nullable() })
  .nullable()
  .describe('One side of the comparison; null when that side has no record');

export const ReconciliationRunRecord = record(
  'ReconciliationRun',
  z.object({
    run_id: z.uuid(),
    connector: z.string(),
    window_from: timestamp,
    window_to: timestamp,
    status: z.enum(['running', 'completed', 'failed']),
    counts: z.object(Object.fromEntries(CLASSES.map((c) => [c, z.number().int()])) as Record<(typeof CLASSES)[number], z.ZodNumber>),
    clearing: z
      .array(
        z.object({
          currency: z.string(),
          ours: z.string(),
          theirs: z.string().nullable(),
          difference: z.string().nullable(),
          ours_moved: z.string().nullable(),
          theirs_moved: z.string().nullable(),
          note: z.string().nullable(),
        }),
      )
      .describe(
        'Per currency: our clearing balance and the provider’s reported balance when the run ran (decimal strings), and how each moved since the previous run',
      ),
    started_at: timestamp,
    finished_at: nullableTimestamp,
    error: z.string().nullable(),
  }),
  'One reconciliation of a connector’s UTC day with the provider’s records (docs/reconciliation.md).',
);

export const ReconciliationItemRecord = record(
  'ReconciliationItem',
  z.object({
    item_id: z.uuid(),
    run_id: z.uuid(),
    class: z.enum(CLASSES),
    transaction_id: z.uuid().nullable(),
    transaction_reference: z.string().nullable(),
    kind: z.string().nullable(),
    provider_reference: z.string().nullable(),
    currency: z.string().nullable().describe('A balance_mismatch’s currency'),
    ours: side,
    theirs: side,
    resolved_at: nullableTimestamp,
    resolved_by: z.string().nullable(),
    resolution_note: z.string().nullable(),
  }),
  'What a run found about one transaction or provider record (or a currency’s balances).',
);

export const ReconciliationRunDetailRecord = record(
  'ReconciliationRunDetail',
  ReconciliationRunRecord.extend({ items: z.array(ReconciliationItemRecord) }),
  'A run with every item it found.',
);

function serializeSide(s: ItemSide | null): RecordOf<typeof ReconciliationItemRecord>['ours'] {
  return s && { amount: s.amount ? toJsonMoney(s.amount) : null, currency: s.currency, status: s.status };
}

export function serializeRun(r: ReconciliationRun): RecordOf<typeof ReconciliationRunRecord> {
  return {
    run_id: r.id,
    connector: r.connector,
    window_from: r.windowFrom.toISOString(),
    window_to: r.windowTo.toISOString(),
    status: r.status,
    counts: r.counts,
    clearing: r.clearing.map((c) => ({
      currency: c.currency,
      ours: c.ours,
      theirs: c.theirs,
      difference: c.difference,
      ours_moved: c.oursMoved,
      theirs_moved: c.theirsMoved,
      note: c.note,
    })),
    started_at: r.startedAt.toISOString(),
    finished_at: r.finishedAt?.toISOString() ?? null,
    error: r.error,
  };
}

export function serializeItem(i: ReconciliationItem): RecordOf<typeof ReconciliationItemRecord> {
  return {
    item_id: i.id,
    run_id: i.runId,
    class: i.class,
    transaction_id: i.transactionId,
    transaction_reference: i.transactionReference,
    kind: i.kind,
    provider_reference: i.providerReference,
    currency: i.currency,
    ours: serializeSide(i.ours),
    theirs: serializeSide(i.theirs),
    resolved_at: i.resolvedAt?.toISOString() ?? null,
    resolved_by: i.resolvedBy,
    resolution_note: i.resolutionNote,
  };
}
