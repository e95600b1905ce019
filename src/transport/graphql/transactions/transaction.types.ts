import { Field, InputType, ObjectType } from 'type-graphql';
import type { ChannelType } from '../../../modules/reference/reference.service';
import type { CollectionCommand } from '../../../modules/transactions/kinds/collection/collection.service';
import { COUNTERPARTY } from '../../../modules/transactions/counterparty';
import type { TransactionListQuery } from '../../../modules/transactions/queries.service';
import { TRANSACTION, TRANSACTION_STATUS_CHANGE } from '../../../modules/transactions/transaction.definition';
import type { TransactionKind, TransactionStatus } from '../../../modules/transactions/transaction.state';
import type { TransferCommand } from '../../../modules/transactions/kinds/transfer/transfer.service';
import type { Decimal } from '../../../shared/money';
import { ChannelTypeEnum, TransactionStatusEnum, TransactionTypeEnum } from '../enums';
import { objectTypeOf } from '../record-types';
import { Connection } from '../relay';
import { DecimalScalar } from '../scalars';

/*
 * The object types of a transaction, generated from its definition
 * (modules/transactions/transaction.definition.ts): Transaction (with its nested BankInfo,
 * Beneficiary, Card and NextAction, generated with it) and TransactionStatusChange.
 */
export const TransactionObject = objectTypeOf(TRANSACTION, {
  units: true,
  // The entity id, kept for the history field resolver, and the record, for the counterparty's; not fields of the schema.
  // customerUuid is a field too; named here for the customer field resolver's type.
  extra: (t) => ({ transactionId: t.id, customerUuid: t.customerId, record: t }),
});
export type TransactionObject = InstanceType<typeof TransactionObject>;

export const CounterpartyObject = objectTypeOf(COUNTERPARTY);
export type CounterpartyObject = InstanceType<typeof CounterpartyObject>;

export const TransactionStatusChangeObject = objectTypeOf(TRANSACTION_STATUS_CHANGE);
export type TransactionStatusChangeObject = InstanceType<typeof TransactionStatusChangeObject>;

@ObjectType('TransactionConnection')
export class TransactionConnection extends Connection(TransactionObject, 'Transaction') {}

/**
 * GraphQL inputs carry the domain command's fields, name for name, so resolvers hand
 * them to the service as they come (`implements` keeps them in step); the service
 * validates them, and owns the check order (CONTRACT §6).
 */
@InputType('TransactionFilter', { description: 'Every given condition must hold.' })
export class TransactionFilter implements Pick<TransactionListQuery, 'status' | 'type' | 'customerUuid' | 'paymentLinkId' | 'createdFrom' | 'createdTo'> {
  @Field(() => TransactionStatusEnum, { nullable: true }) status?: TransactionStatus | null;
  @Field(() => TransactionTypeEnum, { nullable: true }) type?: TransactionKind | null;
  @Field(() => String, { nullable: true }) customerUuid?: string | null;
  @Field(() => String, { nullable: true, description: 'Payments made on the checkout sessions this payment link (plink_…) opened.' })
  paymentLinkId?: string | null;
  @Field(() => Date, { nullable: true, description: 'Created at or after this time.' }) createdFrom?: Date | null;
  @Field(() => Date, { nullable: true, description: 'Created before this time.' }) createdTo?: Date | null;
}

/** Fields both initiations share. */
// Only the concrete inputs are reachable from resolvers, so this base is never emitted itself.
@InputType()
abstract class CrossBorderInput {
  @Field(() => String) customerUuid!: string;
  @Field(() => String, { description: 'ISO 3166-1 alpha-2 of the customer’s (collection) or beneficiary’s (transfer) country.' }) countryCode!: string;
  @Field(() => String, { description: 'e.g. "ke_momo_deposit"; a DEPOSIT channel for collections, WITHDRAWAL for transfers.' }) channelId!: string;
  @Field(() => String, {
    description:
      'e.g. "ke_mpesa"; a network of the country and channel type. A bank collection’s virtual account is at that bank where the provider allows it (the sandbox; Flutterwave uses its own partner bank).',
  })
  networkId!: string;
  @Field(() => String, {
    description:
      'MOMO: the wallet’s national number, without the dial code or a leading 0 (712345678 for +254); 0712345678, 254712345678 and +254 712 345 678 are accepted and stored as 712345678. BANK: 4 to 34 letters or digits, kept as given.',
  })
  accountNumber!: string;
  @Field(() => String, { description: 'The country’s dial code, e.g. "+254".' }) dialCode!: string;
  @Field(() => ChannelTypeEnum, { description: 'Must be the channel’s type.' }) accountType!: ChannelType;
  @Field(() => String) reason!: string;
  @Field(() => String, { description: 'Your own reference; unique across all your transactions.' }) reference!: string;
}

@InputType('InitiateCollectionInput')
export class InitiateCollectionInput extends CrossBorderInput implements CollectionCommand {
  @Field(() => DecimalScalar, { description: 'In currency, within the channel’s bounds and the currency’s decimals.' }) amount!: Decimal;
  @Field(() => String, { description: 'The country’s currency, e.g. "KES".' }) currency!: string;
}

@InputType('InitiateTransferInput')
export class InitiateTransferInput extends CrossBorderInput implements TransferCommand {
  @Field(() => DecimalScalar, { description: 'What you send, in sourceCurrency.' }) amount!: Decimal;
  @Field(() => String) sourceCurrency!: string;
  @Field(() => String, { description: 'The destination country’s currency.' }) destinationCurrency!: string;
  @Field(() => String, { description: 'The beneficiary’s name.' }) accountName!: string;
  @Field(() => String, {
    nullable: true,
    description:
      'The name you expect the account to be held in: checked against the provider’s before anything is sent (BENEFICIARY_NAME_MISMATCH otherwise), unless you turned the name check off (CONTRACT §6b).',
  })
  beneficiaryName?: string;
  @Field(() => String, { nullable: true, description: 'A live quote (from rate) for this pair and amount locks its rate.' }) quoteId?: string | null;
}
