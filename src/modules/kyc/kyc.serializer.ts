import type { KycRecord } from './kyc.service';

/**
 * The KYC record as REST returns it. Webhook events carry the same JSON, so a
 * receiver sees exactly what the status endpoint shows.
 */
export function serializeKycRecord(record: KycRecord) {
  return {
    customer_uuid: record.customerUuid,
    kyc_status: record.kycStatus,
    overall_kyc_status: record.overallKycStatus,
    submitted_at: record.submittedAt?.toISOString() ?? null,
    reviewed_at: record.reviewedAt?.toISOString() ?? null,
    rejection_reason: record.rejectionReason,
  };
}
