import { countryCodeType, defineRecord, enumOf, id, restView, text, timestamp, uuid } from '../../shared/record-definition';
import { KYC_STATUSES, overallKycStatus } from '../kyc/kyc.state';
import type { Customer } from './customer.entity';

/*
 * The customer, defined once (docs/design.md, "One definition per record"): each public field
 * with its type, nullability, description and wire name. The REST record and its serializer
 * (customer.serializer.ts) and the GraphQL Customer type come from it.
 */
export const CUSTOMER = defineRecord<Customer>()({
  name: 'Customer',
  fields: {
    customerUuid: {
      type: uuid,
      from: 'id',
      description: 'Assigned by the service at enrollment; Transaction.customerUuid and Kyc.customerUuid name it the same way.',
    },
    uuid: { type: id, from: 'id', rest: false, graphql: { deprecationReason: 'Use customerUuid: the same value, named as on every other type.' } },
    // Irregular: the spec's REST name is `customerid`.
    customerId: { type: text, from: 'customerid', wire: 'customerid', description: "The merchant's own identifier (customerid)." },
    firstName: { type: text },
    lastName: { type: text },
    email: { type: text },
    phoneNumber: { type: text },
    dialCode: { type: text },
    countryCode: { type: countryCodeType },
    dateOfBirth: { type: text, nullable: true, description: 'YYYY-MM-DD' },
    kycStatus: { type: enumOf(KYC_STATUSES, 'KycStatus') },
    overallKycStatus: { type: enumOf(KYC_STATUSES, 'KycStatus'), read: (c) => overallKycStatus(c.kycStatus) },
    createdAt: { type: timestamp },
    updatedAt: { type: timestamp },
  },
});

export const CustomerRest = restView(CUSTOMER, {
  id: 'Customer',
  fields: [
    'customerUuid',
    'customerId',
    'firstName',
    'lastName',
    'email',
    'phoneNumber',
    'dialCode',
    'countryCode',
    'dateOfBirth',
    'kycStatus',
    'overallKycStatus',
    'createdAt',
    'updatedAt',
  ],
});
