import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Transaction } from '../../../modules/transactions/transaction.record';
import type { FormTokens } from '../../../shared/form-tokens';
import type { PublicAddress } from '../../../shared/public-address';
import type { AuthenticationView } from '../../../modules/transactions/kinds/payment/payment.service';
import { messagePage, type ThreeDsPayment } from '../../../providers/sandbox/three-ds-page';

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
 * the outcome (`page`), with its pages' headers (`send`).
 */
export function backToMerchant(
  reply: FastifyReply,
  p: Transaction,
  page: () => string,
  send: (reply: FastifyReply, status: number, body: string) => FastifyReply = html,
) {
  if (p.redirectUrl) {
    const target = new URL(p.redirectUrl);
    target.searchParams.set('reference', p.reference);
    target.searchParams.set('external_reference', p.externalReference);
    target.searchParams.set('status', p.status);
    return reply.code(303).header('location', target.toString()).header('referrer-policy', 'no-referrer').header('cache-control', 'no-store').send();
  }
  return send(reply, 200, page());
}

/** What a page a cardholder meets outside the sandbox calls itself (the sandbox's own 3-D Secure page says it is the sandbox's). */
export const PAYMENT_SITE = 'Secure payment';

/** The outcome page of a payment whose cardholder came back without a merchant page to go to. */
export function outcomeMessage(p: Transaction): string {
  const title = p.status === 'successful' ? 'Payment authenticated' : p.status === 'failed' ? 'Payment failed' : 'Payment being confirmed';
  const message =
    p.status === 'requires_action'
      ? 'The card’s bank has not answered yet. The merchant will be told as soon as it does.'
      : `The payment is ${p.status}. You can close this window.`;
  return messagePage(title, message, undefined, PAYMENT_SITE);
}

/** A request's cookie by name. */
function cookie(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * The CSRF cookie of a page's form (FormTokens' double submit), scoped to the page's path so that pages of other
 * payments open in other tabs keep their own; `clear` removes it once the form has done its work.
 */
export function csrfCookie(name: string, path: string, publicAddress: PublicAddress, value: string | null): string {
  if (value === null) return `${name}=; Path=${path}; Max-Age=0; HttpOnly; SameSite=Strict`;
  const secure = publicAddress.url.startsWith('https:');
  return `${name}=${value}; Path=${path}; Max-Age=3600; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/**
 * Whether a form submission comes from the page itself: same origin, and the CSRF cookie with its signed twin in the
 * form (`subject`: the page's handle). Under Referrer-Policy: no-referrer a browser sends `Origin: null` on the page's
 * own POST; Sec-Fetch-Site, which no page can set, then says where it came from.
 */
export function fromThisPage(
  request: FastifyRequest,
  { formTokens, publicAddress }: { formTokens: FormTokens; publicAddress: PublicAddress },
  cookieName: string,
  subject: string,
  field: unknown,
): boolean {
  const site = request.headers['sec-fetch-site'];
  const origin = request.headers.origin;
  const originOk = origin === undefined || origin === publicAddress.origin || (origin === 'null' && site === 'same-origin');
  const sameOrigin = (site === undefined || site === 'same-origin') && originOk;
  return sameOrigin && formTokens.verify(subject, cookie(request, cookieName), typeof field === 'string' ? field : undefined);
}

/** What a cardholder's page (3-D Secure, the one-time code) shows of the payment it decides. */
export const shown = (v: Exclude<AuthenticationView, { state: 'invalid' }>): ThreeDsPayment => ({
  merchantName: v.merchantName,
  amount: `${v.amount} ${v.payment.currency}`,
  cardBrand: v.payment.cardBrand,
  cardLast4: v.payment.cardLast4,
  description: v.payment.description,
});
