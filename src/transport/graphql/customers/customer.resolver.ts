import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { CustomerService } from '../../../modules/customers/customer.service';
import type { KycService } from '../../../modules/kyc/kyc.service';
import type { GraphQLContext } from '../context';
import { toConnection } from '../relay';
import { CustomerConnection, CustomerObject, EnrollCustomerInput, KycObject, SubmitKycInput } from './customer.types';
import { Requires } from '../authorization';

/** The services this file calls (the composition root passes them). */
type UsedServices = { customers: CustomerService; kyc: KycService };

@Resolver()
export class CustomerResolver {
  constructor(private readonly services: UsedServices) {}

  @Requires('customers:read')
  @Query(() => CustomerObject, { description: 'One of your customers, by customer_uuid.' })
  async customer(@Arg('uuid', () => String) uuid: string, @Ctx() ctx: GraphQLContext): Promise<CustomerObject> {
    return CustomerObject.from(await this.services.customers.getCustomer(ctx.auth.merchantId, uuid));
  }

  @Requires('customers:read')
  @Query(() => CustomerConnection, { description: 'Your customers, newest first.' })
  async customers(
    @Ctx() ctx: GraphQLContext,
    @Arg('first', () => Int, { nullable: true }) first?: number,
    @Arg('after', () => String, { nullable: true }) after?: string,
  ): Promise<CustomerConnection> {
    const page = await this.services.customers.listCustomers(ctx.auth.merchantId, { limit: first, after });
    return toConnection(page, CustomerObject.from);
  }

  @Requires('customers:read')
  @Query(() => KycObject)
  async kyc(@Arg('customerUuid', () => String) customerUuid: string, @Ctx() ctx: GraphQLContext): Promise<KycObject> {
    return KycObject.from(await this.services.kyc.getKyc(ctx.auth.merchantId, customerUuid));
  }

  @Requires('customers:write')
  @Mutation(() => CustomerObject)
  async enrollCustomer(@Arg('input', () => EnrollCustomerInput) input: EnrollCustomerInput, @Ctx() ctx: GraphQLContext): Promise<CustomerObject> {
    return CustomerObject.from(await this.services.customers.enrollCustomer(ctx.auth.merchantId, input));
  }

  @Requires('customers:write')
  @Mutation(() => KycObject, { description: 'Submit (or, after a rejection, resubmit) KYC; the review decides it later.' })
  async submitKyc(
    @Arg('customerUuid', () => String) customerUuid: string,
    @Arg('input', () => SubmitKycInput) input: SubmitKycInput,
    @Ctx() ctx: GraphQLContext,
  ): Promise<KycObject> {
    return KycObject.from(await this.services.kyc.submitKyc(ctx.auth.merchantId, customerUuid, input));
  }
}
