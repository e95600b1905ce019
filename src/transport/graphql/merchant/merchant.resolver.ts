import { Ctx, Query, Resolver } from 'type-graphql';
import type { Services } from '../../../container';
import type { GraphQLContext } from '../context';
import { MerchantObject } from './merchant.types';

@Resolver(() => MerchantObject)
export class MerchantResolver {
  constructor(private readonly services: Services) {}

  @Query(() => MerchantObject, { description: 'The merchant the access token belongs to.' })
  async merchant(@Ctx() ctx: GraphQLContext): Promise<MerchantObject> {
    return MerchantObject.from(await this.services.merchants.getMerchant(ctx.auth.merchantId));
  }
}
