import { z } from 'zod';
import { nullableTimestamp, record, timestamp, type RecordOf } from '../../shared/records';
import type { MerchantCredentials } from './merchant.service';
import { eventTypesOf, type Merchant } from './merchant.entity';
import { SELECTABLE_EVENT_TYPES } from '../outbox/event-types';

export const MerchantRecord = record(
  'Merchant',
  z.object({
    merchant_id: z.uuid(),
    name: z.string(),
    client_id: z.string(),
    webhook_url: z.string().nullable(),
    webhook_event_types: z
      .array(z.enum(SELECTABLE_EVENT_TYPES))
      .describe('The event types recorded and sent to you (the default until you choose: final statuses and KYC decisions)'),
    webhook_secret_overlap_until: nullableTimestamp.describe(
      'Until when a rotated-out webhook secret still signs deliveries beside the current one; null when none does',
    ),
    created_at: timestamp,
    updated_at: timestamp,
  }),
  'The merchant as REST shows it: never a secret.',
);

export const MerchantCredentialsRecord = record(
  'MerchantCredentials',
  MerchantRecord.extend({ client_secret: z.string(), webhook_secret: z.string() }),
  'A new merchant with its secrets, shown only in this answer.',
);

export const AdminMerchantRecord = record(
  'AdminMerchant',
  MerchantRecord.extend({ disabled_at: nullableTimestamp.describe('When it was disabled; null while it is enabled') }),
  'The merchant as the operator API shows it: the merchant’s record, and whether it is disabled.',
);

/**
 * The merchant as REST shows it: never a secret, never a hash. `overlapUntil`: until when a
 * rotated-out webhook secret still signs (MerchantService.webhookSecretOverlapUntil).
 * Operators also see whether it is disabled.
 */
export function serializeMerchant(merchant: Merchant, overlapUntil: Date | null): RecordOf<typeof MerchantRecord>;
export function serializeMerchant(merchant: Merchant, overlapUntil: Date | null, view: { admin: true }): RecordOf<typeof AdminMerchantRecord>;
export function serializeMerchant(
  merchant: Merchant,
  overlapUntil: Date | null,
  { admin = false } = {},
): RecordOf<typeof MerchantRecord> | RecordOf<typeof AdminMerchantRecord> {
  return {
    merchant_id: merchant.id,
    name: merchant.name,
    client_id: merchant.clientId,
    webhook_url: merchant.webhookUrl,
    webhook_event_types: eventTypesOf(merchant),
    webhook_secret_overlap_until: overlapUntil?.toISOString() ?? null,
    ...(admin ? { disabled_at: merchant.disabledAt?.toISOString() ?? null } : {}),
    created_at: merchant.createdAt.toISOString(),
    updated_at: merchant.updatedAt.toISOString(),
  };
}

/** Shown once, at creation (admin API and CLI alike). */
export function serializeCredentials(created: MerchantCredentials): RecordOf<typeof MerchantCredentialsRecord> {
  return {
    ...serializeMerchant(created.merchant, null),
    client_secret: created.clientSecret,
    webhook_secret: created.webhookSecret,
  };
}
