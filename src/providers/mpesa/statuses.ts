import { ProviderRefusal, ProviderUnreachable, type SettlementDecision } from '../connector';
import { field, type ProviderResponse } from '../provider-http';

/** M-Pesa's STK ResultCode → our failure_reason (docs/providers.md). */
const STK_REASONS: Record<string, string> = {
  '1': 'sender_insufficient_funds',
  '1032': 'payment_declined_by_sender',
  '1037': 'sender_unreachable',
  '2001': 'sender_authentication_failed',
  '1019': 'sender_did_not_respond',
  '1001': 'sender_busy',
  '1025': 'provider_error',
  '9999': 'provider_error',
  // Daraja's result-code table: limit rules, a rule-limited customer, a request not permitted, our credential locked.
  '2': 'sender_limit_reached',
  '3': 'sender_limit_reached',
  '4': 'sender_limit_reached',
  '8': 'sender_limit_reached',
  '17': 'provider_declined',
  '2028': 'provider_refused',
  '8006': 'provider_refused',
  SFC_IC0003: 'provider_refused',
};

/** B2C and Transaction Status ResultCodes → our failure_reason. */
const B2C_REASONS: Record<string, string> = {
  '1': 'provider_float_insufficient',
  '2001': 'provider_refused',
  '8006': 'provider_refused',
  '2040': 'beneficiary_account_unavailable',
  '2028': 'provider_refused',
  '17': 'provider_error',
  // Daraja's B2C result codes: amounts outside the limits, the receiver's limits, refused requests, no such operator.
  '2': 'beneficiary_limit_reached',
  '3': 'beneficiary_limit_reached',
  '4': 'beneficiary_limit_reached',
  '8': 'beneficiary_limit_reached',
  '11': 'provider_refused',
  '21': 'provider_refused',
  '2006': 'provider_refused',
  SFC_IC0003: 'beneficiary_account_unavailable',
};

export const stkFailureReason = (code: string) => STK_REASONS[code] ?? 'provider_declined';
export const b2cFailureReason = (code: string) => B2C_REASONS[code] ?? 'provider_declined';

/** An STK query's ResultCode → our verdict: only the result codes Daraja documents as final decide; anything else is asked again. */
export function stkDecision(code: string): SettlementDecision {
  if (code === '0') return { outcome: 'successful' };
  return code in STK_REASONS ? { outcome: 'failed', reason: stkFailureReason(code) } : { outcome: 'pending' };
}

/**
 * A Transaction Status answer's verdict. Only a query that succeeded (ResultCode 0) says anything about
 * the payment: `TransactionStatus` Completed, or a documented final failure. A non-zero code is about the
 * query itself (the initiator's rights, a queue timeout, an id not found yet): pending, asked again.
 */
export function statusVerdict(code: string | null, params: Map<string, string>): SettlementDecision {
  if (code !== '0') return { outcome: 'pending' };
  const status = (params.get('TransactionStatus') ?? '').toLowerCase();
  if (status === 'completed') return { outcome: 'successful' };
  if (status === 'failed' || status === 'cancelled' || status === 'declined' || status === 'expired') return { outcome: 'failed', reason: 'provider_declined' };
  return { outcome: 'pending' };
}

/** A 5xx other than the ones a call reads, or a 429: the outcome is unknown. */
function unknown(connector: string, res: ProviderResponse, operation: string): ProviderUnreachable {
  return new ProviderUnreachable(
    connector,
    operation,
    `HTTP ${res.status} ${field(res.json, 'errorCode') ?? ''} ${field(res.json, 'errorMessage') ?? ''}`.trim(),
  );
}

/**
 * What Daraja's error means. `400.002.02 Bad Request - Invalid <Field>` refuses the request itself
 * (a bad phone, an amount out of bounds): the client's error. Its 500.001.1001 carries definite
 * refusals too, told apart by their text: our credentials ("Wrong credentials", "Merchant does not
 * exist": the provider's side, counted by the breaker) or a prompt already pending on the phone
 * ("Unable to lock subscriber": the request's). Any other 5xx, or a 429, is unknown; any other 4xx
 * is about our account or configuration. Daraja's own words go to the log, not to the merchant,
 * except the field a bad request names.
 */
export function darajaRefusal(connector: string, res: ProviderResponse, operation: string): Error {
  const code = field(res.json, 'errorCode') ?? '';
  const message = field(res.json, 'errorMessage') ?? field(res.json, 'ResponseDescription') ?? '';
  if (res.status >= 500 && code === '500.001.1001') {
    if (/wrong credentials|merchant does not exist/i.test(message)) return ourSide();
    if (/unable to lock subscriber/i.test(message)) {
      return new ProviderRefusal('INVALID_REQUEST', 'M-Pesa: a payment prompt is already pending on this phone; try again once it is answered', 'sender_busy');
    }
  }
  if (res.status >= 500 || res.status === 429) return unknown(connector, res, operation);
  if (res.status === 400 && code.startsWith('400.002')) {
    const invalid = /Invalid ([A-Za-z]+)/.exec(message)?.[1];
    return new ProviderRefusal(
      'INVALID_REQUEST',
      `M-Pesa refused the request${invalid ? `: invalid ${invalid}` : ''}`,
      /phone|party/i.test(invalid ?? '') ? 'sender_account_not_found' : 'provider_declined',
    );
  }
  return ourSide();
}

/** Our credentials or configuration refused: nothing was sent, and the breaker counts it. */
function ourSide(): ProviderRefusal {
  return new ProviderRefusal('PROVIDER_UNAVAILABLE', 'M-Pesa refused our account’s request; nothing was sent. Try again shortly', 'provider_refused', true);
}
