import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { CheckoutService } from '../../../modules/checkout/checkout.service';
import type { PaymentLinkService } from '../../../modules/checkout/payment-link.service';
import type { ReferenceService } from '../../../modules/reference/reference.service';
import { Requires } from '../authorization';
import { auditOf, type GraphQLContext } from '../context';
import { toConnection } from '../relay';
import { CheckoutSessionObject, CreateCheckoutSessionInput, CreatePaymentLinkInput, PaymentLinkConnection, PaymentLinkObject } from './checkout.types';

/** The services this file calls (the composition root passes them). */
type UsedServices = { checkout: CheckoutService; paymentLinks: PaymentLinkService; reference: ReferenceService };

/** Hosted checkout sessions and payment links (issue 37); the same service calls as /v1/checkout/sessions and /v1/payment-links. */
@Resolver()
export class CheckoutResolver {
  constructor(private readonly services: UsedServices) {}

  @Requires('payments:create')
  @Mutation(() => CheckoutSessionObject, {
    description: 'Open a hosted checkout session: send the payer to its url. Completion comes by webhook (checkout.session.completed).',
  })
  async createCheckoutSession(
    @Arg('input', () => CreateCheckoutSessionInput) input: CreateCheckoutSessionInput,
    @Ctx() ctx: GraphQLContext,
  ): Promise<CheckoutSessionObject> {
    return CheckoutSessionObject.from(await this.services.checkout.createSession(ctx.auth.merchantId, input), this.services.reference);
  }

  @Requires('transactions:read')
  @Query(() => CheckoutSessionObject, { description: 'One of your checkout sessions, by its id (cs_…).' })
  async checkoutSession(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<CheckoutSessionObject> {
    return CheckoutSessionObject.from(await this.services.checkout.getSession(ctx.auth.merchantId, id), this.services.reference);
  }

  @Requires('payments:create')
  @Mutation(() => PaymentLinkObject, { description: 'Make a payment link; each visit to its url opens a checkout session.' })
  async createPaymentLink(@Arg('input', () => CreatePaymentLinkInput) input: CreatePaymentLinkInput, @Ctx() ctx: GraphQLContext): Promise<PaymentLinkObject> {
    return PaymentLinkObject.from(await this.services.paymentLinks.createLink(ctx.auth.merchantId, input, auditOf(ctx)), this.services.reference);
  }

  @Requires('payments:create')
  @Mutation(() => PaymentLinkObject, { description: 'Deactivate a payment link for good; sessions already open may still be paid.' })
  async deactivatePaymentLink(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<PaymentLinkObject> {
    return PaymentLinkObject.from(await this.services.paymentLinks.deactivateLink(ctx.auth.merchantId, id, auditOf(ctx)), this.services.reference);
  }

  @Requires('transactions:read')
  @Query(() => PaymentLinkObject, { description: 'One of your payment links, by its id (plink_…).' })
  async paymentLink(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<PaymentLinkObject> {
    return PaymentLinkObject.from(await this.services.paymentLinks.getLink(ctx.auth.merchantId, id), this.services.reference);
  }

  @Requires('transactions:read')
  @Query(() => PaymentLinkConnection, { description: 'Your payment links, newest first.' })
  async paymentLinks(
    @Ctx() ctx: GraphQLContext,
    @Arg('first', () => Int, { nullable: true }) first?: number,
    @Arg('after', () => String, { nullable: true }) after?: string,
  ): Promise<PaymentLinkConnection> {
    const page = await this.services.paymentLinks.listLinks(ctx.auth.merchantId, { limit: first, after });
    return toConnection(page, (l) => PaymentLinkObject.from(l, this.services.reference));
  }
}
