import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import type { RatesService } from '../../../modules/rates/rates.service';
import type { Decimal } from '../../../shared/money';
import type { GraphQLContext } from '../context';
import { DecimalScalar } from '../scalars';
import { QuoteObject } from './rates.types';
import { Requires } from '../authorization';

/** The services this file calls (the composition root passes them). */
type UsedServices = { rates: RatesService };

/** FX quotes; the same service call as GET /v1/crossborder/rates. */
@Resolver()
export class RatesResolver {
  constructor(private readonly services: UsedServices) {}

  @Requires('rates:read')
  @Query(() => QuoteObject, { description: 'Prices a conversion now and stores it as a quote valid for 60 seconds.' })
  async rate(
    @Ctx() ctx: GraphQLContext,
    @Arg('sourceCurrency', () => String) sourceCurrency: string,
    @Arg('destinationCurrency', () => String) destinationCurrency: string,
    @Arg('amount', () => DecimalScalar) amount: Decimal,
  ): Promise<QuoteObject> {
    const quote = await this.services.rates.createQuote(ctx.auth.merchantId, { sourceCurrency, destinationCurrency, amount });
    return QuoteObject.from(quote);
  }
}
