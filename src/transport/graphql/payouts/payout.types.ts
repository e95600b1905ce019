import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import type { CreatePayoutCommand, UpcomingPayout } from '../../../modules/payouts/payout.service';
import type { PayoutReport } from '../../../modules/payouts/payout.report';
import type { ReferenceService } from '../../../modules/reference/reference.service';
import { PAYOUT_STATUSES, type Payout, type PayoutStatus } from '../../../modules/transactions/kinds/payout/payout.record';
import { formatAmount, type Decimal } from '../../../shared/money';
import { ChannelTypeEnum, domainEnum } from '../enums';
import { Connection } from '../relay';
import { DecimalScalar } from '../scalars';

const PayoutStatusEnum = domainEnum(PAYOUT_STATUSES, 'PayoutStatus', 'PENDING, IN_TRANSIT, then PAID, FAILED (its money back) or CANCELED (never sent).');

type MinorUnits = Pick<ReferenceService, 'currencyMinorUnit'>;
const money = (amount: Decimal, currency: string, units: MinorUnits) => formatAmount(amount, units.currencyMinorUnit(currency) ?? 2);

@ObjectType('PayoutDestinationSnapshot', { description: 'Where a payout went: never the whole account number.' })
export class PayoutDestinationSnapshotObject {
  @Field(() => ChannelTypeEnum) accountType!: 'bank' | 'momo';
  @Field(() => String) countryCode!: string;
  @Field(() => String) networkId!: string;
  @Field(() => String, { nullable: true }) networkName!: string | null;
  @Field(() => String) accountName!: string;
  @Field(() => String, { description: '`••••0031`' }) accountNumberMasked!: string;
}

@ObjectType('Payout', { description: 'A payout of your balance to your own bank account or wallet.' })
export class PayoutObject {
  @Field(() => ID, { description: '`po_…`' }) id!: string;
  @Field(() => DecimalScalar, { description: 'What left your balance.' }) amount!: string;
  @Field(() => DecimalScalar, {
    description: 'Taken from amount; the destination receives amount − fee. 0 once the payout has failed or was canceled: nothing was charged.',
  })
  fee!: string;
  @Field(() => String) currency!: string;
  @Field(() => PayoutStatusEnum) status!: PayoutStatus;
  @Field(() => Boolean, { description: 'Made by your payout schedule (true) or by createPayout (false).' }) automatic!: boolean;
  @Field(() => String, { nullable: true, description: 'An automatic payout’s window: the local date of its cut-off.' }) window!: string | null;
  @Field(() => PayoutDestinationSnapshotObject, { nullable: true }) destination!: PayoutDestinationSnapshotObject | null;
  @Field(() => String, { nullable: true, description: 'The provider’s trace reference.' }) traceReference!: string | null;
  @Field(() => String, { nullable: true, description: 'Its money movement, `pot_…`.' }) transactionReference!: string | null;
  @Field(() => String, { nullable: true }) failureReason!: string | null;
  @Field(() => Date) expectedArrivalAt!: Date;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date, { nullable: true }) completedAt!: Date | null;

  static from(p: Payout, units: MinorUnits): PayoutObject {
    const d = p.destination;
    return Object.assign(new PayoutObject(), {
      ...p,
      amount: money(p.amount, p.currency, units),
      fee: money(p.fee, p.currency, units),
      window: p.windowKey,
      destination: d && Object.assign(new PayoutDestinationSnapshotObject(), { ...d, accountNumberMasked: d.masked }),
    });
  }
}

@ObjectType('PayoutConnection')
export class PayoutConnection extends Connection(PayoutObject, 'Payout') {}

@ObjectType('PayoutReportSummary', { description: 'What a payout pays, itemised: net equals its amount, to the minor unit.' })
export class PayoutReportObject {
  @Field(() => String) currency!: string;
  @Field(() => DecimalScalar) grossCollected!: string;
  @Field(() => DecimalScalar) fees!: string;
  @Field(() => DecimalScalar) refunds!: string;
  @Field(() => DecimalScalar) transfers!: string;
  @Field(() => DecimalScalar) adjustments!: string;
  @Field(() => DecimalScalar) payouts!: string;
  @Field(() => DecimalScalar) carriedIn!: string;
  @Field(() => DecimalScalar) carriedOut!: string;
  @Field(() => DecimalScalar) net!: string;
  @Field(() => Int) balanceTransactions!: number;

  static from(r: PayoutReport, units: MinorUnits): PayoutReportObject {
    const m = (d: Decimal) => money(d, r.currency, units);
    return Object.assign(new PayoutReportObject(), {
      currency: r.currency,
      grossCollected: m(r.grossCollected),
      fees: m(r.fees),
      refunds: m(r.refunds),
      transfers: m(r.transfers),
      adjustments: m(r.adjustments),
      payouts: m(r.payouts),
      carriedIn: m(r.carriedIn),
      carriedOut: m(r.carriedOut),
      net: m(r.net),
      balanceTransactions: r.count,
    });
  }
}

@ObjectType('UpcomingPayout', { description: 'Your next automatic payout in a currency, as things stand.' })
export class UpcomingPayoutObject {
  @Field(() => String) currency!: string;
  @Field(() => Date, { nullable: true, description: 'The next cut-off; null: your schedule is manual.' }) scheduledAt!: Date | null;
  @Field(() => DecimalScalar, { description: 'What it would pay were the window to close now: an estimate.' }) expectedAmount!: string;
  @Field(() => DecimalScalar) minimumAmount!: string;
  @Field(() => String, { nullable: true, description: 'Where it would go (masked); null: no active destination.' }) destination!: string | null;

  static from(u: UpcomingPayout, units: MinorUnits): UpcomingPayoutObject {
    return Object.assign(new UpcomingPayoutObject(), {
      currency: u.currency,
      scheduledAt: u.scheduledAt,
      expectedAmount: money(u.expectedAmount, u.currency, units),
      minimumAmount: money(u.minimum, u.currency, units),
      destination: u.destination && `${u.destination.masked} (${u.destination.accountName})`,
    });
  }
}

@InputType('CreatePayoutInput')
export class CreatePayoutInput implements CreatePayoutCommand {
  @Field(() => String) currency!: string;
  @Field(() => DecimalScalar) amount!: string;
}
