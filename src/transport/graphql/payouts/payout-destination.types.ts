import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { DESTINATION_STATUSES, type DestinationStatus } from '../../../modules/payouts/destinations/destination.rules';
import type { AddDestinationCommand } from '../../../modules/payouts/destinations/destination.service';
import type { PayoutDestination } from '../../../modules/payouts/destinations/destination.view';
import type { ChannelType } from '../../../modules/reference/reference.types';
import { ChannelTypeEnum, domainEnum } from '../enums';

const DestinationStatusEnum = domainEnum(
  DESTINATION_STATUSES,
  'PayoutDestinationStatus',
  'ACTIVE: payouts go here; PENDING_APPROVAL: a change waiting for a second member (or its cooling-off); REPLACED; CANCELED.',
);

@ObjectType('TeamMemberRef', { description: 'A person of the team, by id and email.' })
class PersonObject {
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true }) email!: string | null;
}

@ObjectType('PayoutDestination', { description: 'Where payouts in a currency go: a bank account or wallet, name-checked, changed by maker-checker.' })
export class PayoutDestinationObject {
  @Field(() => ID) id!: string;
  @Field(() => String) currency!: string;
  @Field(() => ChannelTypeEnum) accountType!: ChannelType;
  @Field(() => String) countryCode!: string;
  @Field(() => String, { description: 'The bank or wallet network (networks).' }) networkId!: string;
  @Field(() => String, { description: 'The bank’s or wallet network’s name.' }) institution!: string;
  @Field(() => String, { description: 'The account for display (bank and last four): never the whole number.' }) masked!: string;
  @Field(() => String, { description: 'The holder’s name, as the provider resolved it.' }) accountName!: string;
  @Field(() => Boolean, { description: 'Whether the holder’s name was checked against the business name.' }) nameChecked!: boolean;
  @Field(() => DestinationStatusEnum) status!: DestinationStatus;
  @Field(() => Date, { nullable: true, description: 'When it took effect; a lone member’s change: when its 24-hour cooling-off ends.' })
  effectiveAt!: Date | null;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date, { nullable: true }) activatedAt!: Date | null;
  @Field(() => Date, { nullable: true }) replacedAt!: Date | null;
  @Field(() => Date, { nullable: true }) canceledAt!: Date | null;
  @Field(() => PersonObject, { description: 'Who added it (the maker).' }) createdBy!: PersonObject;
  @Field(() => PersonObject, { nullable: true, description: 'Who approved the change (the checker).' }) approvedBy!: PersonObject | null;
  @Field(() => PersonObject, { nullable: true }) canceledBy!: PersonObject | null;

  static from(d: PayoutDestination): PayoutDestinationObject {
    return Object.assign(new PayoutDestinationObject(), d);
  }
}

@InputType('AddPayoutDestinationInput', { description: 'The account as resolveAccount takes it, and optionally its currency (the country’s).' })
export class AddPayoutDestinationInput implements AddDestinationCommand {
  @Field(() => String, { description: 'ISO 3166-1 alpha-2.' }) country!: string;
  @Field(() => String, { nullable: true, description: 'A bank’s code from banks(country).' }) bankCode?: string | null;
  @Field(() => String, { nullable: true, description: 'A networkId from networks(…).' }) network?: string | null;
  @Field(() => String, { description: 'A bank account number, or a wallet’s phone number (CONTRACT §6a).' }) accountNumber!: string;
  @Field(() => String, { nullable: true, description: 'The country’s currency; anything else is refused.' }) currency?: string | null;
}
