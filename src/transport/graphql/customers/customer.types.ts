import { Field, ID, InputType, ObjectType, registerEnumType } from 'type-graphql';
import type { Customer } from '../../../modules/customers/customer.entity';
import type { KycRecord } from '../../../modules/kyc/kyc.service';
import { overallKycStatus } from '../../../modules/kyc/kyc.state';
import { Connection } from '../relay';

export enum KycStatusValue {
  PENDING_KYC = 'pending_kyc',
  PENDING = 'pending',
  APPROVED = 'approved',
  REJECTED = 'rejected',
}
registerEnumType(KycStatusValue, { name: 'KycStatus' });

export enum IdTypeValue {
  PASSPORT = 'passport',
  NATIONAL_ID = 'national_id',
  DRIVERS_LICENSE = 'drivers_license',
}
registerEnumType(IdTypeValue, { name: 'IdType' });

@ObjectType('Customer')
export class CustomerType {
  @Field(() => ID, { description: 'customer_uuid, assigned by the service.' })
  uuid!: string;

  @Field(() => String, { description: "The merchant's own identifier (customerid)." })
  customerId!: string;

  @Field(() => String) firstName!: string;
  @Field(() => String) lastName!: string;
  @Field(() => String) email!: string;
  @Field(() => String) phoneNumber!: string;
  @Field(() => String) dialCode!: string;
  @Field(() => String) countryCode!: string;

  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD' })
  dateOfBirth!: string | null;

  @Field(() => KycStatusValue) kycStatus!: KycStatusValue;
  @Field(() => KycStatusValue) overallKycStatus!: KycStatusValue;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date) updatedAt!: Date;

  static from(c: Customer): CustomerType {
    return Object.assign(new CustomerType(), {
      uuid: c.id,
      customerId: c.customerid,
      firstName: c.firstName,
      lastName: c.lastName,
      email: c.email,
      phoneNumber: c.phoneNumber,
      dialCode: c.dialCode,
      countryCode: c.countryCode,
      dateOfBirth: c.dateOfBirth,
      kycStatus: c.kycStatus as KycStatusValue,
      overallKycStatus: overallKycStatus(c.kycStatus) as KycStatusValue,
      createdAt: c.createdAt,
      updatedAt: c.updatedAt,
    });
  }
}

@ObjectType('CustomerConnection')
export class CustomerConnection extends Connection(CustomerType, 'Customer') {}

@ObjectType('Kyc', { description: "A customer's KYC status and latest review." })
export class KycType {
  @Field(() => ID) customerUuid!: string;
  @Field(() => KycStatusValue) kycStatus!: KycStatusValue;
  @Field(() => KycStatusValue) overallKycStatus!: KycStatusValue;
  @Field(() => Date, { nullable: true }) submittedAt!: Date | null;
  @Field(() => Date, { nullable: true }) reviewedAt!: Date | null;
  @Field(() => String, { nullable: true }) rejectionReason!: string | null;

  static from(r: KycRecord): KycType {
    return Object.assign(new KycType(), {
      customerUuid: r.customerUuid,
      kycStatus: r.kycStatus as KycStatusValue,
      overallKycStatus: r.overallKycStatus as KycStatusValue,
      submittedAt: r.submittedAt,
      reviewedAt: r.reviewedAt,
      rejectionReason: r.rejectionReason,
    });
  }
}

@InputType('EnrollCustomerInput')
export class EnrollCustomerInput {
  @Field(() => String) customerId!: string;
  @Field(() => String) firstName!: string;
  @Field(() => String) lastName!: string;
  @Field(() => String) email!: string;
  @Field(() => String, { description: 'Digits only, without the dial code.' }) phoneNumber!: string;
  @Field(() => String, { description: 'e.g. +254; must be the country’s.' }) dialCode!: string;
  @Field(() => String, { description: 'ISO 3166-1 alpha-2, one of the supported countries.' }) countryCode!: string;
  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD' }) dateOfBirth?: string | null;

  /** The service's input uses the spec's field names. */
  toServiceInput() {
    return {
      customerid: this.customerId,
      first_name: this.firstName,
      last_name: this.lastName,
      email: this.email,
      phone_number: this.phoneNumber,
      dial_code: this.dialCode,
      country_code: this.countryCode,
      date_of_birth: this.dateOfBirth ?? undefined,
    };
  }
}

@InputType('KycAddressInput')
export class KycAddressInput {
  @Field(() => String) line1!: string;
  @Field(() => String) city!: string;
  @Field(() => String) countryCode!: string;
  @Field(() => String, { nullable: true }) postalCode?: string | null;
}

@InputType('SubmitKycInput')
export class SubmitKycInput {
  @Field(() => IdTypeValue) idType!: IdTypeValue;
  @Field(() => String) idNumber!: string;
  @Field(() => String, { description: 'ISO 3166-1 alpha-2 of the issuing country.' }) idCountry!: string;
  @Field(() => String, { description: 'YYYY-MM-DD' }) dateOfBirth!: string;
  @Field(() => KycAddressInput) address!: KycAddressInput;

  toServiceInput() {
    return {
      id_type: this.idType,
      id_number: this.idNumber,
      id_country: this.idCountry,
      date_of_birth: this.dateOfBirth,
      address: {
        line1: this.address.line1,
        city: this.address.city,
        country_code: this.address.countryCode,
        postal_code: this.address.postalCode ?? undefined,
      },
    };
  }
}
