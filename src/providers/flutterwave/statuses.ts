import { Decimal } from '../../shared/money';
import { ProviderRefusal, ProviderUnreachable, type SettlementDecision } from '../connector';
import { field, type ProviderResponse } from '../provider-http';
import type { ProviderDispute } from '../capabilities';
import type { FlutterwaveTransaction } from './mapping';

/** A transfer's `status` (`GET /v3/transfers/{id}`'s body) → our verdict. */
export function transferDecision(json: unknown): SettlementDecision {
  const status = field(json, 'data', 'status');
  if (status === 'SUCCESSFUL') return { outcome: 'successful' };
  if (status === 'FAILED') return { outcome: 'failed', reason: transferFailureReason(field(json, 'data', 'complete_message')) };
  return { outcome: 'pending' };
}

/**
 * A charge's verdict, trusted only when it is ours: our id as its `tx_ref`, our currency, and at least our amount
 * (a bank transfer into a virtual account may carry more; less is never taken as paid, and is logged for a person).
 */
export function chargeDecision(tx: FlutterwaveTransaction | null, request: { idempotencyKey: string; amount: string; currency: string }): SettlementDecision {
  if (!tx || tx.txRef !== request.idempotencyKey) return { outcome: 'pending' };
  if (tx.status === 'failed') return { outcome: 'failed', reason: chargeFailureReason(tx.processorResponse) };
  if (tx.status !== 'successful') return { outcome: 'pending' };
  if (tx.currency !== request.currency || tx.amount === null || new Decimal(tx.amount).lt(request.amount)) {
    // Thrown, not decided: the status query's failure is logged, and the transaction waits (or expires) for a person.
    throw new Error(`flutterwave charge ${tx.id} paid ${tx.amount} ${tx.currency}, not ${request.amount} ${request.currency}: left for review`);
  }
  return { outcome: 'successful' };
}

/**
 * A refund's `status` → our verdict. Flutterwave's samples answer `completed`; live refunds carry the rail too
 * (`completed-mpgs`, `completed-momo`, `completed-bank-transfer`, …), and a failed one says so (`failed`, "DISBURSE
 * FAILED"). Anything else (`pending…`) is polled.
 */
export function refundDecision(status: string | null): SettlementDecision {
  const text = (status ?? '').toLowerCase();
  if (text.startsWith('completed') || text === 'successful') return { outcome: 'successful' };
  if (/fail/.test(text)) return { outcome: 'failed', reason: 'refund_declined' };
  return { outcome: 'pending' };
}

/** A failed charge's `processor_response` → our failure_reason (docs/providers.md). */
export function chargeFailureReason(response: string | null): string {
  const text = (response ?? '').toLowerCase();
  if (/insufficient/.test(text)) return 'insufficient_funds';
  if (/declin|not honou?r|do not honou?r/.test(text)) return 'card_declined';
  if (/expired/.test(text)) return 'expired_card';
  if (/cancel|abandon|timeout|timed out/.test(text)) return 'payment_declined_by_sender';
  if (/otp|pin|authenticat|3ds|authori[sz]ation failed/.test(text)) return 'authentication_failed';
  return 'provider_declined';
}

/** Flutterwave's `complete_message` on a failed transfer → our failure_reason (docs/providers.md). */
export function transferFailureReason(message: string | null): string {
  const text = (message ?? '').toLowerCase();
  if (/insufficient/.test(text)) return 'provider_float_insufficient';
  if (/invalid account|account.*(not|could not).*(found|resolved)|unable to resolve|dormant|closed/.test(text)) return 'beneficiary_account_unavailable';
  return 'provider_declined';
}

/**
 * A refused request. A 400 about the request (an account that does not resolve, an amount out of
 * bounds) is the request's; a 401/403 is our key's. On a retry, a refusal that may mean "this
 * reference exists" is unknown: the webhook or the next poll names the transfer.
 */
export function flutterwaveRefusal(connector: string, res: ProviderResponse, retry: boolean, operation: string): Error {
  const message = field(res.json, 'message') ?? `HTTP ${res.status}`;
  if (retry) return new ProviderUnreachable(connector, operation, `refused on retry: ${message}`);
  if (res.status === 401 || res.status === 403) {
    return new ProviderRefusal(
      'PROVIDER_UNAVAILABLE',
      'Flutterwave refused our account’s request; nothing was sent. Try again shortly',
      'provider_refused',
      true,
    );
  }
  if (res.status === 400 && /decrypt/i.test(message)) {
    // Our encryption key does not match the account's: every card would fail the same way.
    return new ProviderRefusal(
      'PROVIDER_UNAVAILABLE',
      'Our card processor could not read the request; nothing was charged. Try again shortly',
      'provider_refused',
      true,
    );
  }
  if (res.status >= 400 && res.status < 500) {
    return operation === 'transfer'
      ? new ProviderRefusal('INVALID_REQUEST', 'Flutterwave refused the payout for this account', 'beneficiary_account_unavailable')
      : new ProviderRefusal('INVALID_REQUEST', `Flutterwave refused the ${operation} for this account`, 'provider_refused');
  }
  return new ProviderUnreachable(connector, operation, `HTTP ${res.status}`);
}

/*
 * A chargeback's status and stage (Flutterwave v3). Sources: developer.flutterwave.com/reference/endpoints/charge-backs
 * ("Get all Chargebacks": `status` "can be lost, won, initiated, accepted, declined"), its v3 OpenAPI as mirrored at
 * flutterwaveinc.mintlify.app/api-reference/chargebacks (samples with status lost, declined, accepted and stage new,
 * second, pre-arbitration), /docs/payment-operations/chargebacks and /docs/chargebacks-1 (a lien is placed when it
 * opens; no answer by the due date → debited; an answer → Flutterwave argues with the bank; won → the lien is
 * lifted), and its v4 reference "Create a chargeback" (status pending | initiated; stage new | second |
 * pre-arbitration | arbitration). Flutterwave reports no inquiry (retrieval request) as a status, so none of its
 * chargebacks is a warning_* dispute.
 */

/** Flutterwave's chargeback `status` → ours; anything else is not read (null): the record is left for a person. */
export const CHARGEBACK_STATUSES: Readonly<Record<string, ProviderDispute['status']>> = {
  // Opened (the lien is placed), waiting for our answer until due_date.
  initiated: 'needs_response',
  // The v4 reference's other opening status (not yet formally started): waiting for us too.
  pending: 'needs_response',
  // We contested (PUT action decline): Flutterwave argues with the issuer.
  declined: 'under_review',
  // We conceded (PUT action accept): the amount is debited, as when lost.
  accepted: 'lost',
  lost: 'lost',
  won: 'won',
};

/** Flutterwave's chargeback `stage` → the card network's; unknown or absent: null. */
export const CHARGEBACK_STAGES: Readonly<Record<string, NonNullable<ProviderDispute['stage']>>> = {
  new: 'chargeback',
  second: 'second_chargeback',
  'pre-arbitration': 'pre_arbitration',
  arbitration: 'arbitration',
};

/** A chargeback's status in ours (case-insensitive); null for a status Flutterwave does not document. */
export function chargebackStatus(status: string | null): ProviderDispute['status'] | null {
  const key = (status ?? '').trim().toLowerCase();
  return Object.hasOwn(CHARGEBACK_STATUSES, key) ? CHARGEBACK_STATUSES[key]! : null;
}

/** A chargeback's stage in ours (case-insensitive, `pre_arbitration` read as `pre-arbitration`); null when unknown. */
export function chargebackStage(stage: string | null): ProviderDispute['stage'] {
  const key = (stage ?? '').trim().toLowerCase().replace(/_/g, '-');
  return Object.hasOwn(CHARGEBACK_STAGES, key) ? CHARGEBACK_STAGES[key]! : null;
}

/**
 * An accept or decline Flutterwave refused. A 4xx is its answer about the chargeback (already answered, past its due
 * date, not ours): INVALID_STATE with its message, or NOT_FOUND; our key refused: PROVIDER_UNAVAILABLE (as every call).
 */
export function chargebackRefusal(connector: string, res: ProviderResponse, id: string, action: 'accept' | 'decline'): Error {
  const message = field(res.json, 'message') ?? `HTTP ${res.status}`;
  if (res.status === 401 || res.status === 403) return flutterwaveRefusal(connector, res, false, 'chargeback answer');
  if (res.status === 404 || /not found|no chargeback/i.test(message)) {
    return new ProviderRefusal('NOT_FOUND', `Flutterwave has no chargeback ${id}: ${message}`, 'provider_refused');
  }
  if (res.status >= 400 && res.status < 500) {
    return new ProviderRefusal('INVALID_STATE', `Flutterwave refused to ${action} chargeback ${id}: ${message}`, 'provider_refused');
  }
  return new ProviderUnreachable(connector, 'chargeback answer', `HTTP ${res.status}`);
}

/**
 * A chargeback's `comment` (free text: the samples say "Product/service not received", "Cancelled merchandise/Service")
 * → the dispute's reason, by keywords (chosen: Flutterwave documents no reason codes); `general` otherwise.
 */
export function chargebackReason(comment: string | null): ProviderDispute['reasonCategory'] {
  const text = (comment ?? '').toLowerCase();
  if (/fraud|not authori[sz]ed|unauthori[sz]ed|stolen/.test(text)) return 'fraudulent';
  if (/duplicate|charged twice|double/.test(text)) return 'duplicate';
  if (/credit not (processed|received)|refund not (processed|received)/.test(text)) return 'credit_not_processed';
  if (/subscription|recurring/.test(text)) return 'subscription_canceled';
  if (/not (received|delivered|rendered)|non.?receipt|cancell?ed merchandise|cancell?ed service/.test(text)) return 'product_not_received';
  if (/not as described|defective|damaged|unacceptable|quality|counterfeit/.test(text)) return 'product_unacceptable';
  if (/unrecogni[sz]ed|do(es)? not recogni[sz]e/.test(text)) return 'unrecognized';
  return 'general';
}
