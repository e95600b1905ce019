import {
  chargesCards,
  offering,
  type CardDetails,
  type DecideTrigger,
  type Route,
  type RouteLeg,
  type SettlementDecision,
} from '../../../../providers/connector';
import type { Clock } from '../../../../shared/clock';
import { formatAmount } from '../../../../shared/money';
import type { Rails } from '../../../rails/rails';
import type { ReferenceService } from '../../../reference/reference.service';
import { TransactionJob } from '../../transaction.jobs';
import type { Expiry, LedgerEffect, ProviderAnswer, TransactionKindHandler } from '../../transaction.kinds';
import { moneyInAvailableAt, moneyInLedger, moneyInLegs, moneyInRelease } from '../../transaction.ledger';
import type { PaymentTransaction } from '../../transaction.record';

/** A transaction's amount with exactly its currency's decimals ("2500.00", "3700"). */
export function amountOf(reference: Pick<ReferenceService, 'currencyMinorUnit'>, txn: Pick<PaymentTransaction, 'amount' | 'currency'>): string {
  const minorUnit = reference.currencyMinorUnit(txn.currency);
  if (minorUnit === undefined) throw new Error(`No minor unit is known for ${txn.currency}`);
  return formatAmount(txn.amount, minorUnit);
}

/** Domestic card payments: one route, whatever the card. */
export const CARD_ROUTE: Route = { channelType: 'card', countryCode: null, networkCode: null, direction: 'collection' };

/** What PaymentKind is built with (the composition root passes it). */
export interface PaymentKindDeps {
  reference: ReferenceService;
  rails: Rails;
  clock: Clock;
  /** How long a cardholder has to complete 3-D Secure (PAYMENT_ACTION_TTL_S). */
  actionTtlS: number;
  /** The settlement delay: a settled payment's net is released after it. */
  releaseDelayMs: number;
}

/**
 * The payment kind: a card charge, decided at once or by 3-D Secure (its authentication step,
 * PaymentService.authenticate), which expires into a failure; money in.
 */
export class PaymentKind implements TransactionKindHandler<'payment', CardDetails> {
  readonly kind = 'payment' as const;
  readonly referencePrefix = 'pay';
  readonly expiry: Expiry = { from: 'requires_action', to: 'failed', reason: 'authentication_expired', job: TransactionJob.ExpirePaymentAction };
  /** 3-D Secure: the cardholder authenticates on the processor's page (or the sandbox's, PaymentService.authenticate). */
  readonly authentication = { awaiting: 'requires_action' } as const;
  readonly expectedLegs: TransactionKindHandler<'payment'>['expectedLegs'];

  constructor(private readonly deps: PaymentKindDeps) {
    this.expectedLegs = moneyInLegs(deps.releaseDelayMs);
  }

  /**
   * The charge, with the card passed on from the request. Without the card
   * (reconciliation after a crash), the provider is asked what became of the
   * charge made with this key; one it never received is closed, so it never
   * happens.
   */
  route(txn: PaymentTransaction): RouteLeg {
    return { route: CARD_ROUTE, amount: amountOf(this.deps.reference, txn), currency: txn.currency, accountNumber: null };
  }

  async callProvider(txn: PaymentTransaction, idempotencyKey: string, card?: CardDetails): Promise<ProviderAnswer> {
    const connector = this.deps.rails.of(txn);
    const charge = card
      ? await offering(connector, chargesCards, 'chargeCard').chargeCard({
          idempotencyKey,
          reference: txn.reference,
          amount: amountOf(this.deps.reference, txn),
          currency: txn.currency,
          card,
          payer: this.deps.rails.payer(txn),
          returnUrl: this.deps.rails.returnUrl(txn),
        })
      : await offering(connector, chargesCards, 'concludeCardCharge').concludeCardCharge(idempotencyKey, {
          amount: amountOf(this.deps.reference, txn),
          currency: txn.currency,
        });
    switch (charge.outcome) {
      case 'successful':
        return { status: 'successful', providerReference: charge.providerReference };
      case 'failed':
        return { status: 'failed', failureReason: charge.reason, providerReference: charge.providerReference };
      case 'requires_action':
        return {
          status: 'requires_action',
          providerReference: charge.providerReference,
          nextActionUrl: charge.authenticationUrl,
          expiresAt: new Date(this.deps.clock.now().getTime() + this.deps.actionTtlS * 1000),
          followUps: [{ name: TransactionJob.ExpirePaymentAction, delayMs: this.deps.actionTtlS * 1000 }],
        };
    }
  }

  /**
   * A payment awaiting the cardholder on a real processor's page: what the processor says now (its
   * webhook, the return to our page, or the expiry ask). The sandbox's page decides by itself.
   */
  async settle(txn: PaymentTransaction, trigger: DecideTrigger): Promise<SettlementDecision> {
    const connector = this.deps.rails.of(txn);
    if (connector.inProcess) return { outcome: 'pending' };
    return this.deps.rails.decide(txn, {
      kind: 'payment',
      idempotencyKey: txn.id,
      amount: amountOf(this.deps.reference, txn),
      currency: txn.currency,
      providerReference: txn.providerReference,
      ...(await this.deps.rails.decideContext(txn, trigger)),
    });
  }

  ledger(txn: PaymentTransaction): LedgerEffect {
    return moneyInLedger(txn, txn.connector, this.deps.releaseDelayMs);
  }

  availableAt(txn: PaymentTransaction): Date {
    return moneyInAvailableAt(txn, this.deps.releaseDelayMs);
  }

  release(txn: PaymentTransaction): LedgerEffect {
    return moneyInRelease(txn);
  }

  simulationRefusal(txn: PaymentTransaction): string | null {
    return txn.status === 'requires_action'
      ? 'The payment awaits the cardholder’s 3-D Secure authentication: it is decided on its page (the next action’s URL), not simulated'
      : null;
  }
}
