import { Field, InputType, ObjectType } from 'type-graphql';
import { CUSTOMER } from '../../../modules/customers/customer.definition';
import type { EnrollCustomerCommand } from '../../../modules/customers/customer.service';
import { KYC } from '../../../modules/kyc/kyc.definition';
import type { IdType } from '../../../modules/kyc/id-documents';
import type { SubmitKycCommand } from '../../../modules/kyc/kyc.service';
import { IdTypeEnum } from '../enums';
import { objectTypeOf } from '../record-types';
import { Connection } from '../relay';

/** The Customer type, generated from its definition (modules/customers/customer.definition.ts). */
export const CustomerObject = objectTypeOf(CUSTOMER);
export type CustomerObject = InstanceType<typeof CustomerObject>;

@ObjectType('CustomerConnection')
export class CustomerConnection extends Connection(CustomerObject, 'Customer') {}

/** The Kyc type, generated from its definition (modules/kyc/kyc.definition.ts). */
export const KycObject = objectTypeOf(KYC);
export type KycObject = InstanceType<typeof KycObject>;

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
  @Field(() => IdTypeEnum) idType!: IdType;
  @Field(() => String) idNumber!: string;
  @Field(() => String, { description: 'ISO 3166-1 alpha-2 of the issuing country.' }) idCountry!: string;
  @Field(() => String, { description: 'YYYY-MM-DD' }) dateOfBirth!: string;
  @Field(() => KycAddressInput) address!: KycAddressInput;
}
