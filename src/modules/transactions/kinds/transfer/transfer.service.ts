import { z } from 'zod';
import type { Rails } from '../../../rails/rails';
import type { Clock } from '../../../../shared/clock';
import { AppError } from '../../../../shared/errors';
import { Decimal, parseAmount, roundMoney } from '../../../../shared/money';
import { currencyField, requiredText } from '../../../../shared/fields';
import { parseInput, type Command } from '../../../../shared/validation';
import type { CustomerService } from '../../../customers/customer.service';
import { isQuoteLive, type RatesService } from '../../../rates/rates.service';
import type { ReferenceService } from '../../../reference/reference.service';
import { bankAccountNumbers, checkAccountNumber, checkDialCode, checkRoute, checkWithinBounds, crossBorderFields, routeColumns } from '../cross-border.checks';
import type { TransferTransaction } from '../../transaction.record';
import type { TransactionLifecycle } from '../../lifecycle.service';
import type { MerchantService } from '../../../merchants/merchant.service';
import type { PayeesService } from '../../../payees/payees.service';

/** CONTRACT §6's transfer, in the domain's names. */
export const transferSchema = z
  .object({
    ...crossBorderFields,
    sourceCurrency: currencyField,
    destinationCurrency: currencyField,
    accountName: requiredText(140),
    beneficiaryName: requiredText(140).optional(),
    quoteId: z.string({ error: 'must be a string' }).min(1, 'must not be empty').max(64, 'must be at most 64 characters').nullish(),
  })
  .superRefine(bankAccountNumbers);
export type TransferCommand = Command<typeof transferSchema>;

const bad = AppError.invalidField;

interface Pricing {
  rate: Decimal;
  fee: Decimal;
  destinationAmount: Decimal;
  quoteId: string | null;
}

/** What TransferService is built with (the composition root passes it). */
export interface TransferServiceDeps {
  customers: CustomerService;
  reference: ReferenceService;
  rates: RatesService;
  lifecycle: TransactionLifecycle;
  clock: Clock;
  rails: Rails;
  payees: PayeesService;
  merchants: MerchantService;
}

/** CONTRACT §6: send funds to a beneficiary's bank account or wallet, converted at the rate (or a locked quote). */
export class TransferService {
  constructor(private readonly deps: TransferServiceDeps) {}

  /** Checks, then the one creation path; the reservation (amount + fee) rides in its insert: 402 INSUFFICIENT_FUNDS when it is not covered. */
  async initiateTransfer(merchantId: string, command: TransferCommand): Promise<TransferTransaction> {
    const body = parseInput(transferSchema, command);
    const route = await checkRoute(this.deps.customers, this.deps.reference, merchantId, body, 'withdrawal');
    const { country, channel } = route;
    if (body.destinationCurrency !== country.currency) throw bad('destinationCurrency', `must be ${country.currency} for ${country.code}`);
    if (!this.deps.rates.isSupportedCurrency(body.sourceCurrency)) throw bad('sourceCurrency', `is not a supported currency`);
    checkDialCode(country, body.dialCode);
    const accountNumber = checkAccountNumber(country, body);

    const sourceMinorUnit = this.deps.reference.currencyMinorUnit(body.sourceCurrency)!;
    const sourceAmount = parseAmount(body.amount, sourceMinorUnit);
    const pricing = body.quoteId
      ? await this.lockedQuote(merchantId, body.quoteId, body.sourceCurrency, body.destinationCurrency, sourceAmount)
      : await this.freshPrice(merchantId, body.sourceCurrency, body.destinationCurrency, sourceAmount);
    // A converted payout is rounded down to what the route's provider can pay (M-Pesa: whole shillings); the FX
    // position keeps the difference. A same-currency amount is the merchant's own, and its provider checks it.
    const decimals = this.deps.rails.payoutDecimals({
      channelType: body.accountType,
      countryCode: country.code,
      networkCode: route.network.code,
      direction: 'transfer',
    });
    if (decimals !== undefined && body.sourceCurrency !== body.destinationCurrency) {
      pricing.destinationAmount = roundMoney(pricing.destinationAmount, decimals, 'down');
    }
    if (pricing.destinationAmount.isZero()) throw bad('amount', `converts to 0 ${country.currency}`);
    checkWithinBounds(channel, pricing.destinationAmount, 'amount');
    // CONTRACT §6b: the name the merchant expects, against the provider's, before anything is written or sent.
    if (body.beneficiaryName !== undefined && (await this.deps.merchants.nameCheck(merchantId))) {
      await this.deps.payees.checkBeneficiaryName(country, route.network.id, accountNumber, body.beneficiaryName);
    }
    return this.deps.lifecycle.initiate({
      merchantId,
      kind: 'transfer',
      ...routeColumns(route, body, accountNumber),
      accountName: body.accountName,
      sourceAmount,
      sourceCurrency: body.sourceCurrency,
      destinationAmount: pricing.destinationAmount,
      destinationCurrency: country.currency,
      rate: pricing.rate,
      fee: pricing.fee,
      quoteId: pricing.quoteId,
    });
  }

  private async freshPrice(merchantId: string, source: string, destination: string, amount: Decimal): Promise<Pricing> {
    const figures = await this.deps.rates.priceConversion(merchantId, source, destination, amount);
    return { rate: figures.rate, fee: figures.fee, destinationAmount: figures.destinationAmount, quoteId: null };
  }

  /** A quote locks its rate only for the pair and amount it was made for, and only until it expires. */
  private async lockedQuote(merchantId: string, quoteId: string, source: string, destination: string, amount: Decimal): Promise<Pricing> {
    const quote = await this.deps.rates.getQuote(merchantId, quoteId);
    if (!quote) throw bad('quoteId', 'is not a quote of yours');
    if (!isQuoteLive(quote, this.deps.clock.now())) throw bad('quoteId', `expired at ${quote.expiresAt.toISOString()}; get a new rate`);
    if (quote.sourceCurrency !== source || quote.destinationCurrency !== destination) {
      throw bad('quoteId', `is for ${quote.sourceCurrency}→${quote.destinationCurrency}, not ${source}→${destination}`);
    }
    if (!quote.sourceAmount.eq(amount)) throw bad('quoteId', `is for an amount of ${quote.sourceAmount.toFixed()} ${source}, not ${amount.toFixed()}`);
    return { rate: quote.rate, fee: quote.fee, destinationAmount: quote.destinationAmount, quoteId: quote.id };
  }
}
