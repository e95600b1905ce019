import { Arg, Ctx, Field, InputType, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import type { PayoutScheduleService, PayoutScheduleView } from '../../../modules/payouts/schedule/payout-schedule.service';
import type { PayoutInterval, Weekday } from '../../../modules/payouts/schedule/schedule.rules';
import type { UpdateScheduleCommand } from '../../../modules/payouts/schedule/schedule.schemas';
import type { Decimal } from '../../../shared/money';
import { Requires } from '../authorization';
import { auditOf, type GraphQLContext } from '../context';
import { PayoutIntervalEnum, WeekdayEnum } from '../enums';
import { DecimalScalar } from '../scalars';

/** The services this file calls (the composition root passes them). */
type UsedServices = { payoutSchedules: PayoutScheduleService };

@ObjectType('PayoutSchedule', { description: 'When your balance in one currency is paid out to you (docs/payouts.md, “Schedules”).' })
class PayoutScheduleObject {
  @Field(() => String) currency!: string;
  @Field(() => PayoutIntervalEnum) interval!: PayoutInterval;
  @Field(() => WeekdayEnum, { nullable: true, description: 'Weekly: the weekday of the cut-off.' }) weeklyAnchor!: Weekday | null;
  @Field(() => Int, { nullable: true, description: 'Monthly: the date of the cut-off; a month without it pays on its last day.' })
  monthlyAnchor!: number | null;
  @Field(() => Int, { description: 'A balance change is paid in the first window whose cut-off is at least this many days after it was posted.' })
  delayDays!: number;
  @Field(() => String, { description: 'HH:MM (24 h) in timeZone: a window closes then.' }) cutoffTime!: string;
  @Field(() => String, { description: 'An IANA time zone, e.g. Africa/Lagos.' }) timeZone!: string;
  @Field(() => DecimalScalar, { description: 'The least paid out at once in this currency (the service’s configuration).' }) minimumAmount!: Decimal;
  @Field(() => Date, { nullable: true, description: 'The next cut-off; null for a manual schedule.' }) nextPayoutAt!: Date | null;
  @Field(() => Boolean, { description: 'true: you have not set a schedule in this currency, and this is the default.' }) isDefault!: boolean;

  static from({ schedule: s, nextPayoutAt, isDefault }: PayoutScheduleView): PayoutScheduleObject {
    return Object.assign(new PayoutScheduleObject(), {
      currency: s.currency,
      interval: s.interval,
      weeklyAnchor: s.weeklyAnchor,
      monthlyAnchor: s.monthlyAnchor,
      delayDays: s.delayDays,
      cutoffTime: s.cutoffTime,
      timeZone: s.timeZone,
      minimumAmount: s.minimumAmount,
      nextPayoutAt,
      isDefault,
    });
  }
}

@InputType('PayoutScheduleInput', {
  description: 'interval is always given; a field left out keeps its current value. An anchor given with another interval is refused.',
})
class PayoutScheduleInput implements UpdateScheduleCommand {
  @Field(() => String) currency!: string;
  @Field(() => PayoutIntervalEnum) interval!: PayoutInterval;
  @Field(() => WeekdayEnum, { nullable: true }) weeklyAnchor?: Weekday | null;
  @Field(() => Int, { nullable: true, description: '1 to 31.' }) monthlyAnchor?: number | null;
  @Field(() => Int, { nullable: true, description: '0 to 30.' }) delayDays?: number;
  @Field(() => String, { nullable: true, description: 'HH:MM (24 h).' }) cutoffTime?: string;
  @Field(() => String, { nullable: true, description: 'An IANA time zone.' }) timeZone?: string;
}

/** Payout schedules (issue 38): the same service calls as REST's. */
@Resolver()
export class PayoutScheduleResolver {
  constructor(private readonly services: UsedServices) {}

  @Requires('balances:read')
  @Query(() => PayoutScheduleObject, { description: 'Your payout schedule in one currency, or the default (GET /v1/payout-schedule).' })
  async payoutSchedule(@Arg('currency', () => String) currency: string, @Ctx() ctx: GraphQLContext): Promise<PayoutScheduleObject> {
    return PayoutScheduleObject.from(await this.services.payoutSchedules.view(ctx.auth.merchantId, { currency }));
  }

  @Requires('payouts:manage')
  @Mutation(() => PayoutScheduleObject, { description: 'Sets your payout schedule in one currency (PUT /v1/payout-schedule; audited). People only.' })
  async updatePayoutSchedule(@Arg('input', () => PayoutScheduleInput) input: PayoutScheduleInput, @Ctx() ctx: GraphQLContext): Promise<PayoutScheduleObject> {
    return PayoutScheduleObject.from(await this.services.payoutSchedules.update(ctx.auth.merchantId, stripNulls(input), auditOf(ctx)));
  }
}

/** GraphQL's null for an optional field means "left out" here, as REST's absent field does. */
function stripNulls(input: PayoutScheduleInput): UpdateScheduleCommand {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined)) as UpdateScheduleCommand;
}
