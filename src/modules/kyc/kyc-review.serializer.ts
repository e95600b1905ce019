import { z } from 'zod';
import { countryCode, nullableTimestamp, record, timestamp, type RecordOf } from '../../shared/records';
import type { KycSubmissionDetail, KycSubmissionSummary } from './kyc-review.inputs';
import { ID_TYPES } from './id-documents';

export const KycSubmissionRecord = record(
  'KycSubmission',
  z.object({
    submission_id: z.uuid(),
    merchant_id: z.uuid(),
    customer_uuid: z.uuid(),
    status: z.enum(['pending', 'approved', 'rejected']),
    id_type: z.enum(ID_TYPES),
    id_country: countryCode,
    id_number_last4: z.string().describe('The identity number’s last 4 characters'),
    submitted_at: timestamp,
    reviewed_at: nullableTimestamp,
    reviewed_by: z
      .string()
      .nullable()
      .describe('Who decided: `reviewer:<name>`, `admin_api[:<operator>]` or `cli[:<operator>]` (the operator’s name is self-declared); null while pending'),
    rejection_reason: z.string().nullable(),
  }),
  'A KYC submission in the review queue: the identity number masked to its last 4 characters.',
);

export const KycSubmissionDetailRecord = record(
  'KycSubmissionDetail',
  KycSubmissionRecord.extend({
    id_number: z.string(),
    date_of_birth: z.string(),
    address: z.object({ line1: z.string(), city: z.string(), country_code: countryCode, postal_code: z.string().optional() }),
    customer: z.object({
      customerid: z.string(),
      first_name: z.string(),
      last_name: z.string(),
      date_of_birth: z.string().nullable(),
      country_code: countryCode,
    }),
  }),
  'One submission opened for review: what the operator compares, the identity number in full.',
);

/** A submission in the review queue (admin API and CLI alike): the identity number masked to its last 4 characters. */
export function serializeKycSubmission(s: KycSubmissionSummary): RecordOf<typeof KycSubmissionRecord> {
  return {
    submission_id: s.id,
    merchant_id: s.merchantId,
    customer_uuid: s.customerUuid,
    status: s.status,
    id_type: s.idType as RecordOf<typeof KycSubmissionRecord>['id_type'],
    id_country: s.idCountry,
    id_number_last4: s.idNumberLast4,
    submitted_at: s.submittedAt.toISOString(),
    reviewed_at: s.reviewedAt?.toISOString() ?? null,
    reviewed_by: s.reviewedBy,
    rejection_reason: s.rejectionReason,
  };
}

/** One submission opened for review: what the operator compares, the identity number in full. */
export function serializeKycSubmissionDetail(s: KycSubmissionDetail): RecordOf<typeof KycSubmissionDetailRecord> {
  return {
    ...serializeKycSubmission(s),
    id_number: s.idNumber,
    date_of_birth: s.dateOfBirth,
    address: s.address,
    customer: {
      customerid: s.customer.customerid,
      first_name: s.customer.firstName,
      last_name: s.customer.lastName,
      date_of_birth: s.customer.dateOfBirth,
      country_code: s.customer.countryCode,
    },
  };
}
