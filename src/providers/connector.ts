import { AppError, type ErrorCode } from '../shared/errors';

/** Bank details a sender pays into (spec §2: all strings). */
export interface BankInfo {
  accountName: string;
  accountNumber: string;
  bankName: string;
  bankCode: string;
  /** The bank's code in its country's payment system (Nigeria: CBN/NIP, e.g. 035); null where none is listed (and on rows stored before issue 38). */
  localCode?: string | null;
}

/**
 * A connector: the gateway's side of one provider's API (the in-process sandbox, MTN MoMo,
 * M-Pesa Daraja, …). It serves some routes, and the routing table (routing.ts) picks one
 * for each new transaction, which keeps it for life. Every call is made through the
 * connector's circuit breaker (breaker.ts).
 *
 * A call that throws an AppError is a definite refusal: nothing was started, and nothing
 * ever will be for that idempotency key. Any other failure (a timeout, a 5xx, a reset
 * connection) leaves the outcome unknown: it is never taken for a failure, and is resolved
 * by asking the provider (reconciliation, the status query).
 */

/** Which way money moves on a route: in from a sender (collection, card payment) or out to a beneficiary (transfer, refund). */
type Direction = 'collection' | 'transfer';

/** What a connector serves: a channel of a country (and, for mobile money, one network), one direction. */
export interface Route {
  /** `card`: domestic card payments (and their refunds), which have no country or network. */
  channelType: 'bank' | 'momo' | 'card';
  countryCode: string | null;
  /** The network's code (`MTN`, `MPESA`, a bank's code); null for cards. */
  networkCode: string | null;
  direction: Direction;
}

/** A new transaction's route, with what the provider is asked to move and to whom (a card payment has no account). */
export interface RouteLeg {
  route: Route;
  amount: string;
  /** The currency the provider is asked to move (a payout's destination currency). */
  currency: string;
  accountNumber: string | null;
}

/** Who pays or is paid, read only by the connectors that need it (Flutterwave asks an email): one read, only then. */
export type PayerLookup = () => Promise<Payer>;

/** The customer a transaction is for (the sender of a payout, the payer of a collection): what providers ask of them. */
export interface Payer {
  email: string;
  name: string | null;
  countryCode: string | null;
  /** International digits (254712345678). */
  phone: string | null;
}

/** "momo collection in GH on MTN": how an error names a route. */
export function describeRoute(route: Route): string {
  if (route.channelType === 'card') return `card ${route.direction === 'collection' ? 'payments' : 'refunds'}`;
  const where = `${route.channelType} ${route.direction} in ${route.countryCode}`;
  return route.networkCode ? `${where} on ${route.networkCode}` : where;
}

/** The international number (MSISDN, digits only) of a mobile money account: the dial code's digits and the national number (CONTRACT §6a). */
export { msisdn } from '../shared/phone-numbers';

/**
 * What a refusal before the provider call can say was not done, in the words of what was asked: a
 * card is charged only by a card payment; a collection or a transfer had nothing written or sent.
 */
function nothingDone(route: Route): string {
  if (route.channelType !== 'card') return 'nothing was written or sent';
  return route.direction === 'collection' ? 'nothing was created or charged' : 'nothing was written or refunded';
}

/** A route nobody serves here (production: no connector is configured for it). Nothing is written. */
export function routeUnavailable(route: Route): AppError {
  return new AppError('ROUTE_UNAVAILABLE', `No provider serves ${describeRoute(route)} here; ${nothingDone(route)}`);
}

/** Every connector of the route is failing right now (its breaker is open). Nothing is written; try again later. */
export function providerUnavailable(route: Route): AppError {
  return new AppError('PROVIDER_UNAVAILABLE', `The provider for ${describeRoute(route)} is not answering; ${nothingDone(route)}. Try again shortly`);
}

/**
 * A definite refusal that names why (a provider's own code, mapped). The creation path answers the
 * error and keeps nothing. `providerFault`: the provider, or our account or configuration at it, is
 * at fault, not the request (credentials refused, callback host not registered): the breaker counts
 * it, and reconciliation does not take it for the payment's failure but asks again later. A refusal
 * of the request itself (an unknown number, a prompt already pending) is what reconciliation
 * records as the transaction's failure, with `failureReason`.
 */
export class ProviderRefusal extends AppError {
  constructor(
    code: ErrorCode,
    message: string,
    readonly failureReason: string,
    readonly providerFault = false,
  ) {
    super(code, message);
  }
}

/** Whether reconciliation may record this as the transaction's failure: the provider refused the request itself. */
export const refusedTheRequest = (err: unknown): err is ProviderRefusal => err instanceof ProviderRefusal && !err.providerFault;

/** Anything a retry's side call (a lookup, a token) throws says nothing about the payment: unknown. */
export function unknownOutcome(connector: string, operation: string, err: unknown): ProviderUnreachable {
  return err instanceof ProviderUnreachable ? err : new ProviderUnreachable(connector, operation, err instanceof Error ? err.message : String(err));
}

/** A call whose outcome is unknown (no answer in time, a 5xx, a reset connection). */
export class ProviderUnreachable extends Error {
  constructor(connector: string, operation: string, detail: string) {
    super(`${connector} ${operation}: ${detail}`);
    this.name = 'ProviderUnreachable';
  }
}

/**
 * A retry the connector will not send, because a second request could pay twice and the provider
 * offers no way to ask whether the first arrived (a Flutterwave refund). The outcome stays unknown
 * for an operator; the breaker does not count it, as nothing was sent.
 */
export class NotSentAgain extends ProviderUnreachable {
  constructor(connector: string, operation: string, detail: string) {
    super(connector, operation, detail);
    this.name = 'NotSentAgain';
  }
}

/**
 * What the gateway asks a provider to start. `idempotencyKey` (the transaction's id) makes a
 * repeated request harmless: reconciliation asks again with the same key after a crash, and
 * must get the same answer, never a second prompt, payout or account.
 */
export interface InitiateRequest {
  idempotencyKey: string;
  kind: 'collection' | 'transfer';
  reference: string;
  accountType: 'bank' | 'momo';
  countryCode: string;
  networkCode: string;
  /** With the plus sign, e.g. +233. */
  dialCode: string;
  accountNumber: string;
  accountName: string | null;
  amount: string;
  currency: string;
  /** The merchant's reason, shown to the payer or payee where the provider has room for it. */
  description: string | null;
  /** Where the provider sends its notifications about this transaction (unguessable, per transaction). */
  callbackUrl: string;
  /** The customer's email and name (Flutterwave's charges require an email). */
  payer: PayerLookup;
  /**
   * Set when reconciliation asks again after a crash: the first request may have reached the provider.
   * `notifications`: what has been received (and status queries sent) for the transaction since.
   */
  retry: { createdAt: Date; notifications: StoredNotification[] } | null;
}

export interface VirtualAccountRequest {
  idempotencyKey: string;
  reference: string;
  countryCode: string;
  /**
   * The code of the bank the merchant asked for (the collection's network): the account is opened
   * there when the provider can choose (the sandbox). Flutterwave assigns its own partner bank.
   */
  networkCode: string;
  currency: string;
  amount: string;
  /** Shown to the sender as the account holder. */
  accountName: string;
  /** The sender's email (Flutterwave requires one). */
  payer: PayerLookup;
  /** Reconciliation asks again after a crash: the first request may have reached the provider. */
  retry: boolean;
}

/** A virtual account as the provider opened it; `expiresAt`: when the provider closes it (the collection expires then at the latest). */
export type VirtualAccount = BankInfo & { providerReference: string; expiresAt?: Date | null };

/** A provider's verdict on a processing transaction. `pending`: nothing has happened yet (keep waiting). */
export type SettlementDecision = { outcome: 'successful' } | { outcome: 'failed'; reason: string } | { outcome: 'pending' };

/** A notification kept for a transaction (provider_notification), as its connector read it. */
export interface StoredNotification {
  /** What the provider's body says; a hint, never the truth by itself. */
  parsed: ParsedNotification;
  receivedAt: Date;
}

/** What every status query carries, whatever the kind. */
interface DecideCommon {
  idempotencyKey: string;
  providerReference: string | null;
  /** Where an asynchronous status answer is sent (M-Pesa's Transaction Status). */
  callbackUrl: string;
  /** What has been received for the transaction so far, oldest first. */
  notifications: StoredNotification[];
  /** Why it is asked: a step of the poll chain, or a notification that just arrived. */
  trigger: DecideTrigger;
}

/** What the provider was asked to move: a verdict on another amount or currency is not ours. */
interface AskedToMove {
  amount: string;
  currency: string;
}

/** The status query: what the provider says now about a transaction it accepted. */
export type DecideRequest = DecideCommon &
  (
    | ({ kind: 'collection' | 'transfer'; accountType: 'bank' | 'momo'; accountNumber: string } & AskedToMove)
    /** A card payment awaiting the cardholder (3-D Secure on the provider's page). */
    | ({ kind: 'payment' } & AskedToMove)
    /** `chargeKey`: the refunded payment's id (the key it was charged with). */
    | { kind: 'refund'; chargeKey: string }
  );

export type DecideTrigger = 'poll' | 'notification';

/** Gives back part or all of a captured card payment. */
export interface RefundRequest {
  idempotencyKey: string;
  reference: string;
  /** The idempotency key the payment was charged with (its transaction's id). */
  chargeKey: string;
  /** The provider's reference of the charge. */
  chargeReference: string | null;
  amount: string;
  currency: string;
  /** The merchant's reason. */
  reason: string | null;
  /** Reconciliation asks again after a crash: the first request may have reached the provider. */
  retry: boolean;
}

/** A card as the cardholder gave it. Held in memory for one provider call: never stored, logged or echoed. */
export interface CardDetails {
  /** Digits only. */
  number: string;
  expMonth: number;
  /** Four digits. */
  expYear: number;
  cvc: string;
  postalCode: string | null;
  /**
   * The card's PIN (4 digits), given on our hosted checkout page only, never through the merchant's API: a
   * processor that asks for it (Flutterwave's PIN cards) gets it with the card, in the same request.
   */
  pin: string | null;
  /** The cardholder's billing address, from our hosted checkout page, for a processor that asks for it (AVS). */
  billingAddress: BillingAddress | null;
}

/** A cardholder's billing address (AVS), as the hosted checkout page takes it. */
export interface BillingAddress {
  line1: string;
  city: string;
  state: string;
  postalCode: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
}

export interface CardChargeRequest {
  idempotencyKey: string;
  reference: string;
  amount: string;
  currency: string;
  card: CardDetails;
  /** The cardholder's email and name, when the payment names a customer (else a placeholder address of ours). */
  payer: PayerLookup;
  /** Where the provider's authentication page sends the cardholder back (our return route, then the merchant's page). */
  returnUrl: string;
  /**
   * Our page where the cardholder enters a one-time code the issuer sent (after a PIN, Flutterwave): a charge
   * that waits for one answers `requires_action` with this as its `authenticationUrl`. Made only when asked (a MAC
   * over the transaction's id): most charges never wait for a code.
   */
  otpUrl(): string;
}

/** The one-time code a cardholder entered on our page, for the charge waiting for it (ValidatesCardOtp). */
export interface CardOtpRequest {
  /** The charge's provider reference, as its `requires_action` answer gave it. */
  providerReference: string | null;
  otp: string;
  /** The transaction's id, the key the charge was made with. */
  idempotencyKey: string;
  amount: string;
  currency: string;
}

/**
 * A card processor's answer. `requires_action`: the issuer wants the cardholder
 * to authenticate (3-D Secure) on `authenticationUrl` before it decides; the URL
 * is null when the charge is looked up again (its handle is not kept).
 */
export type CardCharge =
  | { outcome: 'successful'; providerReference: string }
  | { outcome: 'requires_action'; providerReference: string; authenticationUrl: string | null }
  | { outcome: 'failed'; providerReference: string | null; reason: string };

/**
 * The processor's answer to a one-time code (ValidatesCardOtp): `wrong_code`, the code is not right and the charge
 * still waits for one (the cardholder may try again); else the charge as it stands (`requires_action`: the code was
 * taken, and the bank has not decided yet).
 */
export type CardOtpAnswer = CardCharge | { outcome: 'wrong_code'; providerReference: string };

/** An inbound notification, as received at /v1/providers/{connector}/callback/{token}. */
export interface InboundNotification {
  method: string;
  contentType: string | null;
  /** The raw body, as sent. */
  body: string;
}

/** What a connector reads from a notification: kept with it, and given back to `decide`. */
export interface ParsedNotification {
  /** Two deliveries with the same key are one notification (the second changes nothing). */
  dedupeKey: string;
  /** The provider's reference for the transaction, when the notification names one. */
  providerReference: string | null;
  /** The status the notification claims, in the provider's words (logged; never applied as such). */
  claimed: string | null;
  /** The provider's answer to a status query we sent (M-Pesa's Transaction Status result): the query's id and verdict. */
  answersQuery?: { queryId: string; decision: SettlementDecision };
  /** A status query this connector sent, kept so that its answer can be matched (see `answersQuery`). */
  sentQuery?: string;
}

/**
 * The base every connector implements; what some offer beyond it is a capability (capabilities.ts),
 * declared by the class and asked by a type guard.
 */
export interface Connector {
  /** Names it in routing, callback paths, metrics and the ledger's clearing accounts. */
  readonly name: string;
  /** Whether it can serve the route with the credentials it has (collecting, paying out, card payments). */
  serves(route: Route): boolean;
  /**
   * Sends a mobile money payment prompt (collection) or a payout (transfer). `nextActionUrl`: the payer
   * must open this page to approve (Flutterwave's Ghana, Uganda, Rwanda and Zambia mobile money).
   */
  initiate(request: InitiateRequest): Promise<{ providerReference: string; nextActionUrl?: string | null }>;
  /**
   * The outcome of a processing transaction, as far as the provider knows (its status query).
   * `sentQuery`: the id of a status query it sent whose answer comes later (M-Pesa's Transaction
   * Status); the caller keeps it with the transaction, so that the answer can be matched.
   */
  decide(request: DecideRequest): Promise<Decided>;
  /** Reads a notification (never trusting it); the body may be anything at all. */
  parseNotification(notification: InboundNotification): ParsedNotification;
  /** What the provider expects back from a callback it sent (HTTP 200 with this body). */
  readonly acknowledgement: unknown;
  /** A token call (or the like) for each product configured: `npm run provider:check`. */
  checkCredentials(): Promise<string[]>;
}

/** A status query's answer: the verdict, and the query the provider was sent whose answer comes later, if any. */
export type Decided = SettlementDecision & { sentQuery?: string };

/** The capabilities, and the guards the kinds ask, from the same stable path as the rest of the interface. */
export {
  chargesCards,
  offering,
  opensVirtualAccounts,
  refunds,
  type ChargesCards,
  type ChecksRequests,
  type InProcess,
  validatesCardOtp,
  type ValidatesCardOtp,
  type OpensVirtualAccounts,
  type ReadsNotifications,
  type ReceivesWebhooks,
  type RedactsNotifications,
  type Refunds,
  type RoundsPayouts,
} from './capabilities';
