import { Field, InputType, ObjectType } from 'type-graphql';
import { BANK_METHODS, type BankListing, type BankMethod, type ResolveAccountCommand } from '../../../modules/payees/payees.service';
import { domainEnum } from '../enums';

const BankMethodEnum = domainEnum(BANK_METHODS, 'BankMethod', 'What can be done with a bank here.');
const BankTypeEnum = domainEnum(['bank', 'mobile_money'] as const, 'BankType', 'MOBILE_MONEY: a wallet or payment service bank reached by account number.');

@ObjectType('Bank', { description: 'A bank or wallet by its local code (GET /v1/banks).' })
export class BankObject {
  @Field(() => String, {
    description: 'Nigeria: the CBN/NIP code ("058", "50211", "999992"); Kenya: the CBK bank code; South Africa: the universal branch code.',
  })
  code!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String)
  countryCode!: string;

  @Field(() => BankTypeEnum)
  type!: 'bank' | 'mobile_money';

  @Field(() => String, { nullable: true, description: 'The network it is, when transfers and collections route to it; null: listed by code only.' })
  networkId!: string | null;

  @Field(() => [BankMethodEnum], {
    description: 'TRANSFER and COLLECTION: a provider serves its network here; ACCOUNT_RESOLUTION: resolveAccount can name holders.',
  })
  methods!: BankMethod[];

  @Field(() => String, { description: 'Where the codes come from.' })
  source!: string;

  static from(bank: BankListing): BankObject {
    return Object.assign(new BankObject(), {
      code: bank.code,
      name: bank.name,
      countryCode: bank.countryCode,
      type: bank.type,
      networkId: bank.networkId,
      methods: bank.methods,
      source: bank.source,
    });
  }
}

@InputType('ResolveAccountInput', { description: 'A bank by its code (banks) or a network by its id (networks), not both, and the account number.' })
export class ResolveAccountInput implements ResolveAccountCommand {
  @Field(() => String, { description: 'ISO 3166-1 alpha-2.' }) country!: string;
  @Field(() => String, { nullable: true, description: 'A bank’s code from banks(country).' }) bankCode?: string | null;
  @Field(() => String, { nullable: true, description: 'A networkId from networks(…).' }) network?: string | null;
  @Field(() => String, { description: 'A bank account number, or a wallet’s phone number (CONTRACT §6a).' }) accountNumber!: string;
}

@ObjectType('ResolvedAccount', { description: 'The holder of an account, as the provider names them.' })
export class ResolvedAccountObject {
  @Field(() => String) accountName!: string;
}

@ObjectType('NameCheck', { description: 'The transfers’ beneficiary name check (CONTRACT §6b).' })
export class NameCheckObject {
  @Field(() => Boolean, { description: 'Whether a transfer’s beneficiaryName is checked against the provider’s name for the account.' })
  enabled!: boolean;
}
