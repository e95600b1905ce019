import { Ctx, Query, Resolver } from 'type-graphql';
import type { PaymentsEnv } from '../../../config';
import type { MerchantService } from '../../../modules/merchants/merchant.service';
import { EnvironmentEnum } from '../enums';
import type { GraphQLContext } from '../context';
import { MerchantObject } from './merchant.types';
import { Requires, ANY_CALLER, SIGNED_IN } from '../authorization';

/** The services this file calls (the composition root passes them). */
type UsedServices = { merchants: MerchantService };

@Resolver(() => MerchantObject)
export class MerchantResolver {
  private readonly services: UsedServices;
  private readonly env: PaymentsEnv;

  /** `env`: sandbox-only operations refuse elsewhere. */
  constructor({ services, env }: { services: UsedServices; env: PaymentsEnv }) {
    this.services = services;
    this.env = env;
  }

  @Requires(ANY_CALLER)
  @Query(() => EnvironmentEnum, { description: 'Which environment this service is: sandbox-only operations exist only in SANDBOX.' })
  environment(): PaymentsEnv {
    return this.env;
  }

  @Requires(SIGNED_IN)
  @Query(() => MerchantObject, { description: 'The merchant the access token belongs to.' })
  async merchant(@Ctx() ctx: GraphQLContext): Promise<MerchantObject> {
    const merchant = await this.services.merchants.getMerchant(ctx.auth.merchantId);
    return MerchantObject.from(merchant, this.services.merchants.webhookSecretOverlapUntil(merchant));
  }
}
