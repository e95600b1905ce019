import { Field, ID, InputType, ObjectType } from 'type-graphql';
import type { NEXT_ACTION_TYPES, PaymentMethod } from '../../../modules/transactions/kinds/payment/payment.service';
import type { ChannelType, ReferenceService } from '../../../modules/reference/reference.service';
import type { CollectionCommand } from '../../../modules/transactions/kinds/collection/collection.service';
import type { Transaction, TransactionEvent } from '../../../modules/transactions/transaction.record';
import { nextActionOf } from '../../../modules/transactions/transaction.serializer';
import type { TransactionListQuery } from '../../../modules/transactions/queries.service';
import type { TransactionKind, TransactionStatus } from '../../../modules/transactions/transaction.state';
import type { TransferCommand } from '../../../modules/transactions/kinds/transfer/transfer.service';
import { formatAmount, type Decimal } from '../../../shared/money';
import { ChannelTypeEnum, NextActionTypeEnum, PaymentMethodEnum, TransactionStatusEnum, TransactionTypeEnum } from '../enums';
import { Connection } from '../relay';
import { DecimalScalar } from '../scalars';

/** Reads a currency's minor unit, so amounts carry exactly its decimals ("100.00", "3700"). */
type MinorUnits = Pick<ReferenceService, 'currencyMinorUnit'>;

function money(amount: Decimal | null, currency: string | null, units: MinorUnits): string | null {
  if (amount === null) return null;
  const minorUnit = currency ? units.currencyMinorUnit(currency) : undefined;
  return minorUnit === undefined ? amount.toFixed() : formatAmount(amount, minorUnit);
}

@ObjectType('BankInfo', { description: 'The virtual bank account a sender pays a bank collection into; unique to that collection.' })
export class BankInfoObject {
  @Field(() => String) accountName!: string;
  @Field(() => String) accountNumber!: string;
  @Field(() => String) bankName!: string;
  @Field(() => String) bankCode!: string;
}

@ObjectType('Beneficiary', { description: 'Who receives a transfer.' })
export class BeneficiaryObject {
  @Field(() => String) accountName!: string;
  @Field(() => String) accountNumber!: string;
  @Field(() => String) networkId!: string;
}

@ObjectType('Card', { description: 'What is kept of a card: never its number, CVC or expiry.' })
export class CardObject {
  @Field(() => String, { description: 'visa, mastercard, amex, verve, discover or unknown.' }) brand!: string;
  @Field(() => String) last4!: string;
  @Field(() => String, { description: 'The same card gives the same fingerprint in your account (and a different one at any other merchant).' })
  fingerprint!: string;
}

@ObjectType('NextAction', { description: 'A payment awaiting 3-D Secure: send the cardholder’s browser to url before expiresAt.' })
export class NextActionObject {
  @Field(() => NextActionTypeEnum) type!: (typeof NEXT_ACTION_TYPES)[number];
  @Field(() => String, { description: 'The authentication page; its handle decides this payment once.' }) url!: string;
  @Field(() => Date, { nullable: true }) expiresAt!: Date | null;
}

@ObjectType('TransactionStatusChange', { description: 'One entry of a transaction’s history.' })
export class TransactionStatusChangeObject {
  @Field(() => TransactionStatusEnum, { nullable: true, description: 'Null for the first entry (creation).' })
  fromStatus!: TransactionStatus | null;

  @Field(() => TransactionStatusEnum) toStatus!: TransactionStatus;

  @Field(() => String, { nullable: true, description: 'Why: "initiated", "provider", "simulation", "expiry" or a failure reason.' })
  reason!: string | null;

  @Field(() => Date) occurredAt!: Date;

  static from(e: TransactionEvent): TransactionStatusChangeObject {
    return Object.assign(new TransactionStatusChangeObject(), {
      fromStatus: e.fromStatus,
      toStatus: e.toStatus,
      reason: e.reason,
      occurredAt: e.occurredAt,
    });
  }
}

@ObjectType('Transaction', {
  description:
    'A collection, transfer, payment or refund. Fields that do not apply to its kind are null (amount/currency: collections, payments and refunds; bankInfo: bank collections; source*/destination*/rate/quoteId/beneficiary: transfers; paymentMethod/card/redirectUrl/description/amountRefunded: payments; nextAction: payments and mobile money collections; paymentReference: refunds).',
})
export class TransactionObject {
  /** The entity id, kept for the history field resolver; not a field of the schema. */
  transactionId!: string;

  @Field(() => String, { description: 'Assigned by the service, e.g. "col_…", "trf_…" or "pay_…".' })
  reference!: string;

  @Field(() => String, { description: 'Your own reference, unique across all your transactions.' })
  externalReference!: string;

  @Field(() => TransactionTypeEnum) type!: TransactionKind;
  @Field(() => TransactionStatusEnum) status!: TransactionStatus;
  @Field(() => String, { nullable: true }) failureReason!: string | null;
  @Field(() => ID, { nullable: true }) customerUuid!: string | null;
  @Field(() => ChannelTypeEnum, { nullable: true, description: 'BANK or MOMO: the channel type of channelId.' }) accountType!: ChannelType | null;
  @Field(() => String, { nullable: true }) countryCode!: string | null;
  @Field(() => String, { nullable: true }) channelId!: string | null;
  @Field(() => String, { nullable: true }) networkId!: string | null;
  @Field(() => String, { nullable: true }) dialCode!: string | null;
  @Field(() => String, { nullable: true }) reason!: string | null;
  @Field(() => String, { nullable: true }) providerReference!: string | null;

  @Field(() => DecimalScalar, { nullable: true, description: 'Collections: what the sender pays, in currency. Payments: what the card is charged.' })
  amount!: string | null;

  @Field(() => String, { nullable: true }) currency!: string | null;

  @Field(() => String, { nullable: true, description: 'The sender’s (collection) or beneficiary’s (transfer) account or wallet number.' })
  accountNumber!: string | null;

  @Field(() => BankInfoObject, { nullable: true, description: 'Bank collections only.' })
  bankInfo!: BankInfoObject | null;

  @Field(() => DecimalScalar, { nullable: true }) sourceAmount!: string | null;
  @Field(() => String, { nullable: true }) sourceCurrency!: string | null;
  @Field(() => DecimalScalar, { nullable: true }) destinationAmount!: string | null;
  @Field(() => String, { nullable: true }) destinationCurrency!: string | null;
  @Field(() => DecimalScalar, { nullable: true, description: 'Destination units per source unit; up to 8 decimals.' }) rate!: string | null;
  @Field(() => DecimalScalar, {
    nullable: true,
    description:
      'What you pay for it. Transfers: in the source currency, charged on top of sourceAmount. Collections and payments: taken from amount at settlement. Refunds: 0.',
  })
  fee!: string | null;
  @Field(() => String, { nullable: true, description: 'The quote whose rate the transfer locked, if any.' }) quoteId!: string | null;
  @Field(() => BeneficiaryObject, { nullable: true, description: 'Transfers only.' }) beneficiary!: BeneficiaryObject | null;

  @Field(() => PaymentMethodEnum, { nullable: true, description: 'Payments only.' }) paymentMethod!: PaymentMethod | null;
  @Field(() => CardObject, { nullable: true, description: 'Card payments only.' }) card!: CardObject | null;
  @Field(() => NextActionObject, {
    nullable: true,
    description:
      'Where the customer must go first: a payment awaiting 3-D Secure (REQUIRES_ACTION), or a PROCESSING mobile money collection whose provider has the payer approve on a page. Null otherwise.',
  })
  nextAction!: NextActionObject | null;
  @Field(() => String, { nullable: true, description: 'Payments: where the cardholder returns after 3-D Secure.' }) redirectUrl!: string | null;
  @Field(() => String, { nullable: true, description: 'Payments: your description.' }) description!: string | null;
  @Field(() => DecimalScalar, { nullable: true, description: 'Payments: what its refunds hold, in flight or done (never more than amount).' })
  amountRefunded!: string | null;
  @Field(() => String, { nullable: true, description: 'Refunds: the payment given back (its "pay_…" reference).' }) paymentReference!: string | null;

  @Field(() => Date) createdAt!: Date;
  @Field(() => Date) updatedAt!: Date;
  @Field(() => Date, { nullable: true }) completedAt!: Date | null;
  @Field(() => Date, {
    nullable: true,
    description: 'Bank collections: when an unpaid one expires. Payments awaiting 3-D Secure: the authentication deadline.',
  })
  expiresAt!: Date | null;

  static from(t: Transaction, units: MinorUnits): TransactionObject {
    const transfer = t.kind === 'transfer';
    return Object.assign(new TransactionObject(), {
      transactionId: t.id,
      reference: t.reference,
      externalReference: t.externalReference,
      type: t.kind,
      status: t.status,
      failureReason: t.failureReason,
      customerUuid: t.customerId,
      accountType: t.accountType,
      countryCode: t.countryCode,
      channelId: t.channelId,
      networkId: t.networkId,
      dialCode: t.dialCode,
      reason: t.reason,
      providerReference: t.providerReference,
      amount: money(t.amount, t.currency, units),
      currency: t.currency,
      accountNumber: t.accountNumber,
      bankInfo: t.accountType === 'bank' && t.bankInfo ? Object.assign(new BankInfoObject(), { ...t.bankInfo }) : null,
      sourceAmount: money(t.sourceAmount, t.sourceCurrency, units),
      sourceCurrency: t.sourceCurrency,
      destinationAmount: money(t.destinationAmount, t.destinationCurrency, units),
      destinationCurrency: t.destinationCurrency,
      rate: t.rate?.toFixed() ?? null,
      fee: money(t.fee, transfer ? t.sourceCurrency : t.currency, units),
      quoteId: t.quoteId,
      beneficiary:
        transfer && t.accountName && t.accountNumber && t.networkId
          ? Object.assign(new BeneficiaryObject(), { accountName: t.accountName, accountNumber: t.accountNumber, networkId: t.networkId })
          : null,
      paymentMethod: t.paymentMethod,
      card: t.cardBrand ? Object.assign(new CardObject(), { brand: t.cardBrand, last4: t.cardLast4, fingerprint: t.cardFingerprint }) : null,
      nextAction: nextActionOf(t)
        ? Object.assign(new NextActionObject(), { type: NextActionTypeEnum.REDIRECT_TO_URL, url: t.nextActionUrl, expiresAt: t.expiresAt })
        : null,
      redirectUrl: t.redirectUrl,
      description: t.description,
      amountRefunded: t.kind === 'payment' ? money(t.refundedAmount, t.currency, units) : null,
      paymentReference: t.parentReference,
      createdAt: t.createdAt,
      updatedAt: t.updatedAt,
      completedAt: t.completedAt,
      expiresAt: t.expiresAt,
    });
  }
}

@ObjectType('TransactionConnection')
export class TransactionConnection extends Connection(TransactionObject, 'Transaction') {}

/**
 * GraphQL inputs carry the domain command's fields, name for name, so resolvers hand
 * them to the service as they come (`implements` keeps them in step); the service
 * validates them, and owns the check order (CONTRACT §6).
 */
@InputType('TransactionFilter', { description: 'Every given condition must hold.' })
export class TransactionFilter implements Pick<TransactionListQuery, 'status' | 'type' | 'customerUuid' | 'createdFrom' | 'createdTo'> {
  @Field(() => TransactionStatusEnum, { nullable: true }) status?: TransactionStatus | null;
  @Field(() => TransactionTypeEnum, { nullable: true }) type?: TransactionKind | null;
  @Field(() => String, { nullable: true }) customerUuid?: string | null;
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
  @Field(() => String, { nullable: true, description: 'A live quote (from rate) for this pair and amount locks its rate.' }) quoteId?: string | null;
}
