import { z } from 'zod';
import { roundMoney, toJsonMoney } from '../../shared/money';
import { currency, money, record, timestamp, type RecordOf } from '../../shared/records';
import type { Quote } from './rates.service';

export const QuoteRecord = record(
  'Quote',
  z.object({
    quote_id: z.string().describe('Pass it as a transfer’s quote_id within 60 seconds to lock this rate, fee and destination amount'),
    source_currency: currency,
    destination_currency: currency,
    rate: z.number().describe('Up to 8 decimals') as unknown as z.ZodType<number | string>,
    source_amount: money,
    destination_amount: money,
    fee: money,
    created_at: timestamp,
    expires_at: timestamp,
  }),
);

/** A quote as REST shows it: money as exact JSON numbers (like every REST amount), the rate with up to 8 decimals. */
export function serializeQuote(quote: Quote): RecordOf<typeof QuoteRecord> {
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
