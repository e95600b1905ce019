import { Field, ID, ObjectType } from 'type-graphql';
import type { Quote } from '../../../modules/rates/rates.service';
import { formatAmount } from '../../../shared/money';
import { DecimalScalar } from '../scalars';

@ObjectType('Quote', { description: 'A priced conversion, valid for 60 seconds; a transfer can lock it by quoteId.' })
export class QuoteObject {
  @Field(() => ID, { description: '"qt_" + 24 hex characters.' })
  quoteId!: string;

  @Field(() => String)
  sourceCurrency!: string;

  @Field(() => String)
  destinationCurrency!: string;

  @Field(() => DecimalScalar, { description: 'Destination units per source unit, after the spread; up to 8 decimals.' })
  rate!: string;

  @Field(() => DecimalScalar)
  sourceAmount!: string;

  @Field(() => DecimalScalar, { description: "sourceAmount × rate, rounded down to the destination currency's minor unit." })
  destinationAmount!: string;

  @Field(() => DecimalScalar, { description: 'In the source currency, charged on top of sourceAmount.' })
  fee!: string;

  @Field(() => Date)
  createdAt!: Date;

  @Field(() => Date)
  expiresAt!: Date;

  static from(quote: Quote): QuoteObject {
    return Object.assign(new QuoteObject(), {
      quoteId: quote.id,
      sourceCurrency: quote.sourceCurrency,
      destinationCurrency: quote.destinationCurrency,
      rate: quote.rate.toFixed(),
      sourceAmount: formatAmount(quote.sourceAmount, quote.sourceMinorUnit),
      destinationAmount: formatAmount(quote.destinationAmount, quote.destinationMinorUnit),
      fee: formatAmount(quote.fee, quote.sourceMinorUnit),
      createdAt: quote.createdAt,
      expiresAt: quote.expiresAt,
    });
  }
}
