import type { OperationSpec } from './operations';

/**
 * The cardholder's 3-D Secure page (v1/sandbox-3ds.routes.ts): HTML, not JSON,
 * public (the handle in the path is its only key), sandbox only.
 */
const html = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });
const handle = { handle: 'The handle from the payment’s `next_action.url` (32 random bytes, base64url)' };
const common = {
  path: '/v1/sandbox/3ds/{handle}',
  tag: 'Sandbox',
  access: 'public',
  sandboxOnly: true,
  params: handle,
} as const;
const refusals = {
  '404': html('The handle is not valid (never issued, or already used). Nothing changes.'),
  '409': html('The payment is already decided. Nothing changes.'),
  '410': html('The authentication deadline has passed: the payment fails as authentication_expired.'),
};

export const SANDBOX_3DS_PAGE: { get: OperationSpec; post: OperationSpec } = {
  get: {
    ...common,
    method: 'get',
    operationId: 'showSandbox3dsPage',
    summary: 'The cardholder’s 3-D Secure page',
    description:
      'What `next_action.url` opens in the cardholder’s browser: the merchant’s name, the amount and the card’s last four digits, with Complete and Fail. ' +
      'Never cached or framed, script-free, and sent with no Referer.',
    raw: {
      responses: {
        '200': {
          ...html('The page, with its form. Sets an HttpOnly, SameSite=Strict CSRF cookie scoped to this path.'),
          headers: { 'Set-Cookie': { schema: { type: 'string' } } },
        },
        ...refusals,
      },
    },
  },
  post: {
    ...common,
    method: 'post',
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
        '200': html('The outcome, when the payment has no redirect_url'),
        '303': { description: 'Decided: to the redirect_url', headers: { Location: { schema: { type: 'string', format: 'uri' } } } },
        '400': html('Neither Complete nor Fail was chosen. Nothing changes.'),
        '403': html('The form did not come from this page (another origin, or a missing or wrong CSRF token). Nothing changes.'),
        ...refusals,
      },
    },
  },
};
