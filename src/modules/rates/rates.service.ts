import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Orm } from '../../db/orm';
import type { Clock } from '../../shared/clock';
import { AppError, type ErrorDetail } from '../../shared/errors';
import { maxAmount, parseAmount, type Decimal } from '../../shared/money';
import { currencyField, upperCased } from '../../shared/fields';
import { parseInput, type Command } from '../../shared/validation';
import type { ReferenceService } from '../reference/reference.service';
import { FxQuote } from './fx-quote.entity';
import { priceQuote, type RateTable } from './rate-table';
import type { FeeSchedule } from '../ledger/fee-schedule';

/** CONTRACT §5: a quote is valid for 60 seconds. */
const QUOTE_TTL_MS = 60_000;

const newQuoteId = () => `qt_${randomBytes(12).toString('hex')}`;

/** A quote's pair and amount, in the domain's names; currency codes match case-insensitively. */
export const quoteRequestSchema = z.object({
  sourceCurrency: upperCased(currencyField),
  destinationCurrency: upperCased(currencyField),
  // Read by parseAmount once the source currency (and so its precision) is known.
  amount: z.unknown().optional(),
});
export type QuoteQuery = Command<typeof quoteRequestSchema>;

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

/** What RatesService is built with (the composition root passes it). */
export interface RatesServiceDeps {
  orm: Orm;
  clock: Clock;
  reference: ReferenceService;
  table: RateTable;
  fees: FeeSchedule;
}

/** FX quotes: prices a conversion from the sandbox rate table and keeps it 60 s for a transfer to lock. */
export class RatesService {
  constructor(private readonly deps: RatesServiceDeps) {}

  /** A currency is supported when it is a supported country's currency and the rate table prices it. */
  isSupportedCurrency(code: string): boolean {
    return this.deps.reference.currency(code) !== undefined && this.deps.table.mid.has(code);
  }

  /** GET /v1/crossborder/rates, query rate: input { source_currency, destination_currency, amount }. */
  /**
   * Prices a conversion now, without storing a quote: what a transfer without a
   * quote_id pays. The currencies must be supported (isSupportedCurrency).
   */
  async priceConversion(merchantId: string, sourceCurrency: string, destinationCurrency: string, sourceAmount: Decimal) {
    const sourceMinorUnit = this.deps.reference.currencyMinorUnit(sourceCurrency);
    const destinationMinorUnit = this.deps.reference.currencyMinorUnit(destinationCurrency);
    if (sourceMinorUnit === undefined || destinationMinorUnit === undefined) throw new Error(`unsupported pair ${sourceCurrency}/${destinationCurrency}`);
    const feeRule = await this.deps.fees.ruleFor(merchantId, 'transfer', sourceCurrency);
    return priceQuote(this.deps.table, {
      sourceCurrency,
      destinationCurrency,
      sourceAmount,
      sourceMinorUnit,
      destinationMinorUnit,
      at: this.deps.clock.now(),
      feeRule,
    });
  }

  async createQuote(merchantId: string, command: QuoteQuery): Promise<Quote> {
    const query = parseInput(quoteRequestSchema, command, 'query');
    const details: ErrorDetail[] = [];
    for (const field of ['sourceCurrency', 'destinationCurrency'] as const) {
      if (!this.isSupportedCurrency(query[field])) details.push({ field, issue: 'is not a supported currency' });
    }
    const sourceMinorUnit = this.deps.reference.currencyMinorUnit(query.sourceCurrency);
    const destinationMinorUnit = this.deps.reference.currencyMinorUnit(query.destinationCurrency);
    let amount: Decimal | undefined;
    try {
      // Without a supported source currency only the form of the amount can be checked.
      amount = parseAmount(query.amount, sourceMinorUnit ?? 8);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      details.push(...(err.details ?? []));
    }
    if (details.length > 0 || !amount || sourceMinorUnit === undefined || destinationMinorUnit === undefined) {
      throw AppError.invalidFields(details, 'query');
    }

    const now = this.deps.clock.now();
    const figures = priceQuote(this.deps.table, {
      sourceCurrency: query.sourceCurrency,
      destinationCurrency: query.destinationCurrency,
      sourceAmount: amount,
      sourceMinorUnit,
      destinationMinorUnit,
      at: now,
      feeRule: await this.deps.fees.ruleFor(merchantId, 'transfer', query.sourceCurrency),
    });
    if (figures.destinationAmount.isZero()) {
      throw AppError.invalidFields([{ field: 'amount', issue: `is too small: it converts to 0 ${query.destinationCurrency}` }], 'query');
    }
    // What the conversion gives must lie in the amount domain too, or no answer could carry it exactly.
    const largest = maxAmount(destinationMinorUnit);
    if (figures.destinationAmount.gt(largest)) {
      const issue = `is too large: it converts to more than the largest ${query.destinationCurrency} amount, ${largest.toFixed(destinationMinorUnit)}`;
      throw AppError.invalidFields([{ field: 'amount', issue }], 'query');
    }

    const quote = this.deps.orm.em.create(FxQuote, {
      id: newQuoteId(),
      merchantId,
      sourceCurrency: query.sourceCurrency,
      destinationCurrency: query.destinationCurrency,
      sourceAmount: amount,
      destinationAmount: figures.destinationAmount,
      rate: figures.rate,
      fee: figures.fee,
      createdAt: now,
      expiresAt: new Date(now.getTime() + QUOTE_TTL_MS),
    });
    await this.deps.orm.em.persistAndFlush(quote);
    return this.toQuote(quote);
  }

  /**
   * The merchant's stored quote, expired or not (check with isQuoteLive), or
   * undefined: another merchant's quote is as unknown as a missing one.
   */
  async getQuote(merchantId: string, quoteId: string): Promise<Quote | undefined> {
    if (typeof quoteId !== 'string' || !/^qt_[0-9a-f]{24}$/.test(quoteId)) return undefined;
    const quote = await this.deps.orm.em.findOne(FxQuote, { id: quoteId, merchantId });
    return quote ? this.toQuote(quote) : undefined;
  }

  private toQuote(entity: FxQuote): Quote {
    return {
      id: entity.id,
      merchantId: entity.merchantId,
      sourceCurrency: entity.sourceCurrency,
      destinationCurrency: entity.destinationCurrency,
      sourceMinorUnit: this.deps.reference.currencyMinorUnit(entity.sourceCurrency) ?? entity.sourceAmount.decimalPlaces(),
      destinationMinorUnit: this.deps.reference.currencyMinorUnit(entity.destinationCurrency) ?? entity.destinationAmount.decimalPlaces(),
      sourceAmount: entity.sourceAmount,
      destinationAmount: entity.destinationAmount,
      rate: entity.rate,
      fee: entity.fee,
      createdAt: entity.createdAt,
      expiresAt: entity.expiresAt,
    };
  }
}
