import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PROMPT_STILL_OPEN, type CheckoutService } from '../../modules/checkout/checkout.service';
import type { CheckoutLanguage, CheckoutMethod, CheckoutPageView } from '../../modules/checkout/checkout.views';
import type { Clock } from '../../shared/clock';
import type { PaymentLinkService } from '../../modules/checkout/payment-link.service';
import type { ReferenceService } from '../../modules/reference/reference.service';
import { AppError } from '../../shared/errors';
import type { FormTokens } from '../../shared/form-tokens';
import type { PublicAddress } from '../../shared/public-address';
import type { RateLimits } from '../rate-limits';
import { limitRequest } from '../rest/rate-limit';
import { checkoutAssetPaths, findCheckoutAsset } from './checkout-assets';
import { originOf, sendCheckoutPage } from './checkout-headers';
import { chooseLanguage } from './checkout-i18n';
import { formatClock, say } from './checkout-template';
import { renderCheckoutPage } from './checkout-page';
import { backToMerchant } from './checkout-states';
import { renderInvalidLinkPage, renderPaymentLinkPage } from './payment-link-page';
import { csrfCookie, fromThisPage } from '../rest/v1/payment-pages';

/** The services this file calls (the composition root passes them). */
type UsedServices = {
  checkout: CheckoutService;
  paymentLinks: PaymentLinkService;
  formTokens: FormTokens;
  publicAddress: PublicAddress;
  reference: Pick<ReferenceService, 'prefixTable'>;
};

const CSRF_COOKIE = 'co_csrf';

/** The billing address a card's processor may ask for (AVS), when the payer gave one. */
function billingAddressOf(form: Form) {
  const line1 = text(form, 'address_line1');
  const city = text(form, 'address_city');
  const country = text(form, 'address_country');
  if (!line1 && !city && !country) return null;
  return {
    line1: line1 ?? '',
    city: city ?? '',
    state: text(form, 'address_state') ?? '',
    postalCode: text(form, 'postal_code') ?? '',
    country: (country ?? '').toUpperCase(),
  };
}
const FORM_LIMIT = 4096;

type Form = Record<string, unknown> | undefined;

/** A form as browsers send one: every field a string. Anything else (JSON with numbers, objects, arrays) is not from our page. */
const browserForm = (form: unknown): form is Record<string, string> =>
  typeof form === 'object' && form !== null && !Array.isArray(form) && Object.values(form).every((v) => typeof v === 'string');
const NOT_A_FORM = 'This form could not be read: every field must be text. Reload the page and try again. Nothing was changed.';

const text = (form: Form, name: string): string | undefined => {
  const v = form?.[name];
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
};

/**
 * The hosted checkout (issue 37, docs/checkout.md): `/checkout/{id}` and its forms, `/pay/{slug}` for payment links,
 * and the pages' two static assets. Public: the session id (unguessable) or the link's slug is the key; every POST
 * carries a CSRF token bound to it and must come from our origin.
 */
export async function checkoutPageRoutes(
  app: FastifyInstance,
  { services, clock, rateLimits }: { services: UsedServices; clock: Pick<Clock, 'now'>; rateLimits: RateLimits },
) {
  await app.register(formbody, { bodyLimit: FORM_LIMIT });
  const { checkout, paymentLinks, formTokens, publicAddress, reference } = services;
  const limited = (request: FastifyRequest, reply: FastifyReply) => limitRequest(rateLimits, 'checkoutIp', request.ip, reply);

  /** A fresh CSRF pair for `subject`, its cookie scoped to `path`; the form's half is returned. */
  const csrf = (reply: FastifyReply, subject: string, path: string): string => {
    const token = formTokens.issue(subject);
    reply.header('set-cookie', csrfCookie(CSRF_COOKIE, path, publicAddress, token.cookie));
    return token.field;
  };
  const langOf = (request: FastifyRequest, country: string | null): CheckoutLanguage => chooseLanguage(request.headers['accept-language'], country);
  /** A form that is not this page's (its CSRF pair or origin): said in the browser's language (the page's country is not read yet). */
  const formExpired = (request: FastifyRequest) => say(langOf(request, null), 'formExpired');
  const invalid = (request: FastifyRequest, reply: FastifyReply, status = 404) => sendCheckoutPage(reply, status, renderInvalidLinkPage(langOf(request, null)));

  const ours = (request: FastifyRequest, subject: string, form: Form) => fromThisPage(request, services, CSRF_COOKIE, subject, form?.csrf);
  const showSession = async (
    request: FastifyRequest,
    reply: FastifyReply,
    id: string,
    status = 200,
    formError?: { method: CheckoutMethod; message: string },
    seen?: CheckoutPageView | null,
  ) => {
    const view = seen === undefined ? await checkout.pageView(id) : seen;
    if (!view) return invalid(request, reply);
    const lang = langOf(request, view.countryCode);
    const path = `/checkout/${id}`;
    const body = renderCheckoutPage(view, {
      lang,
      csrfField: csrf(reply, id, path),
      assetPaths: checkoutAssetPaths,
      now: clock.now(),
      prefixTable: view.methods.includes('momo') ? reference.prefixTable(view.countryCode) : null,
      formError: formError ?? null,
    });
    return sendCheckoutPage(reply, status, body, { embedOrigins: view.embedOrigins, leadsTo: [...originOf(view.redirectUrl), ...originOf(view.cancelUrl)] });
  };

  app.get<{ Params: { file: string } }>('/checkout/assets/:file', async (request, reply) => {
    const asset = findCheckoutAsset(`/checkout/assets/${request.params.file}`);
    if (!asset) return reply.code(404).header('cache-control', 'no-store').send();
    const gzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
    reply
      .header('content-type', asset.contentType)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('etag', asset.etag)
      .header('x-content-type-options', 'nosniff')
      .header('vary', 'accept-encoding');
    if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
    if (gzip) reply.header('content-encoding', 'gzip');
    return reply.send(gzip ? asset.gzip : asset.body);
  });

  // The merchant's logo, from our own origin (the page's CSP allows no other): named by the digest of its bytes, so it
  // never changes under its address and is cached for good. Its own CSP and `nosniff` keep it an image, nothing else.
  app.get<{ Params: { sha256: string } }>('/checkout/logos/:sha256', async (request, reply) => {
    const logo = await checkout.logo(request.params.sha256);
    if (!logo) return reply.code(404).header('cache-control', 'no-store').send();
    const etag = `"${request.params.sha256}"`;
    reply
      .header('content-type', logo.contentType)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('etag', etag)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('cross-origin-resource-policy', 'same-origin');
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.send(logo.bytes);
  });

  app.get<{ Params: { id: string }; Querystring: { reference?: string } }>('/checkout/:id', async (request, reply) => {
    const { id } = request.params;
    // Back from 3-D Secure (or a provider's page) on a session now paid: the success page, going on to the merchant's
    // page at once. Not a 303: this request ends the redirects of that page's form, and Chromium holds every hop of
    // them to that page's form-action (its own origin and ours, not the merchant's), so a 303 to the merchant was
    // blocked whenever the session completed before the browser came back. A Refresh is a navigation of its own.
    // One read decides and renders: the session may complete meanwhile (its job); while it is open, the page polls
    // and reloads this same address.
    const view = await checkout.pageView(id);
    if (request.query.reference && view?.status === 'complete') reply.header('refresh', `0; url=${backToMerchant(view)}`);
    return showSession(request, reply, id, 200, undefined, view);
  });

  // The page's script polls this while an attempt is in flight: the session's status and its latest attempt's.
  app.get<{ Params: { id: string } }>('/checkout/:id/status', async (request, reply) => {
    const view = await checkout.pageView(request.params.id);
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    if (!view) return reply.code(404).send({ status: 'not_found', attempt: null });
    const attempt = view.attempt ? { status: view.attempt.status, failure_reason: view.attempt.failureReason } : null;
    return reply.send({ status: view.status, attempt });
  });

  app.post<{ Params: { id: string }; Body: Form }>('/checkout/:id/pay', { bodyLimit: FORM_LIMIT }, async (request, reply) => {
    await limited(request, reply);
    const { id } = request.params;
    const form = request.body;
    const method = text(form, 'method');
    const chosen: CheckoutMethod = method === 'card' || method === 'bank_transfer' ? method : 'momo';
    if (!ours(request, id, form)) return showSession(request, reply, id, 403, { method: chosen, message: formExpired(request) });
    if (!browserForm(form)) return showSession(request, reply, id, 400, { method: chosen, message: NOT_A_FORM });
    const input =
      method === 'card'
        ? {
            method,
            card: {
              number: text(form, 'card_number') ?? '',
              expMonth: text(form, 'expiry_month') ?? '',
              expYear: text(form, 'expiry_year') ?? '',
              cvc: text(form, 'cvc') ?? '',
              postalCode: text(form, 'postal_code') ?? null,
              pin: text(form, 'pin') ?? null,
            },
            billingAddress: billingAddressOf(form),
          }
        : method === 'momo'
          ? { method, phone: text(form, 'phone') ?? '', network: text(form, 'network') ?? null }
          : { method };
    try {
      await checkout.pay(id, input as Parameters<CheckoutService['pay']>[1]);
    } catch (err) {
      if (!(err instanceof AppError) || err.code === 'SERVER_ERROR') throw err;
      if (err.code === 'NOT_FOUND') return invalid(request, reply);
      if (err.details?.[0]?.issue === PROMPT_STILL_OPEN) {
        // "Try again" while the first prompt is still open at the provider: said in the page's language, with its deadline if known.
        const view = await checkout.pageView(id);
        const lang = langOf(request, view?.countryCode ?? null);
        const until = view?.attempt?.expiresAt;
        const message = until ? say(lang, 'promptStillOpenUntil', { time: formatClock(until, view.countryCode, lang) }) : say(lang, 'promptStillOpen');
        return showSession(request, reply, id, err.httpStatus, { method: 'momo', message }, view);
      }
      return showSession(request, reply, id, err.httpStatus, { method: chosen, message: err.message });
    }
    // Post/Redirect/Get: the page shows the attempt (a prompt, an account, a failure) or goes on to the merchant.
    const view = await checkout.pageView(id);
    if (view?.status === 'complete') return reply.code(303).header('location', backToMerchant(view)).send();
    return reply.code(303).header('location', `/checkout/${id}`).send();
  });

  app.post<{ Params: { id: string }; Body: Form }>('/checkout/:id/cancel', { bodyLimit: FORM_LIMIT }, async (request, reply) => {
    await limited(request, reply);
    const { id } = request.params;
    if (!ours(request, id, request.body)) return showSession(request, reply, id, 403, { method: 'momo', message: formExpired(request) });
    const where = await checkout.cancel(id);
    if (!where) return invalid(request, reply);
    return reply
      .code(303)
      .header('location', where.cancelUrl ?? where.redirectUrl)
      .header('referrer-policy', 'no-referrer')
      .send();
  });

  const showLink = async (request: FastifyRequest, reply: FastifyReply, slug: string, status = 200, formError?: string) => {
    const view = await paymentLinks.pageView(slug);
    if (!view) return invalid(request, reply);
    const lang = langOf(request, view.countryCode);
    const body = renderPaymentLinkPage(view, { lang, csrfField: csrf(reply, `link:${slug}`, `/pay/${slug}`), formError: formError ?? null });
    return sendCheckoutPage(reply, view.state === 'active' ? status : 410, body);
  };

  app.get<{ Params: { slug: string } }>('/pay/:slug', async (request, reply) => showLink(request, reply, request.params.slug));

  app.post<{ Params: { slug: string }; Body: Form }>('/pay/:slug', { bodyLimit: FORM_LIMIT }, async (request, reply) => {
    await limited(request, reply);
    const { slug } = request.params;
    const form = request.body;
    if (!ours(request, `link:${slug}`, form)) return showLink(request, reply, slug, 403, formExpired(request));
    if (!browserForm(form)) return showLink(request, reply, slug, 400, NOT_A_FORM);
    try {
      const opened = await paymentLinks.open(slug, {
        amount: text(form, 'amount'),
        email: text(form, 'email') ?? '',
        phone: text(form, 'phone'),
        name: text(form, 'name'),
      });
      return reply.code(303).header('location', `/checkout/${opened.sessionId}`).send();
    } catch (err) {
      if (!(err instanceof AppError) || err.code === 'SERVER_ERROR') throw err;
      if (err.code === 'NOT_FOUND') return invalid(request, reply);
      return showLink(request, reply, slug, err.httpStatus, err.message);
    }
  });
}
