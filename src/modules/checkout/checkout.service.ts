import { z } from 'zod';
import { uniqueViolation } from '../../db/sql';
import type { Clock } from '../../shared/clock';
import { timeOrderedBytes } from '../../shared/crypto';
import { AppError } from '../../shared/errors';
import { parseAmount } from '../../shared/money';
import type { PublicAddress } from '../../shared/public-address';
import { parseInput } from '../../shared/validation';
import type { Logger } from '../../shared/logger';
import type { Outbox, StampedEvent } from '../outbox/outbox';
import type { PaymentOrigin } from '../transactions/kinds/payment/payment-origin';
import type { PaymentService } from '../transactions/kinds/payment/payment.service';
import type { ProviderSignals } from '../transactions/provider-signals.service';
import type { Transaction } from '../transactions/transaction.record';
import type { TransactionQueries } from '../transactions/queries.service';
import type { CheckoutMerchants } from './checkout.merchants';
import { serializeCheckoutSession, type CheckoutSession } from './checkout.records';
import { DEFAULT_EXPIRES_IN_S, checkoutPaySchema, checkoutSessionSchema, type CheckoutPayInput, type CheckoutSessionCommand } from './checkout.schemas';
import type { CheckoutStore, StoredSession } from './checkout.store';
import { CHECKOUT_METHODS, type CheckoutAttemptView, type CheckoutMethod, type CheckoutPageView } from './checkout.views';

/** What the checkout needs of the payment kind (issue 37 part 1): a payment of the session. */
export type CheckoutPayments = Pick<PaymentService, 'initiatePayment'>;

/** What the country, currency and configured connectors allow, in page order (pure, in memory). */
export type DomesticMethods = (countryCode: string, currency: string) => readonly CheckoutMethod[];

export interface CheckoutServiceDeps {
  store: CheckoutStore;
  merchants: CheckoutMerchants;
  payments: CheckoutPayments;
  methods: DomesticMethods;
  queries: Pick<TransactionQueries, 'findById'>;
  /** The settlement's status query, one-off: asked about an earlier prompt when the payer asks for a new one. */
  signals: Pick<ProviderSignals, 'settle'>;
  outbox: Outbox;
  publicAddress: PublicAddress;
  clock: Clock;
  logger: Logger;
  /** Adds the expiry sweep's run for a 30 s slot (once in the cluster: its key). */
  scheduleSweep(slot: number): Promise<void>;
}

/** `cs_` and 24 characters: 6 bytes of time (index locality), then 12 random ones. */
const SESSION_ID = /^cs_[A-Za-z0-9_-]{24}$/;
export const newSessionId = () => `cs_${timeOrderedBytes(18).toString('base64url')}`;

/** Sessions expired per batch of the sweep. */
const EXPIRY_BATCH = 500;

/** The issue of the refusal of a new prompt while the earlier one is still open at the provider (the page says it in its language). */
export const PROMPT_STILL_OPEN = 'prompt_still_open';

/** Options of a session opened by another service (a payment link). */
export interface OpenedBy {
  paymentLinkId: string;
  /** Its id, known beforehand (the link's session returns to its own page). */
  sessionId: string;
}

/** A link's sessions have references of the service's making (`plink-{slug}-{n}`), longer than a merchant's 60. */
const linkSessionSchema = checkoutSessionSchema.extend({ reference: z.string().max(90) });

/**
 * Hosted checkout sessions (issue 37, part 2): created by the merchant's server (one INSERT), paid on
 * the page (each attempt a payment of the session, `{reference}-N`), completed by the payment's own
 * event statement (a job), expired by a sweep. The page routes call `pageView`, `attemptView`, `pay`
 * and `cancel` with the session id as the key: no bearer.
 */
export class CheckoutService {
  constructor(private readonly deps: CheckoutServiceDeps) {}

  async createSession(merchantId: string, command: CheckoutSessionCommand, openedBy?: OpenedBy): Promise<CheckoutSession> {
    const body = parseInput(openedBy ? linkSessionSchema : checkoutSessionSchema, command);
    const { country, minorUnit } = await this.deps.merchants.domesticCurrency(merchantId, body.currency);
    const amount = parseAmount(body.amount, minorUnit);
    const available = this.deps.methods(country, body.currency);
    if (available.length === 0) throw AppError.invalidField('currency', `has no payment method available in ${country} here yet`);
    if (body.paymentMethods && !body.paymentMethods.some((m) => available.includes(m))) {
      throw AppError.invalidField('paymentMethods', `must include one of the methods available for ${body.currency}: ${available.join(', ')}`);
    }
    const now = this.deps.clock.now();
    try {
      const stored = await this.deps.store.insert({
        id: openedBy?.sessionId ?? newSessionId(),
        merchantId,
        amount,
        currency: body.currency,
        reference: body.reference,
        customer: { email: body.customer.email, phone: body.customer.phone ?? null, name: body.customer.name ?? null },
        paymentMethods: body.paymentMethods ?? null,
        redirectUrl: body.redirectUrl,
        cancelUrl: body.cancelUrl ?? null,
        metadata: body.metadata ?? null,
        description: body.description ?? null,
        paymentLinkId: openedBy?.paymentLinkId ?? null,
        expiresAt: new Date(now.getTime() + (body.expiresIn ?? DEFAULT_EXPIRES_IN_S) * 1000),
        createdAt: now,
      });
      return this.withUrl(stored);
    } catch (err) {
      if (uniqueViolation(err) === 'checkout_session_reference_key') {
        throw AppError.duplicateField('reference', 'is already used by another of your checkout sessions');
      }
      throw err;
    }
  }

  /** The merchant's session; another merchant's, or a junk id, is NOT_FOUND alike. An overdue one is expired on the spot. */
  async getSession(merchantId: string, id: string): Promise<CheckoutSession> {
    const session = await this.find(id);
    if (!session || session.merchantId !== merchantId) throw AppError.notFound('Checkout session');
    return this.withUrl(await this.expiredIfDue(session));
  }

  /**
   * A merchant's checkout logo by its digest (the name the page links it under), for the page's <img>; null when
   * no merchant has it. Its bytes were checked by content when uploaded (a PNG or JPEG).
   */
  async logo(sha256: string): Promise<{ contentType: string; bytes: Buffer } | null> {
    return /^[0-9a-f]{64}$/.test(sha256) ? this.deps.merchants.logo(sha256) : null;
  }

  /** The page: null when there is no such session. An open session past its deadline shows (and becomes) expired. */
  async pageView(sessionId: string): Promise<CheckoutPageView | null> {
    const found = await this.find(sessionId);
    if (!found) return null;
    const session = await this.expiredIfDue(found);
    const merchant = await this.deps.merchants.pageMerchant(session.merchantId);
    const country = merchant.country ?? (await this.deps.merchants.domesticCurrency(session.merchantId, session.currency)).country;
    const methods = this.methodsOf(session, country);
    return {
      id: session.id,
      status: session.status,
      merchantName: merchant.name,
      merchantLogoPath: merchant.logoPath,
      embedOrigins: merchant.embedOrigins,
      amount: this.deps.merchants.format(session.amount, session.currency),
      currency: session.currency,
      countryCode: country,
      description: session.description,
      methods,
      networks: methods.includes('momo') ? this.deps.merchants.momoNetworks(country) : [],
      customer: session.customer,
      redirectUrl: session.redirectUrl,
      cancelUrl: session.cancelUrl,
      expiresAt: session.expiresAt,
      attempt: await this.latestAttempt(session.id),
    };
  }

  /** The latest attempt, for the page's live status; null when there is no session or no attempt. */
  async attemptView(sessionId: string): Promise<CheckoutAttemptView | null> {
    return SESSION_ID.test(sessionId) ? this.latestAttempt(sessionId) : null;
  }

  /**
   * One payment attempt on the page. Refused unless the session is open and before its deadline, and
   * the method is one of the session's. A second attempt while one is in flight, or after one
   * succeeded, is refused by the transactions' index (INVALID_STATE); a failed one may be retried.
   * A new mobile money prompt while the earlier one is in flight first asks the provider about that
   * one (`settleEarlierPrompt`): only a prompt decided failed or expired makes way for a new one.
   */
  async pay(sessionId: string, input: CheckoutPayInput): Promise<CheckoutAttemptView> {
    const body = parseInput(checkoutPaySchema, input);
    const found = await this.find(sessionId);
    if (!found) throw AppError.notFound('Checkout session');
    const session = await this.expiredIfDue(found);
    this.assertOpen(session);
    const country = (await this.deps.merchants.domesticCurrency(session.merchantId, session.currency)).country;
    if (!this.methodsOf(session, country).includes(body.method)) throw AppError.invalidField('method', 'is not offered by this checkout');
    if (body.method === 'momo') {
      const approved = await this.settleEarlierPrompt(session.id);
      if (approved) return approved;
    }
    const attempt = await this.deps.store.startAttempt(session.id, this.deps.clock.now());
    if (attempt === null) {
      this.assertOpen(await this.expiredIfDue((await this.find(sessionId)) ?? session));
      throw new AppError('INVALID_STATE', 'This checkout has expired');
    }
    // The PIN and billing address go with the card to the processor, as the payment's origin (never the merchant's API).
    const { method, cardPin, billingAddress, details } = partsOf(body);
    const payment = await this.deps.payments.initiatePayment(
      session.merchantId,
      {
        ...details,
        countryCode: method === 'card' ? undefined : country,
        reference: `${session.reference}-${attempt}`,
        amount: session.amount,
        currency: session.currency,
        paymentMethod: method,
        redirectUrl: this.pageUrl(session.id),
        description: session.description ?? undefined,
      },
      { checkoutSessionId: session.id, cardPin, billingAddress: billingAddress as PaymentOrigin['billingAddress'] },
    );
    return attemptViewOf(payment, this.deps.merchants);
  }

  /**
   * "Didn't get the prompt? Try again" while the session's earlier prompt is in flight: the provider is asked about it
   * now (the settlement's status query, its verdict applied as the settlement pump's would be). Decided failed or
   * expired (or no prompt in flight): null, and a new prompt may go. Approved: that payment, and nothing new is sent.
   * Still pending, or no answer: refused, since the payer may still approve it on the phone, and a second prompt
   * beside it could be approved too: one session is never paid twice.
   */
  private async settleEarlierPrompt(sessionId: string): Promise<CheckoutAttemptView | null> {
    const id = await this.deps.store.claimingAttemptId(sessionId);
    const earlier = id ? await this.deps.queries.findById(id) : null;
    if (earlier?.kind !== 'payment' || earlier.paymentMethod !== 'momo' || (earlier.status !== 'processing' && earlier.status !== 'requires_action')) {
      return null;
    }
    try {
      await this.deps.signals.settle(earlier.id, null);
    } catch (err) {
      this.deps.logger.warn({ sessionId, reference: earlier.reference, err }, 'status query for a prompt the payer retried failed; it stays open');
    }
    const now = await this.deps.queries.findById(earlier.id);
    if (now?.status === 'failed' || now?.status === 'expired') return null;
    if (now?.status === 'successful') return attemptViewOf(now, this.deps.merchants);
    const until = earlier.expiresAt ? ` (until ${earlier.expiresAt.toISOString()})` : '';
    throw new AppError(
      'INVALID_STATE',
      `The payment request sent to ${earlier.accountNumber ?? 'your phone'} is still open on the network${until}: approve it on your phone, or wait until it expires, then try again. Nothing was charged`,
      [{ field: 'phone', issue: PROMPT_STILL_OPEN }],
    );
  }

  /** The payer gives up: nothing changes on the session (it may still be paid until it expires); where to send them. */
  async cancel(sessionId: string): Promise<{ cancelUrl: string | null; redirectUrl: string } | null> {
    const session = await this.find(sessionId);
    return session ? { cancelUrl: session.cancelUrl, redirectUrl: session.redirectUrl } : null;
  }

  /** The `checkout.complete-session` job: the session's payment succeeded. Idempotent. */
  async completeSession(sessionId: string, transactionReference: string): Promise<void> {
    const done = await this.deps.store.complete(sessionId, transactionReference, this.deps.clock.now(), (s) => this.event('checkout.session.completed', s));
    if (done) this.deps.logger.info({ sessionId, transactionReference }, 'checkout session completed');
  }

  /** Expires due open sessions whose latest attempt is not in flight, in batches; how many it expired. */
  async expireDue(maxBatches = 10): Promise<number> {
    let expired = 0;
    for (let batch = 0; batch < maxBatches; batch++) {
      const now = this.deps.clock.now();
      const due = await this.deps.store.due(now, EXPIRY_BATCH);
      for (const session of due) if (await this.deps.store.expire(session, now, (s) => this.event('checkout.session.expired', s))) expired++;
      if (due.length < EXPIRY_BATCH) break;
    }
    return expired;
  }

  /** The sweep job: its next run first (so a failure here never ends the chain), then the work. */
  async runExpirySweep(slot: number): Promise<void> {
    await this.deps.scheduleSweep(slot + 1);
    await this.expireDue();
  }

  private async find(id: string): Promise<StoredSession | null> {
    return SESSION_ID.test(id) ? this.deps.store.find(id) : null;
  }

  private async expiredIfDue(session: StoredSession): Promise<StoredSession> {
    if (session.status !== 'open' || session.expiresAt > this.deps.clock.now()) return session;
    await this.deps.store.expire(session, this.deps.clock.now(), (s) => this.event('checkout.session.expired', s));
    return (await this.deps.store.find(session.id)) ?? session;
  }

  private assertOpen(session: StoredSession): void {
    if (session.status === 'complete') throw new AppError('INVALID_STATE', 'This checkout is already paid');
    if (session.status === 'expired') throw new AppError('INVALID_STATE', 'This checkout has expired');
    if (session.expiresAt <= this.deps.clock.now()) throw new AppError('INVALID_STATE', 'This checkout has expired; a payment under way finishes first');
  }

  /** The session's methods that are available now, in page order. */
  private methodsOf(session: StoredSession, country: string): CheckoutMethod[] {
    const available = this.deps.methods(country, session.currency);
    return CHECKOUT_METHODS.filter((m) => available.includes(m) && (session.paymentMethods === null || session.paymentMethods.includes(m)));
  }

  private async latestAttempt(sessionId: string): Promise<CheckoutAttemptView | null> {
    const id = await this.deps.store.latestAttemptId(sessionId);
    const txn = id ? await this.deps.queries.findById(id) : null;
    return txn?.kind === 'payment' ? attemptViewOf(txn, this.deps.merchants) : null;
  }

  private event(type: 'checkout.session.completed' | 'checkout.session.expired', s: StoredSession): StampedEvent {
    return this.deps.outbox.stamp(
      { merchantId: s.merchantId, type, subjectId: s.id, payload: serializeCheckoutSession(this.withUrl(s)) },
      { key: `${type}:${s.id}`, at: s.createdAt },
    );
  }

  pageUrl(id: string): string {
    return `${this.deps.publicAddress.url}/checkout/${id}`;
  }

  private withUrl(s: StoredSession): CheckoutSession {
    return { ...s, url: this.pageUrl(s.id) };
  }
}

/** An attempt's method, its command's own fields, and what goes in the payment's origin (a card's PIN and billing address). */
function partsOf(body: z.output<typeof checkoutPaySchema>) {
  if (body.method !== 'card') {
    const { method, ...details } = body;
    return { method, details, cardPin: null, billingAddress: null };
  }
  const { pin, ...card } = body.card;
  return { method: body.method, details: { card }, cardPin: pin ?? null, billingAddress: body.billingAddress ?? null };
}

/** What the page shows of a payment of the session. */
function attemptViewOf(t: Transaction, networks: Pick<CheckoutMerchants, 'networkCode'>): CheckoutAttemptView {
  const row = t as Transaction & {
    accountNumber?: string | null;
    networkId?: string | null;
    bankInfo?: CheckoutAttemptView['bankDetails'];
    nextActionUrl?: string | null;
  };
  const method = (t.kind === 'payment' ? t.paymentMethod : 'card') as CheckoutMethod;
  return {
    reference: t.reference,
    method,
    status: t.status as CheckoutAttemptView['status'],
    failureReason: t.failureReason,
    nextActionUrl: row.nextActionUrl ?? null,
    cardBrand: t.cardBrand ?? null,
    cardLast4: t.cardLast4 ?? null,
    phone: method === 'momo' ? (row.accountNumber ?? null) : null,
    network: method === 'momo' ? networks.networkCode(row.networkId ?? null) : null,
    bankDetails: method === 'bank_transfer' ? (row.bankInfo ?? null) : null,
    expiresAt: t.expiresAt,
  };
}
