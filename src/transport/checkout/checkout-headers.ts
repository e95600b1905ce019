import type { FastifyReply } from 'fastify';

/** An origin of a URL, or nothing for one that is not http(s). */
export const originOf = (url: string | null | undefined): string[] => {
  if (!url || !URL.canParse(url)) return [];
  const u = new URL(url);
  return u.protocol === 'https:' || u.protocol === 'http:' ? [u.origin] : [];
};

/**
 * Every hosted checkout page's headers (the checkout, a payment link's page, the one-time code page): never cached,
 * no Referer (a session id or handle is in the address), a strict CSP with our own script, style and images only
 * (the merchant's logo too is served from here: no third-party request), framed only by the merchant's listed
 * origins (else never), and forms that post only to us or, after a submission, go on to the merchant's pages.
 */
export function sendCheckoutPage(
  reply: FastifyReply,
  status: number,
  body: string,
  opts: { embedOrigins?: readonly string[]; leadsTo?: readonly string[] } = {},
) {
  const embed = opts.embedOrigins && opts.embedOrigins.length > 0 ? opts.embedOrigins.join(' ') : "'none'";
  const formAction = ["'self'", ...new Set(opts.leadsTo ?? [])].join(' ');
  reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-content-type-options', 'nosniff')
    .header(
      'content-security-policy',
      `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action ${formAction}; frame-ancestors ${embed}; base-uri 'none'`,
    );
  if (embed === "'none'") reply.header('x-frame-options', 'DENY');
  return reply.send(body);
}
