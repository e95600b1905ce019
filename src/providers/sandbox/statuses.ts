import type { SettlementDecision } from '../connector';

/** The sandbox rule (CONTRACT §6): an account number ending in 000 fails; anything else succeeds. */
export function sandboxSettlement(
  request:
    { kind: 'refund'; refundsFail: boolean } | { kind: 'payment' } | { kind: 'collection' | 'transfer'; accountType: 'bank' | 'momo'; accountNumber: string },
): SettlementDecision {
  // A refund goes through, unless its payment's test card says refunds fail (simulate decides otherwise).
  if (request.kind === 'refund') return request.refundsFail ? { outcome: 'failed', reason: 'refund_declined' } : { outcome: 'successful' };
  // A payment awaiting 3-D Secure is decided on the sandbox's page.
  if (request.kind === 'payment') return { outcome: 'pending' };
  // A bank collection is decided by the sender paying (the simulate route) or by expiry, never by the provider.
  if (request.kind === 'collection' && request.accountType === 'bank') return { outcome: 'pending' };
  if (request.accountNumber.endsWith('000')) {
    return { outcome: 'failed', reason: request.kind === 'collection' ? 'payment_declined_by_sender' : 'beneficiary_account_unavailable' };
  }
  return { outcome: 'successful' };
}
