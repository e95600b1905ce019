import { Field, InputType, Int } from 'type-graphql';
import type { PaymentCommand, PaymentMethod } from '../../../modules/transactions/kinds/payment/payment.service';
import type { Decimal } from '../../../shared/money';
import { PaymentMethodEnum } from '../enums';
import { DecimalScalar } from '../scalars';

/** The card as the cardholder typed it: checked, passed to the provider, and never stored, logged or echoed. */
@InputType('CardInput')
export class CardInput {
  @Field(() => String, {
    description:
      '12 to 19 digits (spaces or dashes between groups are fine). Sandbox test cards: 4242424242424242, 4000002500003155 (3-D Secure), 4000000000009995 (insufficient funds).',
  })
  number!: string;
  @Field(() => Int, { description: '1 to 12.' }) expMonth!: number;
  @Field(() => Int, { description: '2 or 4 digits; with expMonth, in the future.' }) expYear!: number;
  @Field(() => String, { description: '3 digits, or 4 for American Express.' }) cvc!: string;
  @Field(() => String, { nullable: true }) postalCode?: string | null;
}

@InputType('InitiatePaymentInput')
export class InitiatePaymentInput implements PaymentCommand {
  @Field(() => String, { description: 'Your own reference; unique across all your transactions.' }) reference!: string;
  @Field(() => DecimalScalar, { description: 'Within the currency’s decimals.' }) amount!: Decimal;
  @Field(() => String, { description: 'ISO 4217, e.g. "NGN".' }) currency!: string;
  @Field(() => PaymentMethodEnum, {
    defaultValue: PaymentMethodEnum.CARD,
    description: 'CARD; or, for a payer in your own country paying in its currency (no KYC), MOMO or BANK_TRANSFER.',
  })
  paymentMethod!: PaymentMethod;
  @Field(() => CardInput, { nullable: true, description: 'CARD only: the card, never stored.' }) card?: CardInput | null;
  @Field(() => String, {
    nullable: true,
    description: 'MOMO only: the payer’s wallet number, in any form its country’s numbering plan reads ("+233 24 123 4567", "0241234567").',
  })
  phone?: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'MOMO only: the payer’s network, by id ("gh_mtn") or code ("MTN"); predicted from the number’s prefix when left out.',
  })
  network?: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'MOMO and BANK_TRANSFER: the payer’s country, which is yours; needed only when your currency is several countries’ (XOF, XAF).',
  })
  countryCode?: string | null;
  @Field(() => String, { nullable: true, description: 'One of your customers, to link the payment to.' }) customerUuid?: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'Where the cardholder returns after 3-D Secure, with reference, external_reference and status in the query.',
  })
  redirectUrl?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
}
