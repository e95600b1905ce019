import type { DecideTrigger, RouteLeg } from '../../../../providers/connector';
import type { EventType } from '../../../outbox/event-types';
import type { Rails } from '../../../rails/rails';
import type { ReferenceService } from '../../../reference/reference.service';
import { crossBorderDecide, crossBorderLeg, payOut, type Moved } from '../cross-border.checks';
import type { PayoutTransaction } from '../../transaction.record';
import type { TransactionStatus } from '../../transaction.state';
import type { LedgerEffect, ProviderAnswer, TransactionKindHandler } from '../../transaction.kinds';
import { moneyOutLedger, moneyOutLegs } from '../../transaction.ledger';
import { payoutOfTransaction, serializePayout } from './payout.record';

/** What PayoutKind is built with (the composition root passes it). */
export interface PayoutKindDeps {
  reference: ReferenceService;
  rails: Rails;
}

/** The destination receives the payout's amount less its fee (the fee is taken from it, not charged on top). */
const moved = (txn: PayoutTransaction): Moved => ({ amount: txn.amount.minus(txn.fee), currency: txn.currency });

/** A payout's events are about the payout (issue 38): created once the provider has it, then paid or failed. */
const PAYOUT_EVENTS: Partial<Record<TransactionStatus, EventType>> = {
  processing: 'payout.created',
  successful: 'payout.paid',
  failed: 'payout.failed',
};

/**
 * The payout kind: the merchant's own money to its own destination (docs/payouts.md), paid out the way a transfer is
 * (same routing, breaker, status polls and reconciliation), in one currency. The balance holds `amount` from its
 * creation; success posts it to the provider's clearing (less the fee, to fee revenue); failure gives it back.
 */
export class PayoutKind implements TransactionKindHandler<'payout'> {
  readonly kind = 'payout' as const;
  readonly referencePrefix = 'pot';

  constructor(private readonly deps: PayoutKindDeps) {}

  route(txn: PayoutTransaction): RouteLeg {
    return crossBorderLeg(this.deps.reference, txn, moved(txn));
  }

  /** From the stored row, so reconciliation can ask again with the same key. */
  callProvider(txn: PayoutTransaction, idempotencyKey: string, _transient?: never, retry = false): Promise<ProviderAnswer> {
    return payOut(this.deps.rails, this.deps.reference, txn, moved(txn), idempotencyKey, retry);
  }

  settle(txn: PayoutTransaction, trigger: DecideTrigger) {
    return crossBorderDecide(this.deps.rails, this.deps.reference, txn, moved(txn), trigger);
  }

  eventType(status: TransactionStatus): EventType | null {
    return PAYOUT_EVENTS[status] ?? null;
  }

  /** The payout itself, as GET /v1/payouts/{id} shows it. */
  eventPayload(txn: PayoutTransaction): Record<string, unknown> {
    return serializePayout(payoutOfTransaction(txn, this.deps.reference.network(txn.networkId)?.name ?? null));
  }

  /** Told, not removed: a refused payout is a failed payout (payout.failed, the owner emailed, its money back). */
  readonly keepsRefusals = true;

  ledger(txn: PayoutTransaction): LedgerEffect {
    const paid = moved(txn);
    return moneyOutLedger(txn, txn.connector, {
      type: 'payout',
      currency: txn.currency,
      amount: paid.amount,
      fee: txn.fee,
      payoutCurrency: txn.currency,
      payoutAmount: paid.amount,
    });
  }

  expectedLegs = moneyOutLegs;
}
