import type { FastifyReply } from 'fastify';
import type { Transaction } from '../../../modules/transactions/transaction.record';
import { messagePage } from '../../../providers/sandbox/three-ds-page';

/**
 * The headers of every page a cardholder's browser sees (the sandbox's 3-D Secure page, the
 * return from a processor's): never cached, never framed (clickjacking), no script, and no
 * Referer, so a handle or token in the address never reaches the merchant's site. After a
 * submission Chromium holds the redirect to form-action, so the merchant's origin is allowed there.
 */
export function html(reply: FastifyReply, status: number, body: string, redirectUrl?: string | null) {
  const formAction = ["'self'", ...(redirectUrl ? [new URL(redirectUrl).origin] : [])].join(' ');
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', `default-src 'none'; style-src 'unsafe-inline'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`)
    .send(body);
}

/**
 * Back to the merchant once the cardholder is done: 303 to the payment's `redirect_url` with its
 * `reference`, `external_reference` and `status` (CONTRACT §7), or, without one, a page that says
 * the outcome (`page`).
 */
export function backToMerchant(reply: FastifyReply, p: Transaction, page: () => string) {
  if (p.redirectUrl) {
    const target = new URL(p.redirectUrl);
    target.searchParams.set('reference', p.reference);
    target.searchParams.set('external_reference', p.externalReference);
    target.searchParams.set('status', p.status);
    return reply.code(303).header('location', target.toString()).header('referrer-policy', 'no-referrer').header('cache-control', 'no-store').send();
  }
  return html(reply, 200, page());
}

/** The outcome page of a payment whose cardholder came back without a merchant page to go to. */
export function outcomeMessage(p: Transaction): string {
  const title = p.status === 'successful' ? 'Payment authenticated' : p.status === 'failed' ? 'Payment failed' : 'Payment being confirmed';
  const message =
    p.status === 'requires_action'
      ? 'The card’s bank has not answered yet. The merchant will be told as soon as it does.'
      : `The payment is ${p.status}. You can close this window.`;
  return messagePage(title, message);
}
