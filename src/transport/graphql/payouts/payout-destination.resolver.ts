import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { PayoutDestinationService } from '../../../modules/payouts/destinations/destination.service';
import { Requires } from '../authorization';
import type { GraphQLContext } from '../context';
import { AddPayoutDestinationInput, PayoutDestinationObject } from './payout-destination.types';

/** The services this file calls (the composition root passes them). */
type UsedServices = { payoutDestinations: PayoutDestinationService };

/** Payout destinations: the same service calls as /v1/payout-destinations. */
@Resolver()
export class PayoutDestinationResolver {
  constructor(private readonly services: UsedServices) {}

  @Requires('payouts:manage')
  @Query(() => [PayoutDestinationObject], { description: 'Where your payouts go: every destination, newest first, with pending changes.' })
  async payoutDestinations(@Ctx() ctx: GraphQLContext): Promise<PayoutDestinationObject[]> {
    return (await this.services.payoutDestinations.list(ctx.auth)).map(PayoutDestinationObject.from);
  }

  @Requires('payouts:manage')
  @Query(() => PayoutDestinationObject, { description: 'One payout destination. NOT_FOUND: none of yours.' })
  async payoutDestination(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<PayoutDestinationObject> {
    return PayoutDestinationObject.from(await this.services.payoutDestinations.get(ctx.auth, id));
  }

  @Requires('payouts:manage')
  @Mutation(() => PayoutDestinationObject, {
    description:
      'Add a bank account or wallet whose holder is your business: active at once if it is the currency’s first, else a change pending approval ' +
      '(or a 24-hour cooling-off when you are the only member with payouts:manage). BENEFICIARY_NAME_MISMATCH: nothing stored.',
  })
  async addPayoutDestination(@Arg('input', () => AddPayoutDestinationInput) input: AddPayoutDestinationInput, @Ctx() ctx: GraphQLContext) {
    return PayoutDestinationObject.from(await this.services.payoutDestinations.add({ auth: ctx.auth, origin: ctx.origin }, input));
  }

  @Requires('payouts:manage')
  @Mutation(() => PayoutDestinationObject, { description: 'Approve a pending change (not your own): it becomes the destination now.' })
  async approvePayoutDestination(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<PayoutDestinationObject> {
    return PayoutDestinationObject.from(await this.services.payoutDestinations.approve({ auth: ctx.auth, origin: ctx.origin }, id));
  }

  @Requires('payouts:manage')
  @Mutation(() => PayoutDestinationObject, { description: 'Cancel a pending change: the current destination stays.' })
  async cancelPayoutDestination(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<PayoutDestinationObject> {
    return PayoutDestinationObject.from(await this.services.payoutDestinations.cancel({ auth: ctx.auth, origin: ctx.origin }, id));
  }
}
