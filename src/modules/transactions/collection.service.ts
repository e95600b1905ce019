import { z } from 'zod';
import { JobName } from '../../jobs/job-runner';
import type { PaymentProvider } from '../../providers/payment-provider';
import type { Clock } from '../../shared/clock';
import { AppError } from '../../shared/errors';
import { parseInput } from '../../shared/validation';
import type { CustomerService } from '../customers/customer.service';
import type { ReferenceService } from '../reference/reference.service';
import { checkDialCode, checkLocalAmount, checkRoute, crossBorderFields, routeColumns } from './cross-border.checks';
import type { Transaction } from './transaction.entity';
import { newTransactionReference, type ScheduledJob, type TransactionService } from './transaction.service';

export const collectionSchema = z.object({
  ...crossBorderFields,
  currency: z.string({ error: 'is required' }).regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code, e.g. KES'),
});

/** Spec §4.2: pull funds from a KYC-approved sender, by bank transfer (virtual account) or mobile money (prompt). */
export class CollectionService {
  constructor(
    private readonly customers: CustomerService,
    private readonly reference: ReferenceService,
    private readonly transactions: TransactionService,
    private readonly provider: PaymentProvider,
    private readonly timing: { settleMs: number; collectionTtlS: number },
    private readonly clock: Clock,
  ) {}

  /** Checks in CONTRACT §6's order, then the provider, then one database transaction. */
  async initiateCollection(merchantId: string, input: unknown): Promise<Transaction> {
    const body = parseInput(collectionSchema, input);
    const route = await checkRoute(this.customers, this.reference, merchantId, body, 'deposit');
    const { customer, country, channel, network } = route;
    if (body.currency !== country.currency) {
      throw AppError.invalidRequest(`currency must be ${country.currency} for ${country.code}`, [
        { field: 'currency', issue: `must be ${country.currency} for ${country.code}` },
      ]);
    }
    checkDialCode(country, body.dial_code);
    const amount = checkLocalAmount(channel, body.amount);
    await this.transactions.assertReferenceUnused(merchantId, body.reference);

    const reference = newTransactionReference('collection');
    const idempotencyKey = `${merchantId}:${body.reference}`;
    const amountText = amount.toFixed(channel.minorUnit);
    let providerReference: string;
    let bankInfo = null;
    let virtualAccountNumber = null;
    const jobs: ScheduledJob[] = [];
    if (body.account_type === 'bank') {
      const account = await this.provider.createVirtualAccount({
        idempotencyKey,
        reference,
        countryCode: country.code,
        currency: country.currency,
        amount: amountText,
        accountName: `${customer.firstName} ${customer.lastName}`.slice(0, 100),
      });
      ({ providerReference } = account);
      bankInfo = { accountName: account.accountName, accountNumber: account.accountNumber, bankName: account.bankName, bankCode: account.bankCode };
      virtualAccountNumber = account.accountNumber;
      jobs.push({ name: JobName.ExpireCollection, delayMs: this.timing.collectionTtlS * 1000 });
    } else {
      ({ providerReference } = await this.provider.initiate({
        idempotencyKey,
        kind: 'collection',
        reference,
        accountType: 'momo',
        countryCode: country.code,
        networkCode: network.code,
        accountNumber: body.account_number,
        accountName: null,
        amount: amountText,
        currency: country.currency,
      }));
      jobs.push({ name: JobName.SettleTransaction, delayMs: this.timing.settleMs });
    }
    const expiresAt = body.account_type === 'bank' ? new Date(this.clock.now().getTime() + this.timing.collectionTtlS * 1000) : null;
    return this.transactions.create(
      {
        merchantId,
        kind: 'collection',
        reference,
        ...routeColumns(route, body),
        amount,
        currency: country.currency,
        bankInfo,
        virtualAccountNumber,
        providerReference,
        expiresAt,
      },
      jobs,
    );
  }
}
