import { ProviderRefusal, ProviderUnreachable, type SettlementDecision } from '../connector';
import { field, type ProviderResponse } from '../provider-http';

/** MTN's reasons for a FAILED request → our failure_reason (docs/providers.md). */
const FAILURE_REASONS: Record<string, { collection: string; transfer: string }> = {
  PAYER_NOT_FOUND: { collection: 'sender_account_not_found', transfer: 'beneficiary_account_unavailable' },
  PAYEE_NOT_FOUND: { collection: 'provider_declined', transfer: 'beneficiary_account_unavailable' },
  PAYEE_NOT_ALLOWED_TO_RECEIVE: { collection: 'provider_declined', transfer: 'beneficiary_account_unavailable' },
  NOT_ENOUGH_FUNDS: { collection: 'sender_insufficient_funds', transfer: 'provider_float_insufficient' },
  APPROVAL_REJECTED: { collection: 'payment_declined_by_sender', transfer: 'provider_declined' },
  EXPIRED: { collection: 'sender_did_not_respond', transfer: 'provider_declined' },
  TRANSACTION_CANCELED: { collection: 'payment_declined_by_sender', transfer: 'provider_declined' },
  PAYER_LIMIT_REACHED: { collection: 'sender_limit_reached', transfer: 'provider_declined' },
  PAYEE_LIMIT_REACHED: { collection: 'provider_declined', transfer: 'beneficiary_limit_reached' },
  NOT_ALLOWED: { collection: 'provider_refused', transfer: 'provider_refused' },
  NOT_ALLOWED_TARGET_ENVIRONMENT: { collection: 'provider_refused', transfer: 'provider_refused' },
  INVALID_CALLBACK_URL_HOST: { collection: 'provider_refused', transfer: 'provider_refused' },
  INVALID_CURRENCY: { collection: 'provider_refused', transfer: 'provider_refused' },
  INTERNAL_PROCESSING_ERROR: { collection: 'provider_error', transfer: 'provider_error' },
  SERVICE_UNAVAILABLE: { collection: 'provider_error', transfer: 'provider_error' },
  COULD_NOT_PERFORM_TRANSACTION: { collection: 'provider_error', transfer: 'provider_error' },
};

export function mtnFailureReason(code: string | null, kind: 'collection' | 'transfer'): string {
  return (code && FAILURE_REASONS[code]?.[kind]) ?? 'provider_declined';
}

/** The reason MTN gives: `{ code, message }` in its documentation, a bare string from its sandbox. */
function reasonCode(json: unknown): string | null {
  return field(json, 'reason', 'code') ?? field(json, 'reason');
}

/** A request's status (`GET …/{referenceId}`'s body) → our verdict. */
export function mtnDecision(json: unknown, kind: 'collection' | 'transfer'): SettlementDecision {
  const status = field(json, 'status');
  if (status === 'SUCCESSFUL') return { outcome: 'successful' };
  if (status === 'FAILED') return { outcome: 'failed', reason: mtnFailureReason(reasonCode(json), kind) };
  return { outcome: 'pending' };
}

/** MTN's 500s that are about our account's configuration, not a failure to answer (its error codes page). */
const CONFIGURATION_CODES = new Set(['NOT_ALLOWED_TARGET_ENVIRONMENT', 'INVALID_CALLBACK_URL_HOST', 'INVALID_CURRENCY', 'NOT_ALLOWED']);

/**
 * What MTN's answer to a creation means. A 400 refuses the request itself (a bad number, a message
 * MTN will not take): the client's error, not MTN's fault. 401/403 (our credentials, our
 * subscription) and the 500s MTN documents for our account's configuration
 * (NOT_ALLOWED_TARGET_ENVIRONMENT, INVALID_CALLBACK_URL_HOST, INVALID_CURRENCY, NOT_ALLOWED) are
 * definite too, and the provider's side: the breaker counts them. Any other 5xx, or a 429: unknown.
 * MTN's own words go to the log, never to the merchant.
 */
export function creationRefusal(connector: string, res: ProviderResponse, kind: 'collection' | 'transfer', operation: string): Error {
  const code = field(res.json, 'code');
  if (res.status === 400) {
    return new ProviderRefusal(
      'INVALID_REQUEST',
      `MTN MoMo refused the ${kind === 'collection' ? 'payment request' : 'payout'} for this account (${code ?? 'bad request'})`,
      mtnFailureReason(code, kind),
    );
  }
  if (res.status === 401 || res.status === 403 || (res.status >= 500 && code !== null && CONFIGURATION_CODES.has(code))) {
    return new ProviderRefusal('PROVIDER_UNAVAILABLE', 'MTN MoMo refused our account’s request; nothing was sent. Try again shortly', 'provider_refused', true);
  }
  return new ProviderUnreachable(connector, operation, `HTTP ${res.status} ${code ?? ''}`.trim());
}
