import type { DecideTrigger, RouteLeg, SettlementDecision } from '../../../../providers/connector';
import type { Rails } from '../../../rails/rails';
import type { ReferenceService } from '../../../reference/reference.service';
import { amountOf, decideCollected, openAccount } from '../money-in.answers';
import { domesticRouteOf } from '../payment/domestic.checks';
import type { FundingTransaction } from '../../transaction.record';
import { UNPAID_EXPIRY, type Expiry, type LedgerEffect, type ProviderAnswer, type TransactionKindHandler } from '../../transaction.kinds';
import { fundingLedger, fundingLegs } from '../../transaction.ledger';

/** What FundingKind is built with (the composition root passes it). */
export interface FundingKindDeps {
  reference: ReferenceService;
  rails: Rails;
  /** How long the account stays open (COLLECTION_TTL_S, as a bank collection's). */
  collectionTtlS: number;
}

/**
 * The funding kind (issue 41): the merchant pays into its own balance. It travels a bank collection's route in its
 * country (the provider opens an account unique to the funding, in the merchant's name, as for a bank transfer
 * payment); the money that arrives is credited to `available` at once, with no fee and no settlement delay
 * (docs/ledger.md); unpaid, it expires at the account's deadline and posts nothing.
 */
export class FundingKind implements TransactionKindHandler<'funding'> {
  readonly kind = 'funding' as const;
  readonly referencePrefix = 'fnd';
  readonly expectedLegs = fundingLegs;

  constructor(private readonly deps: FundingKindDeps) {}

  /** A bank transfer's route to the bank the account is opened at. */
  route(txn: FundingTransaction): RouteLeg {
    return {
      route: domesticRouteOf('bank_transfer', txn.countryCode, this.deps.reference.network(txn.networkId) ?? null),
      amount: amountOf(this.deps.reference, txn),
      currency: txn.currency,
      accountNumber: null,
    };
  }

  callProvider(txn: FundingTransaction, idempotencyKey: string, _transient?: never, retry = false): Promise<ProviderAnswer> {
    return openAccount(this.deps, txn, idempotencyKey, retry);
  }

  settle(txn: FundingTransaction, trigger: DecideTrigger): Promise<SettlementDecision> {
    return decideCollected(this.deps, txn, trigger);
  }

  expiry(): Expiry {
    return UNPAID_EXPIRY;
  }

  ledger(txn: FundingTransaction): LedgerEffect {
    return fundingLedger(txn, txn.connector);
  }
}
