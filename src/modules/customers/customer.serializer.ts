import { z } from 'zod';
import { countryCode, record, timestamp, type RecordOf } from '../../shared/records';
import { KYC_STATUSES, overallKycStatus } from '../kyc/kyc.state';
import type { Customer } from './customer.entity';

export const CustomerRecord = record(
  'Customer',
  z.object({
    customer_uuid: z.uuid(),
    customerid: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    phone_number: z.string(),
    dial_code: z.string(),
    country_code: countryCode,
    date_of_birth: z.string().nullable(),
    kyc_status: z.enum(KYC_STATUSES),
    overall_kyc_status: z.enum(KYC_STATUSES),
    created_at: timestamp,
    updated_at: timestamp,
  }),
);

export function serializeCustomer(customer: Customer): RecordOf<typeof CustomerRecord> {
  return {
    customer_uuid: customer.id,
    customerid: customer.customerid,
    first_name: customer.firstName,
    last_name: customer.lastName,
    email: customer.email,
    phone_number: customer.phoneNumber,
    dial_code: customer.dialCode,
    country_code: customer.countryCode,
    date_of_birth: customer.dateOfBirth,
    kyc_status: customer.kycStatus,
    overall_kyc_status: overallKycStatus(customer.kycStatus),
    created_at: customer.createdAt.toISOString(),
    updated_at: customer.updatedAt.toISOString(),
  };
}
