import type { DecideTrigger, RouteLeg } from '../../../../providers/connector';
import type { Rails } from '../../../rails/rails';
import type { ReferenceService } from '../../../reference/reference.service';
import { crossBorderDecide, crossBorderLeg, payOut, type Moved } from '../cross-border.checks';
import type { TransferTransaction } from '../../transaction.record';
import type { LedgerEffect, ProviderAnswer, TransactionKindHandler } from '../../transaction.kinds';
import { moneyOutLedger, moneyOutLegs } from '../../transaction.ledger';

/** What TransferKind is built with (the composition root passes it). */
export interface TransferKindDeps {
  reference: ReferenceService;
  rails: Rails;
}

/** A transfer asks the provider to pay out its destination amount, in the destination currency. */
const moved = (txn: TransferTransaction): Moved => ({ amount: txn.destinationAmount, currency: txn.destinationCurrency });

/** The transfer kind: a payout through the provider, settled by it; money out, in the source currency, paid in the destination's. */
export class TransferKind implements TransactionKindHandler<'transfer'> {
  readonly kind = 'transfer' as const;
  readonly referencePrefix = 'trf';

  constructor(private readonly deps: TransferKindDeps) {}

  /** What the beneficiary receives, in the destination currency with its decimals. */
  route(txn: TransferTransaction): RouteLeg {
    return crossBorderLeg(this.deps.reference, txn, moved(txn));
  }

  /** The payout, from the stored row, so reconciliation can ask again with the same key. */
  callProvider(txn: TransferTransaction, idempotencyKey: string, _transient?: never, retry = false): Promise<ProviderAnswer> {
    return payOut(this.deps.rails, this.deps.reference, txn, moved(txn), idempotencyKey, retry);
  }

  settle(txn: TransferTransaction, trigger: DecideTrigger) {
    return crossBorderDecide(this.deps.rails, this.deps.reference, txn, moved(txn), trigger);
  }

  ledger(txn: TransferTransaction): LedgerEffect {
    return moneyOutLedger(txn, txn.connector, {
      type: 'transfer',
      currency: txn.sourceCurrency,
      amount: txn.sourceAmount,
      fee: txn.fee,
      payoutCurrency: txn.destinationCurrency,
      payoutAmount: txn.destinationAmount,
    });
  }

  expectedLegs = moneyOutLegs;
}
