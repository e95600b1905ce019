import { defineRecord, enumOf, restView, text, timestamp, uuid } from '../../shared/record-definition';
import type { KycRecord } from './kyc.service';
import { KYC_STATUSES } from './kyc.state';

/*
 * A customer's KYC record, defined once (docs/design.md, "One definition per record"): the
 * REST record and its serializer (kyc.serializer.ts; webhook events carry the same JSON) and
 * the GraphQL Kyc type come from it.
 */
export const KYC = defineRecord<KycRecord>()({
  name: 'Kyc',
  description: "A customer's KYC status and latest review.",
  fields: {
    customerUuid: { type: uuid },
    kycStatus: { type: enumOf(KYC_STATUSES, 'KycStatus') },
    overallKycStatus: {
      type: enumOf(KYC_STATUSES, 'KycStatus'),
      rest: { description: 'Equals kyc_status; only `approved` allows transfers and collections' },
    },
    submittedAt: { type: timestamp, nullable: true },
    reviewedAt: { type: timestamp, nullable: true },
    rejectionReason: { type: text, nullable: true },
  },
});

export const KycRest = restView(KYC, {
  id: 'KycRecord',
  fields: ['customerUuid', 'kycStatus', 'overallKycStatus', 'submittedAt', 'reviewedAt', 'rejectionReason'],
});
