import { z } from 'zod';
import { AppError } from '../../../../shared/errors';
import { referenceField, requiredText } from '../../../../shared/fields';
import { Decimal, formatAmount, parseAmount } from '../../../../shared/money';
import { parseInput, type Command } from '../../../../shared/validation';
import type { AuditContext, AuditLog } from '../../../audit/audit-log';
import type { ReferenceService } from '../../../reference/reference.service';
import type { RefundTransaction, Transaction } from '../../transaction.record';
import type { TransactionLifecycle } from '../../lifecycle.service';
import type { TransactionQueries } from '../../queries.service';

/** POST /v1/refunds, in the domain's names. */
export const refundSchema = z.object({
  paymentReference: z.string({ error: 'is required and must be a string' }).min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
  /** What to give back; absent: everything not yet refunded. */
  amount: z.unknown().optional(),
  reason: requiredText(255),
  reference: referenceField,
});
export type RefundCommand = Command<typeof refundSchema>;

/** What RefundService is built with (the composition root passes it). */
export interface RefundServiceDeps {
  lifecycle: TransactionLifecycle;
  queries: TransactionQueries;
  reference: ReferenceService;
  /** The audit log's writer: a refund created writes `refund.created`. */
  audit: AuditLog;
  /**
   * The payment's chargebacks (issue 39): whether one is open (no refund until the dispute closes), and what they hold
   * or took (`disputed_amount`: a lost chargeback's amount is not there to refund).
   */
  chargebacks(paymentId: string): Promise<{ open: boolean; disputed: Decimal }>;
}

/**
 * Refunds of card payments, full or partial, on the one creation path. The refund's insert
 * claims its amount on the payment (refunded_amount, never above the amount captured, checked
 * on the row's latest version, so concurrent refunds cannot overshoot) and reserves it from the
 * merchant's available balance (402 INSUFFICIENT_FUNDS when it cannot), in one statement.
 */
export class RefundService {
  constructor(private readonly deps: RefundServiceDeps) {}

  /**
   * `audit`: who asks, and from where. A refund created (whatever its provider answered) writes one
   * `refund.created` entry; a refused one (a check, a reused reference, a provider's outright refusal) writes none.
   */
  async refundPayment(merchantId: string, command: RefundCommand, audit?: AuditContext): Promise<RefundTransaction> {
    const body = parseInput(refundSchema, command);
    const payment = await this.deps.queries.getTransaction(merchantId, body.paymentReference).catch((err: unknown) => {
      throw err instanceof AppError && err.code === 'NOT_FOUND' ? AppError.notFound('Payment') : err;
    });
    if (payment.kind !== 'payment') throw AppError.notFound('Payment');
    if (payment.status !== 'successful') throw new AppError('INVALID_STATE', `The payment is ${payment.status}: only a successful payment can be refunded`);
    const chargebacks = await this.deps.chargebacks(payment.id);
    if (chargebacks.open) {
      throw new AppError('INVALID_STATE', 'The payment is disputed: it cannot be refunded while the dispute is open (GET /v1/disputes?payment_reference=…)');
    }
    const minorUnit = this.deps.reference.currencyMinorUnit(payment.currency) ?? 2;
    // What its refunds and its lost chargebacks have not given back (the claim in the refund's insert checks it again).
    const left = payment.amount.minus(payment.refundedAmount).minus(chargebacks.disputed);
    if (left.lte(0)) {
      throw new AppError(
        'INVALID_STATE',
        chargebacks.disputed.isZero()
          ? 'The payment is refunded in full already'
          : 'Nothing is left of the payment to refund: its refunds and a chargeback took all of it',
      );
    }
    const amount = body.amount === undefined || body.amount === null ? left : parseAmount(body.amount, minorUnit);
    const tooMuch = () =>
      AppError.invalidField('amount', `is more than what is left to refund of the payment, ${formatAmount(left, minorUnit)} ${payment.currency}`);
    if (amount.gt(left)) throw tooMuch();
    const recordCreated = async (refund: Transaction) => {
      if (!audit) return;
      await this.deps.audit.record({
        merchantId,
        ...audit,
        action: 'refund.created',
        target: { type: 'refund', id: refund.reference },
        after: { amount: formatAmount(amount, minorUnit), currency: payment.currency, payment_reference: payment.reference, status: refund.status },
      });
    };
    let refund: RefundTransaction;
    try {
      refund = await this.deps.lifecycle.initiate({
        merchantId,
        kind: 'refund',
        externalReference: body.reference,
        customerId: payment.customerId,
        amount,
        currency: payment.currency,
        fee: new Decimal(0),
        reason: body.reason,
        parentId: payment.id,
        parentReference: payment.reference,
        // Back through the processor that charged it.
        connector: payment.connector,
      });
    } catch (err) {
      // The provider's answer is unknown: the refund is kept (and reconciled), so it was created all the same.
      if (err instanceof AppError && err.code === 'SERVER_ERROR') {
        const kept = await this.deps.queries.getTransaction(merchantId, body.reference).catch(() => null);
        if (kept?.kind === 'refund' && kept.parentId === payment.id) await recordCreated(kept);
      }
      throw err;
    }
    await recordCreated(refund);
    return refund;
  }

  /** The refund's current record; another kind's reference, or another merchant's, is NOT_FOUND. */
  async getRefund(merchantId: string, referenceOrExternal: string): Promise<RefundTransaction> {
    const txn = await this.deps.queries.getTransaction(merchantId, referenceOrExternal).catch((err: unknown) => {
      throw err instanceof AppError && err.code === 'NOT_FOUND' ? AppError.notFound('Refund') : err;
    });
    if (txn.kind !== 'refund') throw AppError.notFound('Refund');
    return txn;
  }
}
