import { offering, opensVirtualAccounts, type DecideTrigger, type RouteLeg } from '../../../../providers/connector';
import type { Rails } from '../../../rails/rails';
import type { ReferenceService } from '../../../reference/reference.service';
import { askedToMove, crossBorderDecide, crossBorderLeg, crossBorderRequest, type Moved } from '../cross-border.checks';
import type { CollectionTransaction } from '../../transaction.record';
import { accountOpened, promptSent } from '../money-in.answers';
import { UNPAID_EXPIRY, type Expiry, type LedgerEffect, type ProviderAnswer, type TransactionKindHandler } from '../../transaction.kinds';
import { moneyInAvailableAt, moneyInLedger, moneyInLegs, moneyInRelease } from '../../transaction.ledger';

/** What CollectionKind is built with (the composition root passes it). */
export interface CollectionKindDeps {
  reference: ReferenceService;
  rails: Rails;
  /** How long a bank collection's virtual account stays open (COLLECTION_TTL_S). */
  collectionTtlS: number;
  /** The settlement delay: a settled collection's net is released after it. */
  releaseDelayMs: number;
}

/** A collection asks the provider for its amount. */
const moved = (txn: CollectionTransaction): Moved => ({ amount: txn.amount, currency: txn.currency });

/** The collection kind: a virtual account or a prompt; settled by the provider (momo) or the sender (bank); money in. */
export class CollectionKind implements TransactionKindHandler<'collection'> {
  readonly kind = 'collection' as const;
  readonly referencePrefix = 'col';
  expiry(): Expiry {
    return UNPAID_EXPIRY;
  }
  readonly expectedLegs: TransactionKindHandler<'collection'>['expectedLegs'];

  constructor(private readonly deps: CollectionKindDeps) {
    this.expectedLegs = moneyInLegs(deps.releaseDelayMs);
  }

  route(txn: CollectionTransaction): RouteLeg {
    return crossBorderLeg(this.deps.reference, txn, moved(txn));
  }

  /** A virtual account (bank) or a payment prompt (momo), from the stored row, so reconciliation can ask again. */
  async callProvider(txn: CollectionTransaction, idempotencyKey: string, _transient?: never, retry = false): Promise<ProviderAnswer> {
    const connector = this.deps.rails.of(txn);
    if (txn.accountType === 'bank') {
      const account = await offering(connector, opensVirtualAccounts, 'createVirtualAccount').createVirtualAccount({
        idempotencyKey,
        reference: txn.reference,
        countryCode: txn.countryCode,
        networkCode: this.deps.reference.network(txn.networkId)?.code ?? txn.networkId,
        ...askedToMove(this.deps.reference, moved(txn)),
        accountName: txn.accountName ?? '',
        payer: this.deps.rails.payer(txn),
        retry,
      });
      // The provider may close its account before our deadline (Flutterwave's last an hour): the collection expires then.
      return accountOpened(account, {
        ttlS: this.deps.collectionTtlS,
        inProcess: connector.inProcess,
        firstPollMs: this.deps.rails.firstPollMs(txn),
        localCode: this.deps.reference.localCodeOf(txn.countryCode, account.bankCode, account.bankName),
      });
    }
    const sent = await connector.initiate({
      ...crossBorderRequest(this.deps.reference, txn, moved(txn), idempotencyKey),
      accountName: null,
      callbackUrl: this.deps.rails.callbackUrl(txn),
      payer: this.deps.rails.payer(txn),
      retry: retry ? await this.deps.rails.retryContext(txn) : null,
    });
    return promptSent(sent, this.deps.rails.firstPollMs(txn));
  }

  settle(txn: CollectionTransaction, trigger: DecideTrigger) {
    return crossBorderDecide(this.deps.rails, this.deps.reference, txn, moved(txn), trigger);
  }

  ledger(txn: CollectionTransaction): LedgerEffect {
    return moneyInLedger(txn, txn.connector, this.deps.releaseDelayMs);
  }

  availableAt(txn: CollectionTransaction): Date {
    return moneyInAvailableAt(txn, this.deps.releaseDelayMs);
  }

  release(txn: CollectionTransaction): LedgerEffect {
    return moneyInRelease(txn);
  }
}
