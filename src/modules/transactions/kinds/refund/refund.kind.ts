import { offering, refunds, type DecideTrigger } from '../../../../providers/connector';
import { Decimal, formatAmount } from '../../../../shared/money';
import type { Rails } from '../../../rails/rails';
import type { ReferenceService } from '../../../reference/reference.service';
import { SETTLE, type LedgerEffect, type ProviderAnswer, type TransactionKindHandler } from '../../transaction.kinds';
import { moneyOutLedger, moneyOutLegs } from '../../transaction.ledger';
import type { RefundTransaction, Transaction } from '../../transaction.record';

/** What RefundKind is built with (the composition root passes it). */
export interface RefundKindDeps {
  reference: ReferenceService;
  rails: Rails;
  /** Where the refunded payment's row is read (the transaction store). */
  payments: { findById(id: string): Promise<Transaction | null> };
}

/** The refund kind: money out of the merchant's balance, back to the card through the provider; settled by it. */
export class RefundKind implements TransactionKindHandler<'refund'> {
  readonly kind = 'refund' as const;
  readonly referencePrefix = 'rfd';
  readonly expectedLegs = moneyOutLegs;

  constructor(private readonly deps: RefundKindDeps) {}

  async callProvider(txn: RefundTransaction, idempotencyKey: string, _transient?: never, retry = false): Promise<ProviderAnswer> {
    const minorUnit = this.deps.reference.currencyMinorUnit(txn.currency) ?? 2;
    const { providerReference } = await offering(this.deps.rails.of(txn), refunds, 'refund').refund({
      idempotencyKey,
      reference: txn.reference,
      chargeKey: txn.parentId,
      chargeReference: await this.chargeReference(txn),
      amount: formatAmount(txn.amount, minorUnit),
      currency: txn.currency,
      reason: txn.reason,
      retry,
    });
    return { status: 'processing', providerReference, followUps: [{ name: SETTLE, delayMs: this.deps.rails.firstPollMs(txn) }] };
  }

  async settle(txn: RefundTransaction, trigger: DecideTrigger) {
    return this.deps.rails.decide(txn, {
      kind: 'refund',
      idempotencyKey: txn.id,
      chargeKey: txn.parentId,
      providerReference: txn.providerReference,
      ...(await this.deps.rails.decideContext(txn, trigger)),
    });
  }

  /** The provider's reference of the refunded payment (read only for a real processor: the sandbox refunds by key). */
  private async chargeReference(txn: RefundTransaction): Promise<string | null> {
    if (this.deps.rails.of(txn).inProcess) return null;
    return (await this.deps.payments.findById(txn.parentId))?.providerReference ?? null;
  }

  /** Reserve with the claim on the payment; post to the provider; a failed refund gives both back. */
  ledger(txn: RefundTransaction): LedgerEffect {
    const effect = moneyOutLedger(txn, txn.connector, {
      type: 'refund',
      currency: txn.currency,
      amount: txn.amount,
      fee: new Decimal(0),
      payoutCurrency: txn.currency,
      payoutAmount: txn.amount,
    });
    if (txn.status === 'initiating') return { ...effect, parentClaim: { parentId: txn.parentId, amount: txn.amount } };
    if (txn.status === 'failed' || txn.status === 'expired') return { ...effect, parentClaim: { parentId: txn.parentId, amount: txn.amount.negated() } };
    return effect;
  }
}
