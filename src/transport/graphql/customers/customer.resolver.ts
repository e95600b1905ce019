import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { Services } from '../../../container';
import type { GraphQLContext } from '../context';
import { toConnection } from '../relay';
import { CustomerConnection, CustomerType, EnrollCustomerInput, KycType, SubmitKycInput } from './customer.types';

@Resolver()
export class CustomerResolver {
  constructor(private readonly services: Services) {}

  @Query(() => CustomerType, { description: 'One of your customers, by customer_uuid.' })
  async customer(@Arg('uuid', () => String) uuid: string, @Ctx() ctx: GraphQLContext): Promise<CustomerType> {
    return CustomerType.from(await this.services.customers.getCustomer(ctx.auth.merchantId, uuid));
  }

  @Query(() => CustomerConnection, { description: 'Your customers, newest first.' })
  async customers(
    @Ctx() ctx: GraphQLContext,
    @Arg('first', () => Int, { nullable: true }) first?: number,
    @Arg('after', () => String, { nullable: true }) after?: string,
  ): Promise<CustomerConnection> {
    const page = await this.services.customers.listCustomers(ctx.auth.merchantId, { limit: first ?? undefined, after: after ?? undefined });
    return toConnection(page, CustomerType.from);
  }

  @Query(() => KycType)
  async kyc(@Arg('customerUuid', () => String) customerUuid: string, @Ctx() ctx: GraphQLContext): Promise<KycType> {
    return KycType.from(await this.services.kyc.getKyc(ctx.auth.merchantId, customerUuid));
  }

  @Mutation(() => CustomerType)
  async enrollCustomer(@Arg('input', () => EnrollCustomerInput) input: EnrollCustomerInput, @Ctx() ctx: GraphQLContext): Promise<CustomerType> {
    return CustomerType.from(await this.services.customers.enrollCustomer(ctx.auth.merchantId, input.toServiceInput()));
  }

  @Mutation(() => KycType, { description: 'Submit (or, after a rejection, resubmit) KYC; the review decides it later.' })
  async submitKyc(
    @Arg('customerUuid', () => String) customerUuid: string,
    @Arg('input', () => SubmitKycInput) input: SubmitKycInput,
    @Ctx() ctx: GraphQLContext,
  ): Promise<KycType> {
    return KycType.from(await this.services.kyc.submitKyc(ctx.auth.merchantId, customerUuid, input.toServiceInput()));
  }
}
