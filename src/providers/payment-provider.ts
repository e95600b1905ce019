import type { BankInfo } from '../modules/transactions/transaction.record';

/**
 * What the gateway asks a provider to start. `idempotencyKey` makes a repeated
 * request harmless: reconciliation asks again with the same key after a crash,
 * and must get the same answer, never a second prompt, payout or account.
 */
export interface InitiateRequest {
  idempotencyKey: string;
  kind: 'collection' | 'transfer';
  reference: string;
  accountType: 'bank' | 'momo';
  countryCode: string;
  networkCode: string;
  accountNumber: string;
  accountName: string | null;
  amount: string;
  currency: string;
}

export interface VirtualAccountRequest {
  idempotencyKey: string;
  reference: string;
  countryCode: string;
  currency: string;
  amount: string;
  /** Shown to the sender as the account holder. */
  accountName: string;
}

/** A provider's verdict on a processing transaction. `pending`: nothing has happened yet (keep waiting). */
export type SettlementDecision = { outcome: 'successful' } | { outcome: 'failed'; reason: string } | { outcome: 'pending' };

export type DecideRequest =
  | { kind: 'collection' | 'transfer'; accountType: 'bank' | 'momo'; accountNumber: string; providerReference: string | null }
  | { kind: 'refund'; providerReference: string | null };

/** Gives back part or all of a captured card payment. */
export interface RefundRequest {
  idempotencyKey: string;
  reference: string;
  /** The idempotency key the payment was charged with (its transaction's id). */
  chargeKey: string;
  amount: string;
  currency: string;
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
}

export interface CardChargeRequest {
  idempotencyKey: string;
  reference: string;
  amount: string;
  currency: string;
  card: CardDetails;
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
 * A payment provider. A call that throws an AppError is a definite
 * refusal: nothing was started, and nothing ever will be for that idempotency key
 * (so "a request with this key is in progress" must be an ordinary error). Any
 * other failure leaves the outcome unknown, and reconciliation asks again with
 * the same key. The sandbox implements it by table; a real provider implements
 * the same operations against its API, and nothing in the services changes.
 */
export interface PaymentProvider {
  /** Names the provider's clearing accounts in the ledger (money in transit at it). */
  readonly name: string;
  /** Sends a mobile money payment prompt (collection) or a payout (transfer). */
  initiate(request: InitiateRequest): Promise<{ providerReference: string }>;
  /** A bank account, unique to one collection, that the sender pays into. */
  createVirtualAccount(request: VirtualAccountRequest): Promise<BankInfo & { providerReference: string }>;
  /** The outcome of a processing transaction, as far as the provider knows. */
  decide(request: DecideRequest): Promise<SettlementDecision>;
  /** Charges a card (domestic payments). */
  chargeCard(request: CardChargeRequest): Promise<CardCharge>;
  /**
   * Reconciliation's question, asked instead of charging again (the card a second
   * charge would need is never stored): what became of the charge with this key?
   * If the provider never received one, it closes the key, so that the original
   * request, should it still arrive late, is refused rather than charged, and
   * answers failed (`processing_error`). Whatever the timing, the provider and the
   * gateway then agree. (A real processor: look up by key, else void by key.)
   */
  concludeCardCharge(idempotencyKey: string): Promise<CardCharge>;
  /** Refunds (part of) a charge; the outcome comes by `decide`. */
  refund(request: RefundRequest): Promise<{ providerReference: string }>;
}
