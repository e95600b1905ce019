import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthenticationView, OtpView, PaymentService } from '../../modules/transactions/kinds/payment/payment.service';
import { cardOtpPath } from '../../modules/transactions/kinds/payment/card-otp';
import type { CheckoutLanguage } from '../../modules/checkout/checkout.views';
import type { FormTokens } from '../../shared/form-tokens';
import type { PublicAddress } from '../../shared/public-address';
import { limitRequest } from '../rest/rate-limit';
import { backToMerchant, csrfCookie, fromThisPage } from '../rest/v1/payment-pages';
import type { RateLimits } from '../rate-limits';
import { otpForm, otpMessage } from './card-otp.page';
import { originOf, sendCheckoutPage } from './checkout-headers';
import { chooseLanguage, statusWord } from './checkout-i18n';
import { say } from './checkout-template';

/** The services this file calls (the composition root passes them). */
type UsedServices = { formTokens: FormTokens; payments: PaymentService; publicAddress: PublicAddress };

type HandleRoute = { Params: { handle: string } };
type Submission = HandleRoute & { Body: { otp?: unknown; csrf?: unknown } | undefined };

const CSRF_COOKIE = 'otp_csrf';
/** A code as banks send them: digits only (Flutterwave takes 5 to 7 characters; a little room either side). */
const OTP = /^\d{4,8}$/;

/** The page's language: the browser's preference between English and French, else the merchant's country's. */
const langOf = (request: FastifyRequest, view?: AuthenticationView): CheckoutLanguage =>
  chooseLanguage(request.headers['accept-language'], view && view.state !== 'invalid' ? view.merchantCountry : null);

/** The hosted checkout's headers; after a submission the form may lead on to the merchant's page. */
const send = (reply: FastifyReply, status: number, body: string, redirectUrl?: string | null) =>
  sendCheckoutPage(reply, status, body, { leadsTo: originOf(redirectUrl) });

function outcomePage(reply: FastifyReply, lang: CheckoutLanguage, view: OtpView) {
  if (view.state === 'invalid') return send(reply, 404, otpMessage(lang, say(lang, 'otpInvalidTitle'), say(lang, 'otpInvalidBody')));
  if (view.state === 'expired') return send(reply, 410, otpMessage(lang, say(lang, 'otpExpiredTitle'), say(lang, 'otpExpiredBody'), view));
  const decided = say(lang, 'otpDecidedBody', { status: statusWord(view.payment.status, lang) });
  return send(reply, 409, otpMessage(lang, say(lang, 'otpDecidedTitle'), decided, view));
}

/**
 * The page where a cardholder enters the code the card's bank sent (Flutterwave's PIN cards, after the PIN): public
 * (the cardholder has no token), at the payment's `next_action.url`, in English or French as the hosted checkout
 * chooses (chooseLanguage). The handle in the path is its only key (a MAC over the payment's id); it stops working
 * once the payment is decided or past its deadline. Every answer carries the hosted checkout's headers; a submission
 * counts only from the page itself (same origin and the CSRF double submit, as the checkout's forms). The code is
 * sent on to the processor and kept nowhere.
 */
export async function cardOtpRoutes(app: FastifyInstance, { services, rateLimits }: { services: UsedServices; rateLimits: RateLimits }) {
  await app.register(formbody, { bodyLimit: 2048 });

  /** The form, with a fresh CSRF token (and why the last code was not taken, if it was not). */
  const form = (
    reply: FastifyReply,
    lang: CheckoutLanguage,
    handle: string,
    view: Exclude<AuthenticationView, { state: 'invalid' }>,
    status: number,
    error: string | null,
  ) => {
    const token = services.formTokens.issue(handle);
    reply.header('set-cookie', csrfCookie(CSRF_COOKIE, cardOtpPath(handle), services.publicAddress, token.cookie));
    return send(reply, status, otpForm(lang, view, cardOtpPath(handle), token.field, error), view.payment.redirectUrl);
  };

  app.get<HandleRoute>('/checkout/otp/:handle', async (request, reply) => {
    const { handle } = request.params;
    const view = await services.payments.otpPage(handle);
    const lang = langOf(request, view);
    if (view.state !== 'open') return outcomePage(reply, lang, view);
    return form(reply, lang, handle, view, 200, null);
  });

  app.post<Submission>('/checkout/otp/:handle', { bodyLimit: 2048 }, async (request, reply) => {
    // A submission on a public checkout page: counted by address (checkoutIp), as the checkout's own.
    await limitRequest(rateLimits, 'checkoutIp', request.ip, reply);
    const { handle } = request.params;
    const body = request.body ?? {};
    if (!fromThisPage(request, services, CSRF_COOKIE, handle, body.csrf)) {
      const lang = langOf(request);
      return send(reply, 403, otpMessage(lang, say(lang, 'otpFormExpiredTitle'), say(lang, 'formExpired')));
    }
    const otp = typeof body.otp === 'string' ? body.otp.trim() : '';
    if (!OTP.test(otp)) {
      // Not a code at all: nothing is sent on, and no try is used.
      const view = await services.payments.otpPage(handle);
      const lang = langOf(request, view);
      if (view.state !== 'open') return outcomePage(reply, lang, view);
      return form(reply, lang, handle, view, 400, say(lang, 'otpDigitsOnly'));
    }
    let result: OtpView;
    try {
      result = await services.payments.submitOtp(handle, otp);
    } catch (err) {
      // The bank did not answer in time: the code may or may not have been taken; the payment says so once it knows.
      request.log.warn({ err }, 'one-time code not confirmed by the processor');
      const lang = langOf(request);
      return send(reply, 503, otpMessage(lang, say(lang, 'otpLateTitle'), say(lang, 'otpLateBody')));
    }
    const lang = langOf(request, result);
    if (result.state === 'invalid' || (result.state !== 'open' && !result.decided)) return outcomePage(reply, lang, result);
    if (result.state === 'open') return form(reply, lang, handle, result, 422, result.wrongCode ? say(lang, 'otpWrong') : null);
    const p = result.payment;
    reply.header('set-cookie', csrfCookie(CSRF_COOKIE, cardOtpPath(handle), services.publicAddress, null));
    // The code taken and the bank not decided yet: back to the merchant all the same (its status says so).
    const [title, message] =
      p.status === 'requires_action'
        ? [say(lang, 'otpPendingTitle'), say(lang, 'otpPendingBody')]
        : [say(lang, p.status === 'successful' ? 'otpConfirmedTitle' : 'otpFailedTitle'), say(lang, 'otpOutcomeBody', { status: statusWord(p.status, lang) })];
    return backToMerchant(reply, p, () => otpMessage(lang, title, message, result), send);
  });
}
