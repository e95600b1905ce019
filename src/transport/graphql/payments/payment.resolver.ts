import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { PaymentService } from '../../../modules/transactions/kinds/payment/payment.service';
import type { ReferenceService } from '../../../modules/reference/reference.service';
import type { GraphQLContext } from '../context';
import { TransactionObject } from '../transactions/transaction.types';
import { InitiatePaymentInput } from './payment.types';
import { Requires } from '../authorization';

/** The services this file calls (the composition root passes them). */
type UsedServices = { payments: PaymentService; reference: ReferenceService };

/** Domestic card payments; the same service calls as /v1/payments/initiate and /v1/payments/verify/{reference}. */
@Resolver()
export class PaymentResolver {
  constructor(private readonly services: UsedServices) {}

  @Requires('payments:create')
  @Mutation(() => TransactionObject, {
    description:
      'Charge a card. Answers SUCCESSFUL or FAILED (failureReason), or REQUIRES_ACTION with nextAction: send the cardholder to nextAction.url (3-D Secure).',
  })
  async initiatePayment(@Arg('input', () => InitiatePaymentInput) input: InitiatePaymentInput, @Ctx() ctx: GraphQLContext): Promise<TransactionObject> {
    return TransactionObject.from(await this.services.payments.initiatePayment(ctx.auth.merchantId, input), this.services.reference);
  }

  @Requires('transactions:read')
  @Query(() => TransactionObject, {
    description:
      'A payment’s current record, by the service’s reference or yours: confirm the outcome here (or by webhook), not by the redirect. A read, so a query.',
  })
  async verifyPayment(@Arg('reference', () => String) reference: string, @Ctx() ctx: GraphQLContext): Promise<TransactionObject> {
    return TransactionObject.from(await this.services.payments.verifyPayment(ctx.auth.merchantId, reference), this.services.reference);
  }
}
