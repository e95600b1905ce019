import { z } from 'zod';
import { countryCode, currency, nullableTimestamp, record, timestamp, type RecordOf } from '../../../shared/records';
import { CHANNEL_TYPES } from '../../reference/reference.types';
import { DESTINATION_STATUSES } from './destination.rules';
import type { PayoutDestination } from './destination.view';

const Person = z.object({ id: z.uuid(), email: z.string().nullable() });

export const PayoutDestinationRecord = record(
  'PayoutDestination',
  z.object({
    id: z.string().describe('`pdest_` and 24 characters'),
    currency,
    account_type: z.enum(CHANNEL_TYPES),
    country_code: countryCode,
    network_id: z.string().describe('The bank or wallet network (GET /v1/crossborder/networks)'),
    institution: z.string().describe('The bank’s or wallet network’s name'),
    masked: z.string().describe('The account for display, e.g. `Guaranty Trust Bank ••••0031`: never the whole number'),
    account_name: z.string().describe('The holder’s name, as the provider resolved it'),
    name_checked: z.boolean().describe('Whether the holder’s name was checked against the business name (false: there was none to compare)'),
    status: z
      .enum(DESTINATION_STATUSES)
      .describe('active: payouts go here; pending_approval: a change waiting for a second member (or its cooling-off); replaced; canceled'),
    effective_at: nullableTimestamp.describe('When it took effect; a lone member’s change: when its 24-hour cooling-off ends'),
    created_at: timestamp,
    activated_at: nullableTimestamp,
    replaced_at: nullableTimestamp,
    canceled_at: nullableTimestamp,
    created_by: Person.describe('Who added it (the maker)'),
    approved_by: Person.nullable().describe('Who approved the change (the checker); null for a first destination or a cooled-off change'),
    canceled_by: Person.nullable(),
  }),
  'Where payouts in a currency go: a bank account or wallet, name-checked, changed by maker-checker.',
);

export function serializePayoutDestination(d: PayoutDestination): RecordOf<typeof PayoutDestinationRecord> {
  const iso = (at: Date | null) => at?.toISOString() ?? null;
  return {
    id: d.id,
    currency: d.currency,
    account_type: d.accountType,
    country_code: d.countryCode,
    network_id: d.networkId,
    institution: d.institution,
    masked: d.masked,
    account_name: d.accountName,
    name_checked: d.nameChecked,
    status: d.status,
    effective_at: iso(d.effectiveAt),
    created_at: d.createdAt.toISOString(),
    activated_at: iso(d.activatedAt),
    replaced_at: iso(d.replacedAt),
    canceled_at: iso(d.canceledAt),
    created_by: d.createdBy,
    approved_by: d.approvedBy,
    canceled_by: d.canceledBy,
  };
}
