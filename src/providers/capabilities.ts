import { AppError } from '../shared/errors';
import type { Decimal } from '../shared/money';
import type {
  CardCharge,
  CardChargeRequest,
  CardOtpAnswer,
  CardOtpRequest,
  Connector,
  InboundNotification,
  RefundRequest,
  Route,
  RouteLeg,
  VirtualAccount,
  VirtualAccountRequest,
} from './connector';

/*
 * What a connector offers beyond the base (connector.ts): each capability is a small interface that a
 * connector class declares (`implements`), and a type guard that a caller asks before using it. Nothing
 * asks an optional method: a connector has a capability or not. Collecting and paying out are the base's
 * `initiate`, per route (`serves` says which directions).
 */

/** Opens a bank account, unique to one collection, that the sender pays into (bank collections). */
export interface OpensVirtualAccounts {
  createVirtualAccount(request: VirtualAccountRequest): Promise<VirtualAccount>;
}

/** Charges cards (domestic payments), and answers reconciliation's question about a charge. */
export interface ChargesCards {
  chargeCard(request: CardChargeRequest): Promise<CardCharge>;
  /**
   * Reconciliation's question, asked instead of charging again (the card a second
   * charge would need is never stored): what became of the charge with this key?
   * If the provider never received one, it closes the key, so that the original
   * request, should it still arrive late, is refused rather than charged, and
   * answers failed (`processing_error`). Whatever the timing, the provider and the
   * gateway then agree. (A real processor: look up by key, else void by key.)
   */
  concludeCardCharge(idempotencyKey: string, expected: { amount: string; currency: string }): Promise<CardCharge>;
}

/**
 * Takes the one-time code an issuer sent the cardholder for a charge waiting for it (Flutterwave's PIN cards, after
 * the PIN): `wrong_code` leaves the charge waiting for another; anything else is the charge as it stands after it.
 */
export interface ValidatesCardOtp {
  validateCardOtp(request: CardOtpRequest): Promise<CardOtpAnswer>;
}

/** Refunds (part of) a charge; the outcome comes by `decide`. */
export interface Refunds {
  refund(request: RefundRequest): Promise<{ providerReference: string }>;
}

/**
 * Receives account-wide webhooks at one address (Flutterwave) instead of a callback per transaction:
 * whether the request is theirs (a shared secret), and which of our transactions it names.
 */
export interface ReceivesWebhooks {
  authenticateWebhook(headers: Record<string, string | string[] | undefined>): boolean;
  webhookTransaction(notification: InboundNotification): string | null;
}

/** Keeps a notification's body only redacted (provider_notification): card details a provider echoes (Flutterwave's `data.card`) removed. */
export interface RedactsNotifications {
  storableBody(body: string): string;
}

/** What account resolution asks: who holds this account (GET /v1/accounts/resolve, a transfer's name check). */
export interface AccountResolutionRequest {
  /** The account's route, as a payout to it would take (direction `transfer`). */
  route: Route;
  /** A bank's local code (Nigeria: its CBN/NIP code) for a bank account or a wallet reached by account number; null for a mobile money wallet by phone. */
  bankCode: string | null;
  /** A bank account's number as given; a wallet's national number (CONTRACT §6a). */
  accountNumber: string;
  /** A wallet's MSISDN (the dial code's digits and the national number); null for a bank account. */
  msisdn: string | null;
}

/**
 * Names the holder of an account before anything is sent (Flutterwave's account resolution for Nigerian banks, MTN
 * MoMo's account-holder check for its wallets, the sandbox by its table). No such account: a ProviderRefusal with
 * NOT_FOUND. No answer (a timeout, a 5xx): any other error, which the caller reports as PROVIDER_UNAVAILABLE.
 */
export interface ResolvesAccounts {
  /** Whether it can name the holder of an account on this route (and, for a bank, with this local code). */
  resolvesAccountsOn(route: Route, bankCode: string | null): boolean;
  resolveAccount(request: AccountResolutionRequest): Promise<{ accountName: string }>;
}

/** Has rules of its own on a request (M-Pesa takes whole shillings; a wallet number is digits), checked before anything is written. */
export interface ChecksRequests {
  check(leg: RouteLeg): void;
}

/** Pays out with fewer decimals than the currency's on some routes (M-Pesa: whole shillings). */
export interface RoundsPayouts {
  payoutDecimals(route: Route): number | undefined;
}

/** `decide` and retries read the stored notifications (else they are not loaded: one read less per settlement). */
export interface ReadsNotifications {
  readonly readsNotifications: true;
}

/** In process (the sandbox): no network, so no breaker, timeouts, call metrics or callback address. */
export interface InProcess {
  readonly inProcess: true;
}

/** A window of time, `from` inclusive, `to` exclusive (reconciliation's day, in UTC). */
export interface RecordWindow {
  from: Date;
  to: Date;
}

/**
 * One record of the provider's, as reconciliation compares it with ours: the provider's reference, the key we sent it
 * (our transaction's id: a charge's `tx_ref`, a transfer's `reference`, MTN's `externalId`), what it moved, and its
 * status in three words. `kind`: money in (a collection, a card payment) or out (a payout, a refund).
 */
export interface ProviderRecord {
  providerReference: string;
  /** Our transaction's id as we sent it; null when the provider's record carries none. */
  ourReference: string | null;
  amount: Decimal;
  currency: string;
  status: 'successful' | 'failed' | 'pending';
  kind: 'in' | 'out';
}

/** Lists its own records of a window (Flutterwave's transaction and transfer lists), for reconciliation. */
export interface ListsTransactions {
  listTransactions(window: RecordWindow): AsyncIterable<ProviderRecord>;
}

/** Reports the balance it holds for us in a currency (Flutterwave's wallet, MTN's account), for reconciliation's clearing check. */
export interface ReportsBalance {
  balance(currency: string): Promise<Decimal>;
}

/**
 * A chargeback as the provider reports it, normalised (Flutterwave's v3 chargeback: its list's and its webhook's
 * `data`). The dispute is found by our transaction's id (`transactionReference`, the charge's `tx_ref`) or, failing
 * that, by the provider's charge id (`providerTransactionId`). The raw status and stage are kept beside ours.
 */
export interface ProviderDispute {
  /** The provider's chargeback id, as a string (Flutterwave's numeric `id`). */
  providerDisputeId: string;
  /** The provider's id of the disputed charge (Flutterwave's transaction id, `transaction_id`); null when not given. */
  providerTransactionId: string | null;
  /** Our transaction's id, as we sent it (`tx_ref`); null when the provider does not give it back. */
  transactionReference: string | null;
  /** The disputed amount, a decimal string (it may be less than the charge). */
  amount: string;
  /**
   * The amount's currency; null when the provider's record carries none (Flutterwave's chargeback does not: it is the
   * disputed charge's currency, which the payment has).
   */
  currency: string | null;
  /** The card network's stage; Flutterwave has no inquiry stage (nothing it reports is a warning_* dispute). */
  stage: 'inquiry' | 'chargeback' | 'second_chargeback' | 'pre_arbitration' | 'arbitration' | null;
  /** The stage as received (Flutterwave: new, second, pre-arbitration, arbitration); null when absent. */
  providerStage: string | null;
  /** The status as received (Flutterwave: initiated, pending, accepted, declined, won, lost). */
  providerStatus: string;
  /** Ours (the dispute's states, Stripe's): see the provider's statuses.ts for its table. */
  status: 'warning_needs_response' | 'warning_under_review' | 'warning_closed' | 'needs_response' | 'under_review' | 'won' | 'lost';
  /** The provider's reason as received (Flutterwave's `comment`, e.g. "Product/service not received"); null when absent. */
  reason: string | null;
  /** The reason in the dispute's words (the design's `reason`), read from the provider's; `general` when it says nothing we know. */
  reasonCategory:
    | 'fraudulent'
    | 'product_not_received'
    | 'product_unacceptable'
    | 'duplicate'
    | 'subscription_canceled'
    | 'credit_not_processed'
    | 'unrecognized'
    | 'general';
  /** When the provider closes the dispute against us without an answer; null when not given. */
  dueBy: Date | null;
  createdAt: Date;
}

/** Lists a provider's chargebacks, answers them, and reads its chargeback webhooks (Flutterwave v3). */
export interface HandlesDisputes {
  /**
   * The chargebacks created or changed at or after `since`, all pages (bounded: more than the bound is an error, never
   * a silent cut). A listing answered with anything but the list throws ProviderUnreachable: try again later.
   */
  listDisputes(since: Date): Promise<ProviderDispute[]>;
  /**
   * Accepts the chargeback (we concede) or declines it (we contest), with our comment and, where the provider takes
   * one, a link to our proof. Refused by the provider (already answered, past its deadline, unknown id): a
   * ProviderRefusal (INVALID_STATE, NOT_FOUND); no answer: ProviderUnreachable, and whether it was taken is unknown
   * (list again before answering again).
   */
  answerDispute(providerDisputeId: string, action: 'accept' | 'decline', comment: string, proofUrl?: string | null): Promise<ProviderDispute>;
  /**
   * The chargeback a webhook is about (its body, as text or parsed, already authenticated); null for any other webhook, or a
   * chargeback webhook it cannot read. A hint, as every webhook is: confirm by listing before moving money.
   */
  webhookDispute(body: unknown): ProviderDispute | null;
}

export const opensVirtualAccounts = (c: Connector): c is Connector & OpensVirtualAccounts =>
  typeof (c as Partial<OpensVirtualAccounts>).createVirtualAccount === 'function';
export const chargesCards = (c: Connector): c is Connector & ChargesCards => typeof (c as Partial<ChargesCards>).chargeCard === 'function';
export const validatesCardOtp = (c: Connector): c is Connector & ValidatesCardOtp => typeof (c as Partial<ValidatesCardOtp>).validateCardOtp === 'function';
export const refunds = (c: Connector): c is Connector & Refunds => typeof (c as Partial<Refunds>).refund === 'function';
export const receivesWebhooks = (c: Connector): c is Connector & ReceivesWebhooks => typeof (c as Partial<ReceivesWebhooks>).authenticateWebhook === 'function';
export const redactsNotifications = (c: Connector): c is Connector & RedactsNotifications =>
  typeof (c as Partial<RedactsNotifications>).storableBody === 'function';
export const checksRequests = (c: Connector): c is Connector & ChecksRequests => typeof (c as Partial<ChecksRequests>).check === 'function';
export const roundsPayouts = (c: Connector): c is Connector & RoundsPayouts => typeof (c as Partial<RoundsPayouts>).payoutDecimals === 'function';
export const readsNotifications = (c: Connector): c is Connector & ReadsNotifications => (c as Partial<ReadsNotifications>).readsNotifications === true;
export const resolvesAccounts = (c: Connector): c is Connector & ResolvesAccounts => typeof (c as Partial<ResolvesAccounts>).resolveAccount === 'function';
export const inProcess = (c: Connector): c is Connector & InProcess => (c as Partial<InProcess>).inProcess === true;
export const listsTransactions = (c: Connector): c is Connector & ListsTransactions => typeof (c as Partial<ListsTransactions>).listTransactions === 'function';
export const reportsBalance = (c: Connector): c is Connector & ReportsBalance => typeof (c as Partial<ReportsBalance>).balance === 'function';
export const handlesDisputes = (c: Connector): c is Connector & HandlesDisputes => typeof (c as Partial<HandlesDisputes>).listDisputes === 'function';

/** The capabilities a provider declares (its index.ts), by their guards' names. */
export const CAPABILITIES = {
  opensVirtualAccounts,
  chargesCards,
  validatesCardOtp,
  refunds,
  receivesWebhooks,
  redactsNotifications,
  checksRequests,
  roundsPayouts,
  readsNotifications,
  resolvesAccounts,
  inProcess,
  listsTransactions,
  reportsBalance,
  handlesDisputes,
} as const;
export type CapabilityName = keyof typeof CAPABILITIES;

/** The same, for a refusal that knows only the provider operation: only a card charge "charged". */
export function nothingDoneBy(operation: string): string {
  return operation === 'chargeCard' ? 'nothing was created or charged' : 'nothing was created or sent';
}

/**
 * The connector, when it has the capability; else a definite refusal naming the operation (routing
 * should have prevented it: a route is served only by a connector that can carry it).
 */
export function offering<C extends Connector, T>(connector: C, has: (c: Connector) => c is Connector & T, operation: string): C & T {
  if (!has(connector)) throw new AppError('ROUTE_UNAVAILABLE', `The provider ${connector.name} does not offer ${operation}; ${nothingDoneBy(operation)}`);
  return connector as C & T;
}
