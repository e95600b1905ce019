import type { Quote } from '../../../modules/rates/rates.service';
import { formatAmount } from '../../../shared/money';

/** A quote as REST shows it: amounts as strings to the currency's minor unit, the rate with up to 8 decimals. */
export function serializeQuote(quote: Quote) {
  return {
    quote_id: quote.id,
    source_currency: quote.sourceCurrency,
    destination_currency: quote.destinationCurrency,
    rate: quote.rate.toFixed(),
    source_amount: formatAmount(quote.sourceAmount, quote.sourceMinorUnit),
    destination_amount: formatAmount(quote.destinationAmount, quote.destinationMinorUnit),
    fee: formatAmount(quote.fee, quote.sourceMinorUnit),
    created_at: quote.createdAt.toISOString(),
    expires_at: quote.expiresAt.toISOString(),
  };
}
