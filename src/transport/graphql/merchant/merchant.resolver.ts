import { Ctx, Query, Resolver } from 'type-graphql';
import type { Services } from '../../../container';
import type { GraphQLContext } from '../context';
import { MerchantType } from './merchant.type';

@Resolver(() => MerchantType)
export class MerchantResolver {
  constructor(private readonly services: Services) {}

  @Query(() => MerchantType, { description: 'The merchant the access token belongs to.' })
  async merchant(@Ctx() ctx: GraphQLContext): Promise<MerchantType> {
    return MerchantType.from(await this.services.merchants.getMerchant(ctx.auth.merchantId));
  }
}
