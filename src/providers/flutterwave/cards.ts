import {
  ProviderRefusal,
  type CardCharge,
  type CardChargeRequest,
  type CardOtpAnswer,
  type CardOtpRequest,
  type ChargesCards,
  type ValidatesCardOtp,
} from '../connector';
import { field, type ProviderResponse } from '../provider-http';
import {
  CARD_AUTHORIZATION_MISSING,
  NUMERIC_ID,
  asksCardAuthorization,
  cardAuthorization,
  cardPayload,
  encryptCardPayload,
  type FlutterwaveTransaction,
} from './mapping';
import { chargeDecision, flutterwaveRefusal } from './statuses';

/** What the card flows use of the connector: its calls to Flutterwave and its lookups of a charge. */
export interface CardCalls {
  connector: string;
  encryptionKey: string;
  send(method: 'GET' | 'POST', path: string, operation: string, body?: unknown): Promise<ProviderResponse>;
  /** `GET /v3/transactions/{id}/verify`; null when Flutterwave has none. */
  verify(id: string): Promise<FlutterwaveTransaction | null>;
  /** `GET /v3/transactions/verify_by_reference?tx_ref=`; null when Flutterwave has none. */
  byReference(txRef: string): Promise<FlutterwaveTransaction | null>;
}

/**
 * Flutterwave's card payments (docs/providers.md, Cards): the charge, sent again with the PIN or billing address when
 * it asks for them; 3-D Secure on Flutterwave's page; the issuer's code on ours (validate-charge); reconciliation's
 * question. The card, its PIN and the code are held in memory for one request, and kept nowhere.
 */
export class FlutterwaveCards implements ChargesCards, ValidatesCardOtp {
  constructor(private readonly deps: CardCalls) {}

  /**
   * A card charge: the card is sent 3DES-encrypted with the encryption key (`client`), and kept nowhere. A charge
   * that asks for the card's PIN or billing address (`meta.authorization.mode` pin, avs_noauth) is sent again at
   * once with them (same payload and `tx_ref`, plus `authorization`), when the cardholder gave them on our checkout
   * page; else it fails `pin_required` / `address_required`. A redirect (3-D Secure) is our `requires_action`; the
   * page sends the cardholder back to `returnUrl`. An OTP (after the PIN) is our `requires_action` on our own page
   * (`otpUrl`), which validates it (validateCardOtp).
   */
  async chargeCard(request: CardChargeRequest): Promise<CardCharge> {
    const payload = cardPayload(request, await request.payer());
    let res = await this.sendCard(payload);
    const asked = this.succeeded(res) ? field(res.json, 'meta', 'authorization', 'mode') : null;
    if (asksCardAuthorization(asked)) {
      const authorization = cardAuthorization(asked, request.card);
      if (!authorization) return { outcome: 'failed', providerReference: field(res.json, 'data', 'id'), reason: CARD_AUTHORIZATION_MISSING[asked] };
      res = await this.sendCard({ ...payload, authorization });
    }
    if (this.succeeded(res)) {
      const id = field(res.json, 'data', 'id');
      const mode = field(res.json, 'meta', 'authorization', 'mode');
      const redirect = field(res.json, 'meta', 'authorization', 'redirect');
      if (mode === 'redirect' && redirect && id) return { outcome: 'requires_action', providerReference: id, authenticationUrl: redirect };
      if (mode === 'otp' && id) return { outcome: 'requires_action', providerReference: id, authenticationUrl: request.otpUrl() };
      if (mode) return { outcome: 'failed', providerReference: id, reason: 'authentication_not_supported' };
      if (id) return this.cardVerdict(await this.deps.verify(id), request, id);
    }
    const message = field(res.json, 'message') ?? '';
    if (res.status === 400 && /incorrect pin/i.test(message)) return { outcome: 'failed', providerReference: null, reason: 'incorrect_pin' };
    if (res.status === 400 && !/decrypt/i.test(message)) {
      // The card refused before a charge was made (expired, not a valid number): a decline, not an error of ours.
      return { outcome: 'failed', providerReference: null, reason: 'card_declined' };
    }
    throw flutterwaveRefusal(this.deps.connector, res, false, 'card charge');
  }

  private sendCard(payload: Record<string, unknown>): Promise<ProviderResponse> {
    return this.deps.send('POST', '/v3/charges?type=card', 'card charge', { client: encryptCardPayload(this.deps.encryptionKey, payload) });
  }

  private succeeded(res: ProviderResponse): boolean {
    return res.status === 200 && field(res.json, 'status') === 'success';
  }

  /**
   * The code the issuer sent, for our charge waiting for it: `POST /v3/validate-charge {otp, flw_ref, type: card}`,
   * then the charge as verify tells it. The `flw_ref` is read from the verify of our charge (its `data.id` is the
   * payment's provider reference, which refunds and status queries use), which also says the charge is ours and still
   * waiting. "Invalid OTP" leaves it waiting for another code (`wrong_code`).
   */
  async validateCardOtp(request: CardOtpRequest): Promise<CardOtpAnswer> {
    const id = request.providerReference;
    if (!id || !NUMERIC_ID.test(id)) throw new ProviderRefusal('INVALID_STATE', 'The payment has no Flutterwave charge awaiting a code', 'provider_refused');
    const charge = await this.deps.verify(id);
    if (!charge || charge.txRef !== request.idempotencyKey || charge.status !== 'pending' || !charge.flwRef) return this.cardVerdict(charge, request, id);
    const res = await this.deps.send('POST', '/v3/validate-charge', 'validate charge', { otp: request.otp, flw_ref: charge.flwRef, type: 'card' });
    if (res.status === 400 && /invalid otp/i.test(field(res.json, 'message') ?? '')) return { outcome: 'wrong_code', providerReference: id };
    if (res.status === 200 || res.status === 400) return this.cardVerdict(await this.deps.verify(id), request, id);
    throw flutterwaveRefusal(this.deps.connector, res, false, 'validate charge');
  }

  /**
   * Reconciliation's question: the charge with our id as `tx_ref`. Flutterwave offers no way to close a key, so one
   * it never received answers failed (`processing_error`): its request was aborted by our timeout long before.
   */
  async concludeCardCharge(idempotencyKey: string, expected: { amount: string; currency: string }): Promise<CardCharge> {
    const found = await this.deps.byReference(idempotencyKey);
    if (!found) return { outcome: 'failed', providerReference: null, reason: 'processing_error' };
    const verdict = this.cardVerdict(found, { idempotencyKey, ...expected }, found.id);
    return verdict.outcome === 'requires_action' ? { ...verdict, authenticationUrl: null } : verdict;
  }

  /** A charge's verdict as a card charge: the same rule as every charge (ours, our currency, our amount); undecided is 3-D Secure still open. */
  private cardVerdict(tx: FlutterwaveTransaction | null, request: { idempotencyKey: string; amount: string; currency: string }, id: string): CardCharge {
    const decision = chargeDecision(tx, request);
    if (decision.outcome === 'successful') return { outcome: 'successful', providerReference: id };
    if (decision.outcome === 'failed') return { outcome: 'failed', providerReference: id, reason: decision.reason };
    return { outcome: 'requires_action', providerReference: id, authenticationUrl: null };
  }
}
