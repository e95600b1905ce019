import { Arg, Ctx, Field, InputType, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import type { CheckoutSettings, CheckoutSettingsCommand } from '../../../modules/merchants/checkout-settings';
import type { MerchantService } from '../../../modules/merchants/merchant.service';
import { Requires } from '../authorization';
import { auditOf, type GraphQLContext } from '../context';

/** The services this file calls (the composition root passes them). */
type UsedServices = { merchants: MerchantService };

@ObjectType('CheckoutSettings', { description: 'How your hosted checkout page looks, and where it may be framed.' })
export class CheckoutSettingsObject implements CheckoutSettings {
  @Field(() => String, {
    nullable: true,
    description: 'Where this service serves your logo (PUBLIC_BASE_URL/checkout/logos/{sha256}), shown on your checkout page; null: your name only.',
  })
  logoUrl!: string | null;

  @Field(() => [String], { description: 'Origins allowed to frame your checkout page (its frame-ancestors); empty: none may.' })
  embedOrigins!: string[];
}

@InputType('CheckoutSettingsInput', { description: 'A field left out stays as it is; null clears it.' })
export class CheckoutSettingsInput implements CheckoutSettingsCommand {
  @Field(() => String, {
    nullable: true,
    description: 'The image itself, base64: a PNG or JPEG (checked by its content) of at most 50 KB, kept and served by this service.',
  })
  logo?: string | null;
  @Field(() => [String], { nullable: true, description: 'Origins exactly as browsers send them, e.g. "https://shop.example"; at most 10.' })
  embedOrigins?: string[] | null;
}

/** The hosted checkout page's settings (issue 37). */
@Resolver()
export class CheckoutSettingsResolver {
  private readonly services: UsedServices;

  constructor({ services }: { services: UsedServices }) {
    this.services = services;
  }

  @Requires('transactions:read')
  @Query(() => CheckoutSettingsObject)
  async checkoutSettings(@Ctx() ctx: GraphQLContext): Promise<CheckoutSettingsObject> {
    return Object.assign(new CheckoutSettingsObject(), await this.services.merchants.checkoutSettings(ctx.auth.merchantId));
  }

  @Requires('payments:create')
  @Mutation(() => CheckoutSettingsObject)
  async updateCheckoutSettings(
    @Arg('input', () => CheckoutSettingsInput) input: CheckoutSettingsInput,
    @Ctx() ctx: GraphQLContext,
  ): Promise<CheckoutSettingsObject> {
    return Object.assign(new CheckoutSettingsObject(), await this.services.merchants.setCheckoutSettings(ctx.auth.merchantId, input, auditOf(ctx)));
  }
}
