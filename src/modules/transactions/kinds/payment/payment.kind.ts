import {
  chargesCards,
  offering,
  validatesCardOtp,
  type CardDetails,
  type CardOtpAnswer,
  type DecideTrigger,
  type Route,
  type RouteLeg,
  type SettlementDecision,
} from '../../../../providers/connector';
import type { Clock } from '../../../../shared/clock';
import type { Rails } from '../../../rails/rails';
import type { ReferenceService } from '../../../reference/reference.service';
import { TransactionJob } from '../../transaction.jobs';
import { amountOf, decideCollected, openAccount, promptSent } from '../money-in.answers';
import { UNPAID_EXPIRY, type Expiry, type LedgerEffect, type ProviderAnswer, type TransactionKindHandler } from '../../transaction.kinds';
import { moneyInAvailableAt, moneyInLedger, moneyInLegs, moneyInRelease } from '../../transaction.ledger';
import type { PaymentTransaction } from '../../transaction.record';
import type { CardOtpChallenges } from './card-otp';

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
  /** How long a bank transfer payment's account stays open (COLLECTION_TTL_S, as a bank collection's). */
  collectionTtlS: number;
  /** The page where a cardholder enters the code the issuer sent (after a PIN). */
  otp: Pick<CardOtpChallenges, 'url'>;
}

/** A card's 3-D Secure not completed in time fails the payment. */
const AUTHENTICATION_EXPIRY: Expiry = { from: 'requires_action', to: 'failed', reason: 'authentication_expired', job: TransactionJob.ExpirePaymentAction };

/** The money-in route of a domestic mobile money or bank transfer payment: its country, channel type and network. */
function domesticRoute(reference: ReferenceService, txn: PaymentTransaction): Route {
  return {
    channelType: txn.accountType ?? 'momo',
    countryCode: txn.countryCode,
    networkCode: (txn.networkId && reference.network(txn.networkId)?.code) ?? null,
    direction: 'collection',
  };
}

/**
 * The payment kind, money in, by its method:
 * - card: a charge, decided at once or by 3-D Secure (its authentication step,
 *   PaymentService.authenticate), which expires into a failure;
 * - momo (domestic): a payment prompt on the payer's phone, decided by the provider;
 * - bank_transfer (domestic): an account to pay into, paid by the payer or expired.
 * The domestic methods travel a collection's route and connectors: to a provider they are collections.
 */
export class PaymentKind implements TransactionKindHandler<'payment', CardDetails> {
  readonly kind = 'payment' as const;
  readonly referencePrefix = 'pay';
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
    const route = txn.paymentMethod === 'card' ? CARD_ROUTE : domesticRoute(this.deps.reference, txn);
    return { route, amount: amountOf(this.deps.reference, txn), currency: txn.currency, accountNumber: txn.accountNumber };
  }

  expiry(txn: PaymentTransaction): Expiry | null {
    if (txn.paymentMethod === 'card') return AUTHENTICATION_EXPIRY;
    return txn.paymentMethod === 'bank_transfer' ? UNPAID_EXPIRY : null;
  }

  async callProvider(txn: PaymentTransaction, idempotencyKey: string, card?: CardDetails, retry = false): Promise<ProviderAnswer> {
    if (txn.paymentMethod === 'bank_transfer') return this.openAccount(txn, idempotencyKey, retry);
    if (txn.paymentMethod === 'momo') return this.prompt(txn, idempotencyKey, retry);
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
          otpUrl: () => this.deps.otp.url(txn.id),
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

  /** The code the issuer sent the cardholder, for the charge waiting for it: the charge as it stands after it. */
  async validateCardOtp(txn: PaymentTransaction, otp: string): Promise<CardOtpAnswer> {
    return offering(this.deps.rails.of(txn), validatesCardOtp, 'validateCardOtp').validateCardOtp({
      providerReference: txn.providerReference,
      otp,
      idempotencyKey: txn.id,
      amount: amountOf(this.deps.reference, txn),
      currency: txn.currency,
    });
  }

  /** Bank transfer: an account unique to this payment, open until its deadline (the provider's, if sooner). */
  private openAccount(txn: PaymentTransaction, idempotencyKey: string, retry: boolean): Promise<ProviderAnswer> {
    return openAccount(this.deps, txn, idempotencyKey, retry);
  }

  /** Mobile money: the payment prompt on the payer's phone (or the provider's approval page), then the provider decides. */
  private async prompt(txn: PaymentTransaction, idempotencyKey: string, retry: boolean): Promise<ProviderAnswer> {
    const connector = this.deps.rails.of(txn);
    const sent = await connector.initiate({
      idempotencyKey,
      kind: 'collection',
      reference: txn.reference,
      accountType: 'momo',
      countryCode: txn.countryCode ?? '',
      networkCode: (txn.networkId && this.deps.reference.network(txn.networkId)?.code) ?? '',
      dialCode: txn.dialCode ?? '',
      accountNumber: txn.accountNumber ?? '',
      accountName: null,
      amount: amountOf(this.deps.reference, txn),
      currency: txn.currency,
      description: txn.description,
      callbackUrl: this.deps.rails.callbackUrl(txn),
      payer: this.deps.rails.payer(txn),
      retry: retry ? await this.deps.rails.retryContext(txn) : null,
    });
    return promptSent(sent, this.deps.rails.firstPollMs(txn));
  }

  /**
   * A payment awaiting the cardholder on a real processor's page: what the processor says now (its
   * webhook, the return to our page, or the expiry ask). The sandbox's page decides by itself.
   */
  async settle(txn: PaymentTransaction, trigger: DecideTrigger): Promise<SettlementDecision> {
    if (txn.paymentMethod !== 'card') {
      // Mobile money and bank transfers: the provider's verdict on the collection it carries.
      return decideCollected(this.deps, txn, trigger);
    }
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
