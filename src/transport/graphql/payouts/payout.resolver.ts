import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { PayoutService } from '../../../modules/payouts/payout.service';
import type { ReferenceService } from '../../../modules/reference/reference.service';
import { Requires } from '../authorization';
import type { GraphQLContext } from '../context';
import { BalanceTransactionObject } from '../ledger/ledger.types';
import { toConnection } from '../relay';
import { CreatePayoutInput, PayoutConnection, PayoutObject, PayoutReportObject, UpcomingPayoutObject } from './payout.types';

/** The services this file calls (the composition root passes them). */
type UsedServices = { payouts: PayoutService; reference: ReferenceService };

/** Payouts (issue 38): the same service calls as /v1/payouts. */
@Resolver(() => PayoutObject)
export class PayoutResolver {
  constructor(private readonly services: UsedServices) {}

  @Requires('payouts:create')
  @Mutation(() => PayoutObject, { description: 'Pay out part of your available balance to your active payout destination now.' })
  async createPayout(@Arg('input', () => CreatePayoutInput) input: CreatePayoutInput, @Ctx() ctx: GraphQLContext): Promise<PayoutObject> {
    return PayoutObject.from(await this.services.payouts.createManual(ctx.auth.merchantId, input), this.services.reference);
  }

  @Requires('balances:read')
  @Query(() => PayoutObject, { description: 'One of your payouts, by its id (po_…).' })
  async payout(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<PayoutObject> {
    return PayoutObject.from(await this.services.payouts.get(ctx.auth.merchantId, id), this.services.reference);
  }

  @Requires('balances:read')
  @Query(() => UpcomingPayoutObject, { description: 'Your next automatic payout in a currency: when, and what it would pay were its window to close now.' })
  async upcomingPayout(@Arg('currency', () => String) currency: string, @Ctx() ctx: GraphQLContext): Promise<UpcomingPayoutObject> {
    return UpcomingPayoutObject.from(await this.services.payouts.upcoming(ctx.auth.merchantId, { currency }), this.services.reference);
  }

  @Requires('balances:read')
  @Query(() => PayoutConnection, { description: 'Your payouts, newest first.' })
  async payouts(
    @Ctx() ctx: GraphQLContext,
    @Arg('first', () => Int, { nullable: true }) first?: number,
    @Arg('after', () => String, { nullable: true }) after?: string,
    @Arg('currency', () => String, { nullable: true }) currency?: string,
  ): Promise<PayoutConnection> {
    const page = await this.services.payouts.list(ctx.auth.merchantId, { limit: first, after, currency });
    return toConnection(page, (p) => PayoutObject.from(p, this.services.reference));
  }

  @FieldResolver(() => [BalanceTransactionObject], { description: 'The balance transactions an automatic payout settles, in posting order.' })
  async balanceTransactions(@Root() payout: PayoutObject, @Ctx() ctx: GraphQLContext): Promise<BalanceTransactionObject[]> {
    const entries = await this.services.payouts.balanceTransactions(ctx.auth.merchantId, payout.id);
    return entries.map((e) => BalanceTransactionObject.from(e, this.services.reference));
  }

  @FieldResolver(() => PayoutReportObject, { description: 'What it pays, itemised: net equals its amount.' })
  async report(@Root() payout: PayoutObject, @Ctx() ctx: GraphQLContext): Promise<PayoutReportObject> {
    const { report } = await this.services.payouts.report(ctx.auth.merchantId, payout.id);
    return PayoutReportObject.from(report, this.services.reference);
  }
}
