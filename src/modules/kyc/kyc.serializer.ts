import type { RecordOf } from '../../shared/records';
import { KycRest } from './kyc.definition';
import type { KycRecord } from './kyc.service';

/** The KYC record as REST answers it: a view of its definition (kyc.definition.ts). */
export const KycRecordSchema = KycRest.registered();

/**
 * The KYC record as REST returns it. Webhook events carry the same JSON, so a
 * receiver sees exactly what the status endpoint shows.
 */
export const serializeKycRecord: (record: KycRecord) => RecordOf<typeof KycRecordSchema> = KycRest.serialize;
