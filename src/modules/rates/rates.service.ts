import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Orm } from '../../db/orm';
import type { Clock } from '../../shared/clock';
import { AppError, type ErrorDetail } from '../../shared/errors';
import { parseAmount, type Decimal } from '../../shared/money';
import { parseInput } from '../../shared/validation';
import type { ReferenceService } from '../reference/reference.service';
import { FxQuote } from './fx-quote.entity';
import { priceQuote, type RateTable } from './rate-table';

/** CONTRACT §5: a quote is valid for 60 seconds. */
export const QUOTE_TTL_MS = 60_000;

export const newQuoteId = () => `qt_${randomBytes(12).toString('hex')}`;

const currencyCodeSchema = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim().toUpperCase() : v),
  z.string({ error: 'is required' }).regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code, e.g. USD'),
);
export const quoteRequestSchema = z.object({
  source_currency: currencyCodeSchema,
  destination_currency: currencyCodeSchema,
  // Read by parseAmount once the source currency (and so its precision) is known.
  amount: z.unknown().optional(),
});

/** A stored quote, with the minor units its amounts are rounded to. */
export interface Quote {
  id: string;
  merchantId: string;
  sourceCurrency: string;
  destinationCurrency: string;
  sourceMinorUnit: number;
  destinationMinorUnit: number;
  sourceAmount: Decimal;
  destinationAmount: Decimal;
  rate: Decimal;
  fee: Decimal;
  createdAt: Date;
  expiresAt: Date;
}

/** Whether a quote can still be used at `now` (it expires at expires_at exactly). */
export function isQuoteLive(quote: Pick<Quote, 'expiresAt'>, now: Date): boolean {
  return now.getTime() < quote.expiresAt.getTime();
}

/** FX quotes: prices a conversion from the sandbox rate table and keeps it 60 s for a transfer to lock. */
export class RatesService {
  constructor(
    private readonly orm: Orm,
    private readonly clock: Clock,
    private readonly reference: ReferenceService,
    private readonly table: RateTable,
  ) {}

  /** A currency is supported when it is a supported country's currency and the rate table prices it. */
  isSupportedCurrency(code: string): boolean {
    return this.reference.currency(code) !== undefined && this.table.mid.has(code);
  }

  /** GET /v1/crossborder/rates, query rate: input { source_currency, destination_currency, amount }. */
  /**
   * Prices a conversion now, without storing a quote: what a transfer without a
   * quote_id pays. The currencies must be supported (isSupportedCurrency).
   */
  priceConversion(sourceCurrency: string, destinationCurrency: string, sourceAmount: Decimal) {
    const sourceMinorUnit = this.reference.currencyMinorUnit(sourceCurrency);
    const destinationMinorUnit = this.reference.currencyMinorUnit(destinationCurrency);
    if (sourceMinorUnit === undefined || destinationMinorUnit === undefined) throw new Error(`unsupported pair ${sourceCurrency}/${destinationCurrency}`);
    return priceQuote(this.table, { sourceCurrency, destinationCurrency, sourceAmount, sourceMinorUnit, destinationMinorUnit, at: this.clock.now() });
  }

  async createQuote(merchantId: string, input: unknown): Promise<Quote> {
    const query = parseInput(quoteRequestSchema, input, 'query');
    const details: ErrorDetail[] = [];
    for (const field of ['source_currency', 'destination_currency'] as const) {
      if (!this.isSupportedCurrency(query[field])) details.push({ field, issue: `${query[field]} is not a supported currency` });
    }
    const sourceMinorUnit = this.reference.currencyMinorUnit(query.source_currency);
    const destinationMinorUnit = this.reference.currencyMinorUnit(query.destination_currency);
    let amount: Decimal | undefined;
    try {
      // Without a supported source currency only the form of the amount can be checked.
      amount = parseAmount(query.amount, sourceMinorUnit ?? 8);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      details.push(...(err.details ?? []));
    }
    if (details.length > 0 || !amount || sourceMinorUnit === undefined || destinationMinorUnit === undefined) {
      throw AppError.invalidRequest(`Invalid query: ${details.map((d) => `${d.field} ${d.issue}`).join('; ')}`, details);
    }

    const now = this.clock.now();
    const figures = priceQuote(this.table, {
      sourceCurrency: query.source_currency,
      destinationCurrency: query.destination_currency,
      sourceAmount: amount,
      sourceMinorUnit,
      destinationMinorUnit,
      at: now,
    });
    if (figures.destinationAmount.isZero()) {
      const issue = `is too small: it converts to 0 ${query.destination_currency}`;
      throw AppError.invalidRequest(`Invalid query: amount ${issue}`, [{ field: 'amount', issue }]);
    }

    const quote = this.orm.em.create(FxQuote, {
      id: newQuoteId(),
      merchantId,
      sourceCurrency: query.source_currency,
      destinationCurrency: query.destination_currency,
      sourceAmount: amount,
      destinationAmount: figures.destinationAmount,
      rate: figures.rate,
      fee: figures.fee,
      createdAt: now,
      expiresAt: new Date(now.getTime() + QUOTE_TTL_MS),
    });
    await this.orm.em.persistAndFlush(quote);
    return this.toQuote(quote);
  }

  /**
   * The merchant's stored quote, expired or not (check with isQuoteLive), or
   * undefined: another merchant's quote is as unknown as a missing one.
   */
  async getQuote(merchantId: string, quoteId: string): Promise<Quote | undefined> {
    if (typeof quoteId !== 'string' || !/^qt_[0-9a-f]{24}$/.test(quoteId)) return undefined;
    const quote = await this.orm.em.findOne(FxQuote, { id: quoteId, merchantId });
    return quote ? this.toQuote(quote) : undefined;
  }

  private toQuote(entity: FxQuote): Quote {
    return {
      id: entity.id,
      merchantId: entity.merchantId,
      sourceCurrency: entity.sourceCurrency,
      destinationCurrency: entity.destinationCurrency,
      sourceMinorUnit: this.reference.currencyMinorUnit(entity.sourceCurrency) ?? entity.sourceAmount.decimalPlaces(),
      destinationMinorUnit: this.reference.currencyMinorUnit(entity.destinationCurrency) ?? entity.destinationAmount.decimalPlaces(),
      sourceAmount: entity.sourceAmount,
      destinationAmount: entity.destinationAmount,
      rate: entity.rate,
      fee: entity.fee,
      createdAt: entity.createdAt,
      expiresAt: entity.expiresAt,
    };
  }
}
