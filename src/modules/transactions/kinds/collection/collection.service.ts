import { z } from 'zod';
import { capability, type DecideTrigger, type RouteLeg } from '../../../../providers/connector';
import type { Rails } from '../../../rails/rails';
import type { Clock } from '../../../../shared/clock';
import { AppError } from '../../../../shared/errors';
import { currencyField } from '../../../../shared/fields';
import { parseInput, type Command } from '../../../../shared/validation';
import type { CustomerService } from '../../../customers/customer.service';
import type { ReferenceService } from '../../../reference/reference.service';
import {
  askedToMove,
  bankAccountNumbers,
  checkAccountNumber,
  checkDialCode,
  checkLocalAmount,
  checkRoute,
  crossBorderDecide,
  crossBorderFields,
  crossBorderRequest,
  crossBorderLeg,
  routeColumns,
} from '../cross-border.checks';
import { TransactionJob } from '../../transaction.jobs';
import type { CollectionTransaction } from '../../transaction.record';
import type { Expiry, LedgerEffect, ProviderAnswer, TransactionKindHandler } from '../../transaction.kinds';
import { moneyInLedger, moneyInLegs } from '../../transaction.ledger';
import type { FeeSchedule } from '../../../ledger/fee-schedule';
import type { TransactionService } from '../../transaction.service';

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
  transactions: TransactionService;
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
    return this.deps.transactions.initiate({
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

/** The collection kind: a virtual account or a prompt; settled by the provider (momo) or the sender (bank); money in. */
export class CollectionKind implements TransactionKindHandler<'collection'> {
  readonly kind = 'collection' as const;
  readonly expiry: Expiry = { from: 'processing', to: 'expired', reason: 'not_paid_before_expiry', job: TransactionJob.ExpireCollection };
  readonly expectedLegs: TransactionKindHandler<'collection'>['expectedLegs'];

  constructor(
    private readonly reference: ReferenceService,
    private readonly rails: Rails,
    private readonly timing: { collectionTtlS: number; releaseDelayMs: number },
  ) {
    this.expectedLegs = moneyInLegs(timing.releaseDelayMs);
  }

  route(txn: CollectionTransaction): RouteLeg {
    return crossBorderLeg(this.reference, txn);
  }

  /** A virtual account (bank) or a payment prompt (momo), from the stored row, so reconciliation can ask again. */
  async callProvider(txn: CollectionTransaction, idempotencyKey: string, _transient?: never, retry = false): Promise<ProviderAnswer> {
    const connector = this.rails.of(txn);
    if (txn.accountType === 'bank') {
      const account = await capability(
        connector,
        'createVirtualAccount',
      )({
        idempotencyKey,
        reference: txn.reference,
        countryCode: txn.countryCode,
        networkCode: this.reference.network(txn.networkId)?.code ?? txn.networkId,
        ...askedToMove(this.reference, txn),
        accountName: txn.accountName ?? '',
        payer: this.rails.payer(txn),
        retry,
      });
      // The provider may close its account before our deadline (Flutterwave's last an hour): the collection expires then.
      const expiresAt = account.expiresAt ?? null;
      const expiryMs = expiresAt
        ? Math.min(this.timing.collectionTtlS * 1000, Math.max(0, expiresAt.getTime() - Date.now()))
        : this.timing.collectionTtlS * 1000;
      return {
        status: 'processing',
        providerReference: account.providerReference,
        bankInfo: { accountName: account.accountName, accountNumber: account.accountNumber, bankName: account.bankName, bankCode: account.bankCode },
        virtualAccountNumber: account.accountNumber,
        expiresAt,
        followUps: [
          { name: TransactionJob.ExpireCollection, delayMs: expiryMs },
          // A real provider is asked too (a lost webhook); the sandbox's account is paid by simulation.
          ...(connector.inProcess ? [] : [{ name: TransactionJob.SettleTransaction, delayMs: this.rails.firstPollMs(txn) } as const]),
        ],
      };
    }
    const { providerReference, nextActionUrl } = await connector.initiate({
      ...crossBorderRequest(this.reference, txn, idempotencyKey),
      accountName: null,
      callbackUrl: this.rails.callbackUrl(txn),
      payer: this.rails.payer(txn),
      retry: retry ? await this.rails.retryContext(txn) : null,
    });
    return {
      status: 'processing',
      providerReference,
      nextActionUrl: nextActionUrl ?? null,
      followUps: [{ name: TransactionJob.SettleTransaction, delayMs: this.rails.firstPollMs(txn) }],
    };
  }

  settle(txn: CollectionTransaction, trigger: DecideTrigger) {
    return crossBorderDecide(this.rails, this.reference, txn, trigger);
  }

  ledger(txn: CollectionTransaction): LedgerEffect {
    return moneyInLedger(txn, txn.connector, this.timing.releaseDelayMs);
  }
}
