import type { KycSubmissionDetail, KycSubmissionSummary } from './kyc-review.inputs';

/** A submission in the review queue (admin API and CLI alike): the identity number masked to its last 4 characters. */
export function serializeKycSubmission(s: KycSubmissionSummary) {
  return {
    submission_id: s.id,
    merchant_id: s.merchantId,
    customer_uuid: s.customerUuid,
    status: s.status,
    id_type: s.idType,
    id_country: s.idCountry,
    id_number_last4: s.idNumberLast4,
    submitted_at: s.submittedAt.toISOString(),
    reviewed_at: s.reviewedAt?.toISOString() ?? null,
    reviewed_by: s.reviewedBy,
    rejection_reason: s.rejectionReason,
  };
}

/** One submission opened for review: what the operator compares, the identity number in full. */
export function serializeKycSubmissionDetail(s: KycSubmissionDetail) {
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
