import { z } from 'zod';
import type { Clock } from '../../../../shared/clock';
import { AppError } from '../../../../shared/errors';
import { currencyField } from '../../../../shared/fields';
import { parseInput, type Command } from '../../../../shared/validation';
import type { CustomerService } from '../../../customers/customer.service';
import type { ReferenceService } from '../../../reference/reference.service';
import { bankAccountNumbers, checkAccountNumber, checkDialCode, checkLocalAmount, checkRoute, crossBorderFields, routeColumns } from '../cross-border.checks';
import type { CollectionTransaction } from '../../transaction.record';
import type { FeeSchedule } from '../../../ledger/fee-schedule';
import type { TransactionLifecycle } from '../../lifecycle.service';

/** Spec §4.2's collection, in the domain's names. */
export const collectionSchema = z
  .object({
    ...crossBorderFields,
    currency: currencyField,
  })
  .superRefine(bankAccountNumbers);
export type CollectionCommand = Command<typeof collectionSchema>;

/** What CollectionService is built with (the composition root passes it). */
export interface CollectionServiceDeps {
  customers: CustomerService;
  reference: ReferenceService;
  lifecycle: TransactionLifecycle;
  fees: FeeSchedule;
  collectionTtlS: number;
  clock: Clock;
}

/** Spec §4.2: pull funds from a KYC-approved sender, by bank transfer (virtual account) or mobile money (prompt). */
export class CollectionService {
  constructor(private readonly deps: CollectionServiceDeps) {}

  /** Checks in CONTRACT §6's order (the reference last, by the database), then the one creation path. */
  async initiateCollection(merchantId: string, command: CollectionCommand): Promise<CollectionTransaction> {
    const body = parseInput(collectionSchema, command);
    const route = await checkRoute(this.deps.customers, this.deps.reference, merchantId, body, 'deposit');
    const { customer, country, channel } = route;
    if (body.currency !== country.currency) throw AppError.invalidField('currency', `must be ${country.currency} for ${country.code}`);
    checkDialCode(country, body.dialCode);
    const accountNumber = checkAccountNumber(country, body);
    const amount = checkLocalAmount(channel, body.amount);
    const bank = body.accountType === 'bank';
    return this.deps.lifecycle.initiate({
      merchantId,
      kind: 'collection',
      ...routeColumns(route, body, accountNumber),
      // A bank collection's virtual account is held in the sender's name.
      accountName: bank ? `${customer.firstName} ${customer.lastName}`.slice(0, 100) : null,
      amount,
      currency: country.currency,
      fee: await this.deps.fees.fee(merchantId, 'collection', country.currency, amount),
      expiresAt: bank ? new Date(this.deps.clock.now().getTime() + this.deps.collectionTtlS * 1000) : null,
    });
  }
}
