import type { CardDetails } from '../../../../providers/connector';
import type { Clock } from '../../../../shared/clock';
import { hmac } from '../../../../shared/crypto';
import { AppError } from '../../../../shared/errors';
import { parseAmount } from '../../../../shared/money';
import { parseInput } from '../../../../shared/validation';
import type { CustomerService } from '../../../customers/customer.service';
import type { MerchantService } from '../../../merchants/merchant.service';
import type { ReferenceService } from '../../../reference/reference.service';
import { pastDeadline, sameKind, type PaymentTransaction } from '../../transaction.record';
import type { FeeSchedule } from '../../../ledger/fee-schedule';
import type { TransactionJobHandlers } from '../../job-handlers.service';
import type { TransactionLifecycle } from '../../lifecycle.service';
import type { TransactionQueries } from '../../queries.service';
import type { Rails } from '../../../rails/rails';
import { checkCard } from './card.rules';
import { OTP_TRIES, type CardOtpChallenges } from './card-otp';
import { parseOrigin, type PaymentOrigin } from './payment-origin';
import type { PaymentKind } from './payment.kind';
import { amountOf } from '../money-in.answers';
import { PAYMENT_METHODS, type PaymentMethod } from './payment-methods';
import { paymentSchema, type PaymentCommand } from './payment.schema';
import { checkDomesticAmount, domesticCountry, momoNetwork, transferBank, walletNumber, type DomesticMethod } from './domestic.checks';
export { PAYMENT_METHODS, type PaymentMethod, type PaymentOrigin };
export { NEXT_ACTION_TYPES, paymentSchema, type PaymentCommand } from './payment.schema';

/** What the sandbox's 3-D Secure page (or the one-time code page) shows about the payment behind a handle. */
export type AuthenticationView =
  | { state: 'invalid' }
  | {
      state: 'open' | 'decided' | 'expired';
      payment: PaymentTransaction;
      merchantName: string;
      /** The merchant's country (the one-time code page's language when the browser prefers neither English nor French). */
      merchantCountry: string | null;
      /** With exactly its currency's decimals ("2500.00"); the currency is the payment's. */
      amount: string;
    };

/** The one-time code page after a submission: `decided`, this code decided the payment; `wrongCode`, it was not right (try again). */
export type OtpView = AuthenticationView & { decided?: boolean; wrongCode?: boolean };

/** The sandbox processor's lookup from a 3-D Secure page handle to its charge (the transaction's id). */
interface AuthenticationHandles {
  keyOfHandle(handle: string): Promise<string | null>;
}

/** What PaymentService is built with (the composition root passes it). */
export interface PaymentServiceDeps {
  lifecycle: TransactionLifecycle;
  queries: TransactionQueries;
  /** A 3-D Secure verdict that comes after the deadline fails the payment as its expiry job would. */
  expiry: Pick<TransactionJobHandlers, 'expire'>;
  customers: CustomerService;
  merchants: MerchantService;
  reference: ReferenceService;
  fees: FeeSchedule;
  clock: Clock;
  /** Keys the card fingerprint; derived from the encryption key, used for nothing else. */
  fingerprintKey: Buffer;
  /** Sandbox only: the 3-D Secure page's handles. */
  handles: AuthenticationHandles | null;
  /** A bank transfer payment's account stays open this long (COLLECTION_TTL_S). */
  collectionTtlS: number;
  /** The mobile money network a national number's prefix belongs to, by its code; null when the prefix says nothing. */
  predictNetwork: (countryCode: string, nationalNumber: string) => string | null;
  /** Which routes a configured connector serves (domestic mobile money and bank transfers). */
  rails: Pick<Rails, 'router'>;
  /** The one-time code page's handles and tries (a PIN card's code, after the PIN). */
  otp: Pick<CardOtpChallenges, 'transactionOf' | 'takeTry'>;
  /** The code, sent on to the charge's processor. */
  cardOtp: Pick<PaymentKind, 'validateCardOtp'>;
}

/**
 * Domestic card payments (spec §4.4, CONTRACT §7) on the one creation path: the
 * card is checked, the row is written (brand, last4 and a keyed fingerprint; never
 * the number, CVC or expiry), the card goes to the provider in memory, and the
 * answer is recorded with its history, event and jobs.
 */
export class PaymentService {
  constructor(private readonly deps: PaymentServiceDeps) {}

  async initiatePayment(merchantId: string, command: PaymentCommand, origin: PaymentOrigin = {}): Promise<PaymentTransaction> {
    const body = parseInput(paymentSchema, command);
    const from = parseOrigin(origin, body.paymentMethod);
    const minorUnit = this.deps.reference.currencyMinorUnit(body.currency);
    if (minorUnit === undefined) throw AppError.invalidField('currency', 'is not a supported currency');
    const amount = parseAmount(body.amount, minorUnit);
    const common = {
      merchantId,
      kind: 'payment' as const,
      externalReference: body.reference,
      amount,
      currency: body.currency,
      redirectUrl: body.redirectUrl ?? null,
      description: body.description || null,
      checkoutSessionId: from.checkoutSessionId,
    };
    if (body.paymentMethod !== 'card') {
      const columns = await this.domesticColumns(merchantId, body, body.paymentMethod, amount);
      const customer = body.customerUuid ? await this.deps.customers.getPayer(merchantId, body.customerUuid) : null;
      return this.deps.lifecycle.initiate({
        ...columns,
        ...common,
        customerId: customer?.id ?? null,
        paymentMethod: body.paymentMethod,
        fee: await this.deps.fees.fee(merchantId, 'payment', body.currency, amount),
      });
    }
    const card = checkCard(body.card!, this.deps.clock.now());
    const customer = body.customerUuid ? await this.deps.customers.getPayer(merchantId, body.customerUuid) : null;
    const details: CardDetails = {
      number: card.digits,
      expMonth: card.expMonth,
      expYear: card.expYear,
      cvc: card.cvc,
      postalCode: card.postalCode,
      pin: from.pin,
      billingAddress: from.billingAddress,
    };
    return this.deps.lifecycle.initiate(
      {
        ...common,
        customerId: customer?.id ?? null,
        fee: await this.deps.fees.fee(merchantId, 'payment', body.currency, amount),
        paymentMethod: 'card',
        cardBrand: card.brand,
        cardLast4: card.last4,
        // Per merchant: the same card has a different fingerprint at another merchant, so fingerprints link nothing across merchants.
        cardFingerprint: `fp_${hmac(this.deps.fingerprintKey, merchantId, card.digits).slice(0, 22)}`,
      },
      details,
    );
  }

  private readonly serves = (route: Parameters<Rails['router']['serves']>[0]) => this.deps.rails.router.serves(route);

  /** A domestic mobile money or bank transfer payment's route columns, checked: its country, network, account and amount. */
  private async domesticColumns(
    merchantId: string,
    body: Pick<PaymentCommand, 'currency' | 'countryCode' | 'phone' | 'network'>,
    method: DomesticMethod,
    amount: Parameters<typeof checkDomesticAmount>[4],
  ): Promise<Partial<PaymentTransaction>> {
    const merchant = await this.deps.merchants.getMerchant(merchantId);
    const country = domesticCountry(this.deps.reference, merchant.country, body);
    checkDomesticAmount(this.deps.reference, country, method, body.currency, amount);
    const channelType = method === 'momo' ? ('momo' as const) : ('bank' as const);
    const channel = this.deps.reference.channels(country.code, 'deposit').find((c) => c.channelType === channelType && c.status === 'active');
    if (method === 'momo') {
      const wallet = walletNumber(country, body.phone ?? '');
      const network = momoNetwork(this.deps.reference, this.serves, country, body.network, wallet, this.deps.predictNetwork);
      return {
        accountType: 'momo',
        countryCode: country.code,
        channelId: channel?.id ?? null,
        networkId: network.id,
        accountNumber: wallet,
        dialCode: country.dialCode,
      };
    }
    const bank = transferBank(this.deps.reference, this.serves, country);
    const expiresAt = new Date(this.deps.clock.now().getTime() + this.deps.collectionTtlS * 1000);
    // The account is held in the merchant's name: the payer sees whom they pay.
    return {
      accountType: 'bank',
      countryCode: country.code,
      channelId: channel?.id ?? null,
      networkId: bank.id,
      accountName: merchant.name.slice(0, 100),
      expiresAt,
    };
  }

  /** The payment's current record; a collection's or transfer's reference, or another merchant's, is NOT_FOUND. */
  async verifyPayment(merchantId: string, referenceOrExternal: string): Promise<PaymentTransaction> {
    const txn = await this.deps.queries.getTransaction(merchantId, referenceOrExternal).catch((err: unknown) => {
      throw err instanceof AppError && err.code === 'NOT_FOUND' ? AppError.notFound('Payment') : err;
    });
    if (txn.kind !== 'payment') throw AppError.notFound('Payment');
    return txn;
  }

  /** Sandbox 3-D Secure page: what it shows for a handle. Reading it changes nothing. */
  async authenticationPage(handle: string): Promise<AuthenticationView> {
    return this.page(await this.paymentOfHandle(handle));
  }

  /**
   * Sandbox 3-D Secure page: the cardholder's verdict, applied once. A second
   * submission, or one after the deadline, changes nothing and says why.
   */
  async authenticate(handle: string, authenticated: boolean): Promise<OtpView> {
    const payment = await this.paymentOfHandle(handle);
    if (!payment) return { state: 'invalid' };
    return this.conclude(payment, authenticated ? null : 'authentication_failed', '3ds');
  }

  /** The one-time code page (a PIN card's code, after the PIN): what it shows for a handle. Reading it changes nothing. */
  async otpPage(handle: string): Promise<AuthenticationView> {
    return this.page(await this.paymentOfOtpHandle(handle));
  }

  /** What a cardholder's page shows for its payment (null: the handle names none). */
  private async page(payment: PaymentTransaction | null): Promise<AuthenticationView> {
    if (!payment) return { state: 'invalid' };
    return this.view(payment, payment.status !== 'requires_action' ? 'decided' : pastDeadline(payment, this.deps.clock.now()) ? 'expired' : 'open');
  }

  /**
   * The code the cardholder entered, sent on to the processor: the payment is decided by its answer (successful, or
   * failed with its reason). A code that is not right keeps it waiting (`wrongCode`), up to OTP_TRIES codes: the last
   * wrong one fails it (authentication_failed). A code taken while the bank has not decided leaves the payment
   * `requires_action` until the processor says (its webhook, the poll, the deadline). A decided payment, or one past
   * its deadline, changes nothing.
   */
  async submitOtp(handle: string, otp: string): Promise<OtpView> {
    const payment = await this.paymentOfOtpHandle(handle);
    if (!payment) return { state: 'invalid' };
    if (payment.status !== 'requires_action' || pastDeadline(payment, this.deps.clock.now())) return this.conclude(payment, 'authentication_failed', 'otp');
    const tries = await this.deps.otp.takeTry(payment.id);
    const charge = tries === null ? null : await this.deps.cardOtp.validateCardOtp(payment, otp);
    if (charge?.outcome === 'wrong_code' && tries! < OTP_TRIES) return { ...(await this.view(payment, 'open')), wrongCode: true };
    if (charge?.outcome === 'requires_action') return { ...(await this.view(payment, 'decided')), decided: true };
    const reason = charge?.outcome === 'successful' ? null : charge?.outcome === 'failed' ? charge.reason : 'authentication_failed';
    // The processor's webhook may have decided it meanwhile: this code's verdict all the same.
    return { ...(await this.conclude(payment, reason, 'otp')), decided: true };
  }

  /** The cardholder's verdict (`failureReason` null: authenticated), applied once: the page's answer. */
  private async conclude(payment: PaymentTransaction, failureReason: string | null, source: string): Promise<OtpView> {
    // Past its deadline, the submission is refused and the payment fails as the expiry job would fail it.
    const { transaction, decided, late } = await this.decideAuthentication(payment, failureReason, source);
    return { ...(await this.view(transaction, late ? 'expired' : 'decided')), decided };
  }

  /**
   * The cardholder's verdict on a payment awaiting it: decided once (the payment kind's
   * authentication step). `decided` false: it was decided before, and this changed
   * nothing; `late`: it came after the deadline, and the payment fails as the expiry job would.
   */
  private async decideAuthentication(
    txn: PaymentTransaction,
    failureReason: string | null,
    source: string,
  ): Promise<{ transaction: PaymentTransaction; decided: boolean; late: boolean }> {
    if (txn.status !== 'requires_action') return { transaction: txn, decided: false, late: false };
    if (pastDeadline(txn, this.deps.clock.now()))
      return { transaction: sameKind(txn, await this.deps.expiry.expire(txn.id)) ?? txn, decided: false, late: true };
    const changed = await this.deps.lifecycle.transition(txn, failureReason === null ? 'successful' : 'failed', failureReason, source);
    return { transaction: changed ?? sameKind(txn, await this.deps.queries.reload(txn.id)), decided: changed !== null, late: false };
  }

  private async paymentOfOtpHandle(handle: string): Promise<PaymentTransaction | null> {
    const id = this.deps.otp.transactionOf(handle);
    const payment = id ? await this.deps.queries.findById(id) : null;
    return payment?.kind === 'payment' && payment.paymentMethod === 'card' ? payment : null;
  }

  private async paymentOfHandle(handle: string): Promise<PaymentTransaction | null> {
    const id = this.deps.handles ? await this.deps.handles.keyOfHandle(handle) : null;
    const payment = id ? await this.deps.queries.findById(id) : null;
    return payment?.kind === 'payment' ? payment : null;
  }

  private async view(payment: PaymentTransaction, state: 'open' | 'decided' | 'expired'): Promise<AuthenticationView> {
    const merchant = await this.deps.merchants.getMerchant(payment.merchantId);
    return { state, payment, merchantName: merchant.name, merchantCountry: merchant.country, amount: this.amountOf(payment) };
  }

  private amountOf(payment: PaymentTransaction): string {
    return amountOf(this.deps.reference, payment);
  }
}
