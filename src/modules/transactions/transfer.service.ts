import { z } from 'zod';
import { JobName } from '../../jobs/job-runner';
import type { PaymentProvider } from '../../providers/payment-provider';
import type { Clock } from '../../shared/clock';
import { AppError } from '../../shared/errors';
import { formatAmount, parseAmount, type Decimal } from '../../shared/money';
import { parseInput } from '../../shared/validation';
import type { CustomerService } from '../customers/customer.service';
import { isQuoteLive, type RatesService } from '../rates/rates.service';
import type { ReferenceService } from '../reference/reference.service';
import { checkDialCode, checkRoute, checkWithinBounds, crossBorderFields, routeColumns } from './cross-border.checks';
import { currencyField } from './transaction.fields';
import type { Transaction } from './transaction.record';
import type { ProviderAnswer, TransactionKindHandler } from './transaction.kinds';
import type { TransactionService } from './transaction.service';

const currencyCode = currencyField('USD');

export const transferSchema = z.object({
  ...crossBorderFields,
  source_currency: currencyCode,
  destination_currency: currencyCode,
  account_name: z.string({ error: 'is required' }).trim().min(1, 'must not be empty').max(140),
  quote_id: z.string().min(1).max(64).optional(),
});

const bad = (field: string, issue: string) => AppError.invalidRequest(`${field} ${issue}`, [{ field, issue }]);

interface Pricing {
  rate: Decimal;
  fee: Decimal;
  destinationAmount: Decimal;
  quoteId: string | null;
}

/** CONTRACT §6: send funds to a beneficiary's bank account or wallet, converted at the rate (or a locked quote). */
export class TransferService implements TransactionKindHandler {
  constructor(
    private readonly customers: CustomerService,
    private readonly reference: ReferenceService,
    private readonly rates: RatesService,
    private readonly transactions: TransactionService,
    private readonly provider: PaymentProvider,
    private readonly clock: Clock,
    private readonly settleMs: number,
  ) {
    transactions.registerKind('transfer', this);
  }

  async initiateTransfer(merchantId: string, input: unknown): Promise<Transaction> {
    const body = parseInput(transferSchema, input);
    const route = await checkRoute(this.customers, this.reference, merchantId, body, 'withdrawal');
    const { country, channel } = route;
    if (body.destination_currency !== country.currency) throw bad('destination_currency', `must be ${country.currency} for ${country.code}`);
    if (!this.rates.isSupportedCurrency(body.source_currency)) throw bad('source_currency', `${body.source_currency} is not a supported currency`);
    checkDialCode(country, body.dial_code);

    const sourceMinorUnit = this.reference.currencyMinorUnit(body.source_currency)!;
    const sourceAmount = parseAmount(body.amount, sourceMinorUnit);
    const pricing = body.quote_id
      ? await this.lockedQuote(merchantId, body.quote_id, body.source_currency, body.destination_currency, sourceAmount)
      : this.freshPrice(body.source_currency, body.destination_currency, sourceAmount);
    if (pricing.destinationAmount.isZero()) throw bad('amount', `converts to 0 ${country.currency}`);
    checkWithinBounds(channel, pricing.destinationAmount, 'amount');
    return this.transactions.initiate({
      merchantId,
      kind: 'transfer',
      ...routeColumns(route, body),
      accountName: body.account_name,
      sourceAmount,
      sourceCurrency: body.source_currency,
      destinationAmount: pricing.destinationAmount,
      destinationCurrency: country.currency,
      rate: pricing.rate,
      fee: pricing.fee,
      quoteId: pricing.quoteId,
    });
  }

  /** The payout, from the stored row, so reconciliation can ask again with the same key. */
  async callProvider(txn: Transaction, idempotencyKey: string): Promise<ProviderAnswer> {
    const { providerReference } = await this.provider.initiate({
      idempotencyKey,
      kind: 'transfer',
      reference: txn.reference,
      accountType: txn.accountType!,
      countryCode: txn.countryCode!,
      networkCode: this.reference.network(txn.networkId!)?.code ?? txn.networkId!,
      accountNumber: txn.accountNumber!,
      accountName: txn.accountName,
      amount: formatAmount(txn.destinationAmount!, this.reference.currencyMinorUnit(txn.destinationCurrency!) ?? 2),
      currency: txn.destinationCurrency!,
    });
    return { status: 'processing', providerReference, followUps: [{ name: JobName.SettleTransaction, delayMs: this.settleMs }] };
  }

  private freshPrice(source: string, destination: string, amount: Decimal): Pricing {
    const figures = this.rates.priceConversion(source, destination, amount);
    return { rate: figures.rate, fee: figures.fee, destinationAmount: figures.destinationAmount, quoteId: null };
  }

  /** A quote locks its rate only for the pair and amount it was made for, and only until it expires. */
  private async lockedQuote(merchantId: string, quoteId: string, source: string, destination: string, amount: Decimal): Promise<Pricing> {
    const quote = await this.rates.getQuote(merchantId, quoteId);
    if (!quote) throw bad('quote_id', 'is not a quote of yours');
    if (!isQuoteLive(quote, this.clock.now())) throw bad('quote_id', `expired at ${quote.expiresAt.toISOString()}; get a new rate`);
    if (quote.sourceCurrency !== source || quote.destinationCurrency !== destination) {
      throw bad('quote_id', `is for ${quote.sourceCurrency}→${quote.destinationCurrency}, not ${source}→${destination}`);
    }
    if (!quote.sourceAmount.eq(amount)) throw bad('quote_id', `is for an amount of ${quote.sourceAmount.toFixed()} ${source}, not ${amount.toFixed()}`);
    return { rate: quote.rate, fee: quote.fee, destinationAmount: quote.destinationAmount, quoteId: quote.id };
  }
}
