import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { LINK_COLLECT, type CheckoutSession, type LinkCollect } from '../../../modules/checkout/checkout.records';
import type { CheckoutSessionCommand, PaymentLinkCommand } from '../../../modules/checkout/checkout.schemas';
import type { PaymentLinkWithQr } from '../../../modules/checkout/payment-link.service';
import type { CheckoutMethod } from '../../../modules/checkout/checkout.views';
import type { ReferenceService } from '../../../modules/reference/reference.service';
import { formatAmount, type Decimal } from '../../../shared/money';
import { PaymentMethodEnum, domainEnum } from '../enums';
import { Connection } from '../relay';
import { DecimalScalar } from '../scalars';

const CheckoutSessionStatusEnum = domainEnum(['open', 'complete', 'expired'] as const, 'CheckoutSessionStatus', 'OPEN, then COMPLETE (paid) or EXPIRED.');
const LinkCollectEnum = domainEnum(LINK_COLLECT, 'PaymentLinkField', 'What a payment link asks the payer: EMAIL always, PHONE and NAME when chosen.');

type MinorUnits = Pick<ReferenceService, 'currencyMinorUnit'>;
const money = (amount: Decimal, currency: string, units: MinorUnits) => formatAmount(amount, units.currencyMinorUnit(currency) ?? 2);

@ObjectType('CheckoutCustomer')
export class CheckoutCustomerObject {
  @Field(() => String) email!: string;
  @Field(() => String, { nullable: true }) phone!: string | null;
  @Field(() => String, { nullable: true }) name!: string | null;
}

@ObjectType('CheckoutSession', { description: 'A hosted checkout session: OPEN, then COMPLETE (paid) or EXPIRED. Send the payer to `url`.' })
export class CheckoutSessionObject {
  @Field(() => ID, { description: '`cs_…`: the page’s key, unguessable.' }) id!: string;
  @Field(() => String, { description: 'The hosted page to send the payer to.' }) url!: string;
  @Field(() => CheckoutSessionStatusEnum) status!: CheckoutSession['status'];
  @Field(() => DecimalScalar) amount!: string;
  @Field(() => String) currency!: string;
  @Field(() => String, { description: 'Yours; each attempt’s payment reference adds -1, -2…' }) reference!: string;
  @Field(() => CheckoutCustomerObject) customer!: CheckoutCustomerObject;
  @Field(() => [PaymentMethodEnum], { nullable: true, description: 'The methods you allowed; null: every method available.' })
  paymentMethods!: CheckoutMethod[] | null;
  @Field(() => String) redirectUrl!: string;
  @Field(() => String, { nullable: true }) cancelUrl!: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata!: Record<string, string> | null;
  @Field(() => String, { nullable: true, description: 'What the page and each attempt’s payment say it is for.' }) description!: string | null;
  @Field(() => String, { nullable: true, description: 'The payment link that opened it (`plink_…`).' }) paymentLinkId!: string | null;
  @Field(() => String, { nullable: true, description: 'The successful payment’s reference (`pay_…`), once complete.' })
  paymentReference!: string | null;
  @Field(() => Int) attempts!: number;
  @Field(() => Date) expiresAt!: Date;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date, { nullable: true }) completedAt!: Date | null;
  @Field(() => Date, { nullable: true }) expiredAt!: Date | null;

  static from(s: CheckoutSession, units: MinorUnits): CheckoutSessionObject {
    return Object.assign(new CheckoutSessionObject(), {
      ...s,
      amount: money(s.amount, s.currency, units),
      customer: Object.assign(new CheckoutCustomerObject(), s.customer),
    });
  }
}

@ObjectType('PaymentLink', { description: 'A reusable payment link: each visit to `url` opens a checkout session.' })
export class PaymentLinkObject {
  @Field(() => ID, { description: '`plink_…`' }) id!: string;
  @Field(() => String, { description: 'The link’s public page, /pay/{slug}.' }) url!: string;
  @Field(() => String, { description: 'The URL as a QR code, an SVG document.' }) qrSvg!: string;
  @Field(() => String) slug!: string;
  @Field(() => String) name!: string;
  @Field(() => Boolean) active!: boolean;
  @Field(() => DecimalScalar, { nullable: true, description: 'Fixed; null: the payer chooses within minAmount and maxAmount.' }) amount!: string | null;
  @Field(() => String) currency!: string;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field(() => [PaymentMethodEnum], { nullable: true }) paymentMethods!: CheckoutMethod[] | null;
  @Field(() => [LinkCollectEnum]) collect!: LinkCollect[];
  @Field(() => DecimalScalar, { nullable: true }) minAmount!: string | null;
  @Field(() => DecimalScalar, { nullable: true }) maxAmount!: string | null;
  @Field(() => Int, { nullable: true }) maxPayments!: number | null;
  @Field(() => Int, { description: 'Completed checkout sessions opened through it.' }) paymentsCount!: number;
  @Field(() => Date, { nullable: true }) expiresAt!: Date | null;
  @Field(() => String, { nullable: true }) redirectUrl!: string | null;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date, { nullable: true }) deactivatedAt!: Date | null;

  static from(l: PaymentLinkWithQr, units: MinorUnits): PaymentLinkObject {
    const m = (d: Decimal | null) => (d === null ? null : money(d, l.currency, units));
    return Object.assign(new PaymentLinkObject(), { ...l, amount: m(l.amount), minAmount: m(l.minAmount), maxAmount: m(l.maxAmount) });
  }
}

@ObjectType('PaymentLinkConnection')
export class PaymentLinkConnection extends Connection(PaymentLinkObject, 'PaymentLink') {}

@InputType('CheckoutCustomerInput')
export class CheckoutCustomerInput {
  @Field(() => String, { description: 'Always needed: card processors ask for it.' }) email!: string;
  @Field(() => String, { nullable: true }) phone?: string | null;
  @Field(() => String, { nullable: true }) name?: string | null;
}

@InputType('CreateCheckoutSessionInput')
export class CreateCheckoutSessionInput implements CheckoutSessionCommand {
  @Field(() => DecimalScalar, { description: 'Within the currency’s decimals.' }) amount!: Decimal;
  @Field(() => String, { description: 'Your country’s currency (ISO 4217).' }) currency!: string;
  @Field(() => String, { description: 'Yours, 1 to 60 characters, unique among your sessions.' }) reference!: string;
  @Field(() => CheckoutCustomerInput) customer!: CheckoutCustomerInput;
  @Field(() => [PaymentMethodEnum], { nullable: true, description: 'Limit the page to these; left out: every method available.' })
  paymentMethods?: CheckoutMethod[] | null;
  @Field(() => String, { description: 'Where the payer returns after paying (confirm by webhook or query, not by this redirect).' }) redirectUrl!: string;
  @Field(() => String, { nullable: true }) cancelUrl?: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Flat, up to 20 keys, string values up to 500 characters.' })
  metadata?: Record<string, string> | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => Int, { nullable: true, description: 'Seconds, 60 to 86400; 3600 when left out.' }) expiresIn?: number | null;
}

@InputType('CreatePaymentLinkInput')
export class CreatePaymentLinkInput implements PaymentLinkCommand {
  @Field(() => String) name!: string;
  @Field(() => DecimalScalar, { nullable: true, description: 'Fixed; left out: the payer chooses within minAmount and maxAmount.' }) amount?: Decimal | null;
  @Field(() => String) currency!: string;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => String, { nullable: true, description: '3–64 lowercase letters, digits, -; generated when left out.' }) slug?: string | null;
  @Field(() => [PaymentMethodEnum], { nullable: true }) paymentMethods?: CheckoutMethod[] | null;
  @Field(() => [LinkCollectEnum], { nullable: true, description: 'EMAIL is always asked.' }) collect?: LinkCollect[] | null;
  @Field(() => DecimalScalar, { nullable: true }) minAmount?: Decimal | null;
  @Field(() => DecimalScalar, { nullable: true }) maxAmount?: Decimal | null;
  @Field(() => Int, { nullable: true, description: 'Completed payments after which the link takes no more.' }) maxPayments?: number | null;
  @Field(() => Date, { nullable: true }) expiresAt?: Date | null;
  @Field(() => String, { nullable: true }) redirectUrl?: string | null;
}
