import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AuthenticationView, OtpView, PaymentService } from '../../modules/transactions/kinds/payment/payment.service';
import { cardOtpPath } from '../../modules/transactions/kinds/payment/card-otp';
import type { FormTokens } from '../../shared/form-tokens';
import type { PublicAddress } from '../../shared/public-address';
import { limitRequest } from '../rest/rate-limit';
import { backToMerchant, csrfCookie, fromThisPage, html, shown } from '../rest/v1/payment-pages';
import type { RateLimits } from '../rate-limits';
import { otpForm, otpMessage } from './card-otp.page';

/** The services this file calls (the composition root passes them). */
type UsedServices = { formTokens: FormTokens; payments: PaymentService; publicAddress: PublicAddress };

type HandleRoute = { Params: { handle: string } };
type Submission = HandleRoute & { Body: { otp?: unknown; csrf?: unknown } | undefined };

const CSRF_COOKIE = 'otp_csrf';
/** A code as banks send them: digits only (Flutterwave takes 5 to 7 characters; a little room either side). */
const OTP = /^\d{4,8}$/;
const WRONG_CODE = 'The code is not right; try again.';

function outcomePage(reply: FastifyReply, view: OtpView) {
  if (view.state === 'invalid') return html(reply, 404, otpMessage('Link not valid', 'This payment link is not valid. Nothing was changed.'));
  const p = view.payment;
  if (view.state === 'expired') {
    return html(reply, 410, otpMessage('Time is up', 'The time to confirm this payment has passed, so it can no longer be completed.', shown(view)));
  }
  return html(reply, 409, otpMessage('Already decided', `This payment is already ${p.status.replace('_', ' ')}. Nothing was changed.`, shown(view)));
}

/**
 * The page where a cardholder enters the code the card's bank sent (Flutterwave's PIN cards, after the PIN): public
 * (the cardholder has no token), at the payment's `next_action.url`. The handle in the path is its only key (a MAC
 * over the payment's id); it stops working once the payment is decided or past its deadline. Every answer carries
 * the pages' security headers (`html`); a submission counts only from the page itself (same origin and the CSRF
 * double submit, as the sandbox's 3-D Secure page). The code is sent on to the processor and kept nowhere.
 */
export async function cardOtpRoutes(app: FastifyInstance, { services, rateLimits }: { services: UsedServices; rateLimits: RateLimits }) {
  await app.register(formbody, { bodyLimit: 2048 });

  /** The form, with a fresh CSRF token (and why the last code was not taken, if it was not). */
  const form = (reply: FastifyReply, handle: string, view: Exclude<AuthenticationView, { state: 'invalid' }>, status: number, error: string | null) => {
    const token = services.formTokens.issue(handle);
    reply.header('set-cookie', csrfCookie(CSRF_COOKIE, cardOtpPath(handle), services.publicAddress, token.cookie));
    return html(reply, status, otpForm(shown(view), cardOtpPath(handle), token.field, error), view.payment.redirectUrl);
  };

  app.get<HandleRoute>('/checkout/otp/:handle', async (request, reply) => {
    const { handle } = request.params;
    const view = await services.payments.otpPage(handle);
    if (view.state !== 'open') return outcomePage(reply, view);
    return form(reply, handle, view, 200, null);
  });

  app.post<Submission>('/checkout/otp/:handle', { bodyLimit: 2048 }, async (request, reply) => {
    // A submission on a public checkout page: counted by address (checkoutIp), as the checkout's own.
    await limitRequest(rateLimits, 'checkoutIp', request.ip, reply);
    const { handle } = request.params;
    const body = request.body ?? {};
    if (!fromThisPage(request, services, CSRF_COOKIE, handle, body.csrf)) {
      return html(
        reply,
        403,
        otpMessage('Form expired', 'This form has expired or did not come from this page. Reload the page and try again. Nothing was changed.'),
      );
    }
    const otp = typeof body.otp === 'string' ? body.otp.trim() : '';
    if (!OTP.test(otp)) {
      // Not a code at all: nothing is sent on, and no try is used.
      const view = await services.payments.otpPage(handle);
      if (view.state !== 'open') return outcomePage(reply, view);
      return form(reply, handle, view, 400, 'Enter the code your bank sent: digits only.');
    }
    let result: OtpView;
    try {
      result = await services.payments.submitOtp(handle, otp);
    } catch (err) {
      // The bank did not answer in time: the code may or may not have been taken; the payment says so once it knows.
      request.log.warn({ err }, 'one-time code not confirmed by the processor');
      return html(reply, 503, otpMessage('Try again shortly', 'Your bank did not answer in time. Wait a moment, then reload this page.'));
    }
    if (result.state === 'invalid' || (result.state !== 'open' && !result.decided)) return outcomePage(reply, result);
    if (result.state === 'open') return form(reply, handle, result, 422, result.wrongCode ? WRONG_CODE : null);
    const p = result.payment;
    reply.header('set-cookie', csrfCookie(CSRF_COOKIE, cardOtpPath(handle), services.publicAddress, null));
    // The code taken and the bank not decided yet: back to the merchant all the same (its status says so).
    const [title, message] =
      p.status === 'requires_action'
        ? ['Payment being confirmed', 'Your bank has the code and has not answered yet. The merchant will be told as soon as it does.']
        : [p.status === 'successful' ? 'Payment confirmed' : 'Payment failed', `The payment is ${p.status}. You can close this window.`];
    return backToMerchant(reply, p, () => otpMessage(title, message, shown(result)));
  });
}
