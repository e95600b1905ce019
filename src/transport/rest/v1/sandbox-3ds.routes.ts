import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { PaymentService, AuthenticationView } from '../../../modules/transactions/kinds/payment/payment.service';
import type { FormTokens } from '../../../shared/form-tokens';
import type { PublicAddress } from '../../../shared/public-address';
import { sandboxAuthenticationPath } from '../../../providers/sandbox/sandbox-card-charges';
import { authenticationForm, messagePage } from '../../../providers/sandbox/three-ds-page';
import { operation } from '../openapi/operation';
import { backToMerchant, csrfCookie, fromThisPage, html, shown } from './payment-pages';

/** The services this file calls (the composition root passes them). */
type UsedServices = { formTokens: FormTokens; payments: PaymentService; publicAddress: PublicAddress };

/*
 * Its description: HTML, not JSON, public (the handle in the path is its only key), sandbox only.
 */
const htmlAnswer = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });
const handle = { handle: 'The handle from the payment’s `next_action.url` (32 random bytes, base64url)' };
const common = {
  tag: 'Sandbox',
  access: 'public',
  sandboxOnly: true,
  params: handle,
} as const;
const refusals = {
  '404': htmlAnswer('The handle is not valid (never issued, or already used). Nothing changes.'),
  '409': htmlAnswer('The payment is already decided. Nothing changes.'),
  '410': htmlAnswer('The authentication deadline has passed: the payment fails as authentication_expired.'),
};

const showSandbox3dsPage = operation({
  ...common,
  operationId: 'showSandbox3dsPage',
  summary: 'The cardholder’s 3-D Secure page',
  description:
    'What `next_action.url` opens in the cardholder’s browser: the merchant’s name, the amount and the card’s last four digits, with Complete and Fail. ' +
    'Never cached or framed, script-free, and sent with no Referer.',
  raw: {
    responses: {
      '200': {
        ...htmlAnswer('The page, with its form. Sets an HttpOnly, SameSite=Strict CSRF cookie scoped to this path.'),
        headers: { 'Set-Cookie': { schema: { type: 'string' } } },
      },
      ...refusals,
    },
  },
});

const decideSandbox3dsPage = operation({
  ...common,
  operationId: 'decideSandbox3dsPage',
  summary: 'The cardholder completes or fails 3-D Secure',
  description:
    'The page’s own form: it must come from this origin and carry the CSRF cookie with its signed twin. Decides the payment once, then redirects ' +
    '(303) to the payment’s redirect_url with `reference`, `external_reference` and `status` in the query, or shows the outcome when it has none. ' +
    'The redirect is a convenience, not proof: confirm with verify or the webhook.',
  raw: {
    requestBody: {
      required: true,
      content: {
        'application/x-www-form-urlencoded': {
          schema: {
            type: 'object',
            required: ['decision', 'csrf'],
            properties: { decision: { type: 'string', enum: ['complete', 'fail'] }, csrf: { type: 'string', description: 'The form’s hidden field' } },
          },
        },
      },
    },
    responses: {
      '200': htmlAnswer('The outcome, when the payment has no redirect_url'),
      '303': { description: 'Decided: to the redirect_url', headers: { Location: { schema: { type: 'string', format: 'uri' } } } },
      '400': htmlAnswer('Neither Complete nor Fail was chosen. Nothing changes.'),
      '403': htmlAnswer('The form did not come from this page (another origin, or a missing or wrong CSRF token). Nothing changes.'),
      ...refusals,
    },
  },
});

type HandleRoute = { Params: { handle: string } };
type Decision = HandleRoute & { Body: { decision?: unknown; csrf?: unknown } | undefined };

const CSRF_COOKIE = 'sbx_3ds_csrf';

const INVALID = ['Link not valid', 'This authentication link is not valid. Nothing was changed.'] as const;

function outcomePage(reply: FastifyReply, view: AuthenticationView) {
  if (view.state === 'invalid') return html(reply, 404, messagePage(...INVALID));
  const p = view.payment;
  if (view.state === 'expired') {
    return html(
      reply,
      410,
      messagePage(
        'Authentication expired',
        'The time to authenticate this payment has passed, so it can no longer be completed: it fails as authentication_expired.',
        shown(view),
      ),
    );
  }
  return html(reply, 409, messagePage('Already decided', `This payment is already ${p.status.replace('_', ' ')}. Nothing was changed.`, shown(view)));
}

/**
 * Sandbox only, and public (the cardholder has no token): the 3-D Secure page
 * that `next_action.url` points at. The handle in the path is the only key, it
 * decides its payment once, and it stops working at the payment's deadline.
 */
export async function sandbox3dsRoutes(app: FastifyInstance, { services }: { services: UsedServices }) {
  await app.register(formbody, { bodyLimit: 2048 });

  app.get<HandleRoute>('/sandbox/3ds/:handle', showSandbox3dsPage.route, async (request, reply) => {
    const { handle } = request.params;
    const view = await services.payments.authenticationPage(handle);
    if (view.state !== 'open') return outcomePage(reply, view);
    const token = services.formTokens.issue(handle);
    reply.header('set-cookie', csrfCookie(CSRF_COOKIE, sandboxAuthenticationPath(handle), services.publicAddress, token.cookie));
    return html(reply, 200, authenticationForm(shown(view), sandboxAuthenticationPath(handle), token.field), view.payment.redirectUrl);
  });

  app.post<Decision>('/sandbox/3ds/:handle', { bodyLimit: 2048, ...decideSandbox3dsPage.route }, async (request, reply) => {
    const { handle } = request.params;
    const body = request.body ?? {};
    // A submission counts only from this page: same origin, and the CSRF cookie with its signed twin in the form.
    if (!fromThisPage(request, services, CSRF_COOKIE, handle, body.csrf)) {
      return html(
        reply,
        403,
        messagePage('Form expired', 'This form has expired or did not come from this page. Reload the page and try again. Nothing was changed.'),
      );
    }
    if (body.decision !== 'complete' && body.decision !== 'fail') {
      return html(reply, 400, messagePage('Choose an answer', 'Choose Complete or Fail. Nothing was changed.'));
    }
    const result = await services.payments.authenticate(handle, body.decision === 'complete');
    if (result.state === 'invalid' || !result.decided) return outcomePage(reply, result);
    const p = result.payment;
    reply.header('set-cookie', csrfCookie(CSRF_COOKIE, sandboxAuthenticationPath(handle), services.publicAddress, null));
    const title = p.status === 'successful' ? 'Payment authenticated' : 'Payment failed';
    return backToMerchant(reply, p, () => messagePage(title, `The payment is ${p.status}. You can close this window.`, shown(result)));
  });
}
