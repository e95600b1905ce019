import type { Quote } from '../../../modules/rates/rates.service';
import { roundMoney, toJsonMoney } from '../../../shared/money';

/** A quote as REST shows it: money as exact JSON numbers (like every REST amount), the rate with up to 8 decimals. */
export function serializeQuote(quote: Quote) {
  return {
    quote_id: quote.id,
    source_currency: quote.sourceCurrency,
    destination_currency: quote.destinationCurrency,
    rate: toJsonMoney(quote.rate),
    source_amount: toJsonMoney(roundMoney(quote.sourceAmount, quote.sourceMinorUnit, 'half_up')),
    destination_amount: toJsonMoney(roundMoney(quote.destinationAmount, quote.destinationMinorUnit, 'half_up')),
    fee: toJsonMoney(roundMoney(quote.fee, quote.sourceMinorUnit, 'half_up')),
    created_at: quote.createdAt.toISOString(),
    expires_at: quote.expiresAt.toISOString(),
  };
}
