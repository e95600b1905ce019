import { Field, ID, InputType, ObjectType } from 'type-graphql';
import type { Customer } from '../../../modules/customers/customer.entity';
import type { EnrollCustomerCommand } from '../../../modules/customers/customer.service';
import type { ID_TYPES, KycRecord, SubmitKycCommand } from '../../../modules/kyc/kyc.service';
import { overallKycStatus, type KycStatus } from '../../../modules/kyc/kyc.state';
import { IdTypeEnum, KycStatusEnum } from '../enums';
import { Connection } from '../relay';

@ObjectType('Customer')
export class CustomerObject {
  @Field(() => ID, { description: 'Assigned by the service at enrollment; Transaction.customerUuid and Kyc.customerUuid name it the same way.' })
  customerUuid!: string;

  @Field(() => ID, { deprecationReason: 'Use customerUuid: the same value, named as on every other type.' })
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

  @Field(() => KycStatusEnum) kycStatus!: KycStatus;
  @Field(() => KycStatusEnum) overallKycStatus!: KycStatus;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date) updatedAt!: Date;

  static from(c: Customer): CustomerObject {
    return Object.assign(new CustomerObject(), {
      customerUuid: c.id,
      uuid: c.id,
      customerId: c.customerid,
      firstName: c.firstName,
      lastName: c.lastName,
      email: c.email,
      phoneNumber: c.phoneNumber,
      dialCode: c.dialCode,
      countryCode: c.countryCode,
      dateOfBirth: c.dateOfBirth,
      kycStatus: c.kycStatus,
      overallKycStatus: overallKycStatus(c.kycStatus),
      createdAt: c.createdAt,
      updatedAt: c.updatedAt,
    });
  }
}

@ObjectType('CustomerConnection')
export class CustomerConnection extends Connection(CustomerObject, 'Customer') {}

@ObjectType('Kyc', { description: "A customer's KYC status and latest review." })
export class KycObject {
  @Field(() => ID) customerUuid!: string;
  @Field(() => KycStatusEnum) kycStatus!: KycStatus;
  @Field(() => KycStatusEnum) overallKycStatus!: KycStatus;
  @Field(() => Date, { nullable: true }) submittedAt!: Date | null;
  @Field(() => Date, { nullable: true }) reviewedAt!: Date | null;
  @Field(() => String, { nullable: true }) rejectionReason!: string | null;

  static from(r: KycRecord): KycObject {
    return Object.assign(new KycObject(), {
      customerUuid: r.customerUuid,
      kycStatus: r.kycStatus,
      overallKycStatus: r.overallKycStatus,
      submittedAt: r.submittedAt,
      reviewedAt: r.reviewedAt,
      rejectionReason: r.rejectionReason,
    });
  }
}

@InputType('EnrollCustomerInput')
export class EnrollCustomerInput implements EnrollCustomerCommand {
  @Field(() => String) customerId!: string;
  @Field(() => String) firstName!: string;
  @Field(() => String) lastName!: string;
  @Field(() => String) email!: string;
  @Field(() => String, {
    description:
      'The national number: digits only, without the dial code or a leading 0 (712345678 for +254). 0712345678, 254712345678 and +254 712 345 678 are accepted and stored as 712345678.',
  })
  phoneNumber!: string;
  @Field(() => String, { description: 'e.g. +254; must be the country’s.' }) dialCode!: string;
  @Field(() => String, { description: 'ISO 3166-1 alpha-2, one of the supported countries.' }) countryCode!: string;
  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD' }) dateOfBirth?: string | null;
}

@InputType('KycAddressInput')
export class KycAddressInput {
  @Field(() => String) line1!: string;
  @Field(() => String) city!: string;
  @Field(() => String) countryCode!: string;
  @Field(() => String, { nullable: true }) postalCode?: string | null;
}

@InputType('SubmitKycInput')
export class SubmitKycInput implements SubmitKycCommand {
  @Field(() => IdTypeEnum) idType!: (typeof ID_TYPES)[number];
  @Field(() => String) idNumber!: string;
  @Field(() => String, { description: 'ISO 3166-1 alpha-2 of the issuing country.' }) idCountry!: string;
  @Field(() => String, { description: 'YYYY-MM-DD' }) dateOfBirth!: string;
  @Field(() => KycAddressInput) address!: KycAddressInput;
}
