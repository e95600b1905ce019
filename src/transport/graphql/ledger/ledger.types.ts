import { Field, Float, InputType, Int, ObjectType } from 'type-graphql';
import { BALANCE_TRANSACTION } from '../../../modules/ledger/balance-transaction.definition';
import type { ReferenceService } from '../../../modules/reference/reference.service';
import { formatAmount, type Decimal } from '../../../shared/money';
import { BALANCE_TRANSACTION_TYPES, type BalanceTransactionType } from '../../../modules/ledger/ledger.model';
import type { Activity, Balance, BalanceTransactionListQuery } from '../../../modules/ledger/ledger.service';
import type { FundingCommand } from '../../../modules/transactions/kinds/funding/funding.service';
import type { RefundCommand } from '../../../modules/transactions/kinds/refund/refund.service';
import { domainEnum } from '../enums';
import { objectTypeOf } from '../record-types';
import { Connection } from '../relay';
import { DecimalScalar } from '../scalars';

type MinorUnits = Pick<ReferenceService, 'currencyMinorUnit'>;

/** With exactly the currency's decimals ("100.00", "3700"). */
function money(amount: Decimal, currency: string, units: MinorUnits): string {
  const minorUnit = units.currencyMinorUnit(currency);
  return minorUnit === undefined ? amount.toFixed() : formatAmount(amount, minorUnit);
}

const BalanceTransactionTypeEnum = domainEnum(BALANCE_TRANSACTION_TYPES, 'BalanceTransactionType', 'What moved a balance.');

@ObjectType('Balance', { description: 'Your balance in one currency.' })
export class BalanceObject {
  @Field(() => String) currency!: string;
  @Field(() => DecimalScalar, { description: 'Yours to pay out and refund from.' }) available!: string;
  @Field(() => DecimalScalar, { description: 'Settled collections and payments not yet released (the settlement delay).' }) pending!: string;
  @Field(() => DecimalScalar, { description: 'Held for transfers and refunds in flight.' }) reserved!: string;
  @Field(() => DecimalScalar, { description: 'Held by open chargebacks: their amounts and dispute fees.' }) disputed!: string;
  @Field(() => DecimalScalar, { description: 'What you owe: the part of a chargeback’s hold your available balance could not cover. Credits repay it first.' })
  owed!: string;

  static from(b: Balance, units: MinorUnits): BalanceObject {
    return Object.assign(new BalanceObject(), {
      currency: b.currency,
      available: money(b.available, b.currency, units),
      pending: money(b.pending, b.currency, units),
      reserved: money(b.reserved, b.currency, units),
      disputed: money(b.disputed, b.currency, units),
      owed: money(b.owed, b.currency, units),
    });
  }
}

/** The BalanceTransaction type, generated from its definition (modules/ledger/balance-transaction.definition.ts). */
export const BalanceTransactionObject = objectTypeOf(BALANCE_TRANSACTION, { units: true, enums: { BalanceTransactionType: BalanceTransactionTypeEnum } });
export type BalanceTransactionObject = InstanceType<typeof BalanceTransactionObject>;

@ObjectType('BalanceTransactionConnection')
export class BalanceTransactionConnection extends Connection(BalanceTransactionObject, 'BalanceTransaction') {}

@InputType('BalanceTransactionFilter', { description: 'Every given condition must hold.' })
export class BalanceTransactionFilter implements Pick<BalanceTransactionListQuery, 'currency' | 'type' | 'createdFrom' | 'createdTo'> {
  @Field(() => String, { nullable: true }) currency?: string | null;
  @Field(() => BalanceTransactionTypeEnum, { nullable: true }) type?: BalanceTransactionType | null;
  @Field(() => Date, { nullable: true, description: 'At or after this time.' }) createdFrom?: Date | null;
  @Field(() => Date, { nullable: true, description: 'Before this time.' }) createdTo?: Date | null;
}

@InputType('RefundPaymentInput')
export class RefundPaymentInput implements RefundCommand {
  @Field(() => String, { description: 'The payment’s reference ("pay_…") or your own.' }) paymentReference!: string;
  @Field(() => DecimalScalar, { nullable: true, description: 'At most what is left to refund; omitted: all of it.' }) amount?: unknown;
  @Field(() => String) reason!: string;
  @Field(() => String, { description: 'Your own reference for the refund, unique across your transactions.' }) reference!: string;
}

@InputType('FundBalanceInput', { description: 'A funding of your own balance: an account to pay into by bank transfer (POST /v1/balance/funding).' })
export class FundBalanceInput implements FundingCommand {
  @Field(() => String, { description: 'The currency to fund, e.g. NGN.' }) currency!: string;
  @Field(() => DecimalScalar, { description: 'What you will pay in, within the currency’s bank channel bounds.' }) amount!: unknown;
  @Field(() => String, { description: 'Your own reference for the funding, unique across your transactions.' }) reference!: string;
}

@ObjectType('ActivityDay', { description: 'One day (UTC) of successful money in and out, in one currency.' })
export class ActivityDayObject {
  @Field(() => String, { description: 'YYYY-MM-DD' }) day!: string;
  @Field(() => String) currency!: string;
  @Field(() => DecimalScalar, { description: 'Collections and card payments.' }) collected!: string;
  @Field(() => DecimalScalar, { description: 'Transfers (their source amount) and refunds.' }) paidOut!: string;
}

@ObjectType('Activity', { description: 'Your recent activity: daily volume, and how many transactions that reached a final status succeeded.' })
export class ActivityObject {
  @Field(() => [ActivityDayObject]) days!: ActivityDayObject[];
  @Field(() => Int) finalCount!: number;
  @Field(() => Int) successfulCount!: number;
  @Field(() => Float, { nullable: true, description: 'successfulCount / finalCount; null when nothing reached a final status.' }) successRate!: number | null;

  static from(a: Activity, units: MinorUnits): ActivityObject {
    return Object.assign(new ActivityObject(), {
      days: a.days.map((d) =>
        Object.assign(new ActivityDayObject(), {
          day: d.day,
          currency: d.currency,
          collected: money(d.collected, d.currency, units),
          paidOut: money(d.paidOut, d.currency, units),
        }),
      ),
      finalCount: a.final,
      successfulCount: a.successful,
      successRate: a.final === 0 ? null : a.successful / a.final,
    });
  }
}
