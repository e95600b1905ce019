import { z } from 'zod';
import { AppError } from '../../../../shared/errors';
import { currencyField, referenceField, upperCased } from '../../../../shared/fields';
import { Decimal, formatAmount, parseAmount } from '../../../../shared/money';
import { parseInput, type Command } from '../../../../shared/validation';
import type { AuditContext, AuditLog } from '../../../audit/audit-log';
import type { MerchantService } from '../../../merchants/merchant.service';
import type { Rails } from '../../../rails/rails';
import type { ReferenceService } from '../../../reference/reference.service';
import type { Clock } from '../../../../shared/clock';
import type { TransactionLifecycle } from '../../lifecycle.service';
import type { TransactionQueries } from '../../queries.service';
import type { FundingTransaction } from '../../transaction.record';
import { checkDomesticAmount, servedBank } from '../payment/domestic.checks';
import type { Country, Network } from '../../../reference/reference.types';

/** POST /v1/balance/funding, in the domain's names. */
export const fundingSchema = z.object({
  currency: upperCased(currencyField),
  amount: z.unknown(),
  /** Yours, unique across all your transactions: the same reference never funds twice. */
  reference: referenceField,
});
export type FundingCommand = Command<typeof fundingSchema>;

/** What FundingService is built with (the composition root passes it). */
export interface FundingServiceDeps {
  lifecycle: TransactionLifecycle;
  queries: TransactionQueries;
  merchants: MerchantService;
  reference: ReferenceService;
  /** Which routes a configured connector serves (a bank collection in the funding's country). */
  rails: Pick<Rails, 'router'>;
  clock: Clock;
  /** How long the account stays open (COLLECTION_TTL_S, as a bank collection's). */
  collectionTtlS: number;
  /** The audit log's writer: a funding created writes `balance.funding_created`. */
  audit: AuditLog;
}

/**
 * Funding a merchant's own balance (issue 41, CONTRACT §14): the answer is an account to pay into by bank transfer, as
 * a bank collection's; what arrives is credited to `available`, through the books, with no fee. On the one creation
 * path: routing, the connector, reconciliation, expiry and the events are a bank collection's.
 */
export class FundingService {
  constructor(private readonly deps: FundingServiceDeps) {}

  async createFunding(merchantId: string, command: FundingCommand, audit?: AuditContext): Promise<FundingTransaction> {
    const body = parseInput(fundingSchema, command);
    const minorUnit = this.deps.reference.currencyMinorUnit(body.currency);
    if (minorUnit === undefined) throw AppError.invalidField('currency', 'is not a supported currency');
    const amount = parseAmount(body.amount, minorUnit);
    const merchant = await this.deps.merchants.getMerchant(merchantId);
    const { country, bank } = this.accountCountry(merchant.country, body.currency);
    checkDomesticAmount(this.deps.reference, country, 'bank_transfer', body.currency, amount);
    const channel = this.deps.reference.channels(country.code, 'deposit').find((c) => c.channelType === 'bank' && c.status === 'active');
    const funding = await this.deps.lifecycle.initiate({
      merchantId,
      kind: 'funding',
      externalReference: body.reference,
      amount,
      currency: body.currency,
      fee: new Decimal(0),
      accountType: 'bank',
      countryCode: country.code,
      channelId: channel?.id ?? null,
      networkId: bank.id,
      // The account is opened in the merchant's name: its bank shows whom it pays.
      accountName: merchant.name.slice(0, 100),
      expiresAt: new Date(this.deps.clock.now().getTime() + this.deps.collectionTtlS * 1000),
    });
    if (audit) {
      await this.deps.audit.record({
        merchantId,
        ...audit,
        action: 'balance.funding_created',
        target: { type: 'funding', id: funding.reference },
        after: { amount: formatAmount(amount, minorUnit), currency: body.currency, status: funding.status },
      });
    }
    return funding;
  }

  /** The funding's current record; another kind's reference, or another merchant's, is NOT_FOUND. */
  async getFunding(merchantId: string, referenceOrExternal: string): Promise<FundingTransaction> {
    const txn = await this.deps.queries.getTransaction(merchantId, referenceOrExternal).catch((err: unknown) => {
      throw err instanceof AppError && err.code === 'NOT_FOUND' ? AppError.notFound('Funding') : err;
    });
    if (txn.kind !== 'funding') throw AppError.notFound('Funding');
    return txn;
  }

  /**
   * Where the account is opened: in the merchant's own country when the currency is its own, otherwise in the first
   * country of that currency (XOF, XAF: several) whose banks a configured connector collects into. At the first such
   * bank of that country. None: ROUTE_UNAVAILABLE, nothing written.
   */
  private accountCountry(merchantCountry: string | null, currency: string): { country: Country; bank: Network } {
    const countries = this.deps.reference.listCountries().filter((c) => c.currency === currency);
    if (countries.length === 0) throw AppError.invalidField('currency', 'is not the currency of a country this service covers');
    const ordered = [...countries.filter((c) => c.code === merchantCountry), ...countries.filter((c) => c.code !== merchantCountry)];
    for (const country of ordered) {
      const bank = servedBank(this.deps.reference, (route) => this.deps.rails.router.serves(route), country.code);
      if (bank) return { country, bank };
    }
    throw new AppError('ROUTE_UNAVAILABLE', `No provider opens accounts to pay ${currency} into here; nothing was written`);
  }
}
