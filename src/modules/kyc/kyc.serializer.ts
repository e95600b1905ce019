import { z } from 'zod';
import { nullableTimestamp, record, type RecordOf } from '../../shared/records';
import type { KycRecord } from './kyc.service';
import { KYC_STATUSES } from './kyc.state';

export const KycRecordSchema = record(
  'KycRecord',
  z.object({
    customer_uuid: z.uuid(),
    kyc_status: z.enum(KYC_STATUSES),
    overall_kyc_status: z.enum(KYC_STATUSES).describe('Equals kyc_status; only `approved` allows transfers and collections'),
    submitted_at: nullableTimestamp,
    reviewed_at: nullableTimestamp,
    rejection_reason: z.string().nullable(),
  }),
);

/**
 * The KYC record as REST returns it. Webhook events carry the same JSON, so a
 * receiver sees exactly what the status endpoint shows.
 */
export function serializeKycRecord(record: KycRecord): RecordOf<typeof KycRecordSchema> {
  return {
    customer_uuid: record.customerUuid,
    kyc_status: record.kycStatus,
    overall_kyc_status: record.overallKycStatus,
    submitted_at: record.submittedAt?.toISOString() ?? null,
    reviewed_at: record.reviewedAt?.toISOString() ?? null,
    rejection_reason: record.rejectionReason,
  };
}
