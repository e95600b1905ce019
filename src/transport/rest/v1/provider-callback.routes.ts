import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ProviderSignals } from '../../../modules/transactions/provider-signals.service';
import { messagePage } from '../../../providers/sandbox/three-ds-page';
import { AppError } from '../../../shared/errors';
import { operation } from '../openapi/operation';
import { backToMerchant, html, outcomeMessage, PAYMENT_SITE } from './payment-pages';

/** The services this file calls (the composition root passes them). */
type UsedServices = { providerSignals: ProviderSignals };

/** A provider's notification is small; anything larger is not one. */
const CALLBACK_BODY_LIMIT = 64 * 1024;

/** A provider's notification, sent with POST (or PUT, as MTN MoMo sends it): one operation each. */
const receiveNotification = (method: 'POST' | 'PUT') =>
  operation({
    operationId: method === 'POST' ? 'receiveProviderNotification' : 'receiveProviderNotificationPut',
    tag: 'Providers',
    access: 'public',
    summary: method === 'POST' ? 'A provider’s notification about one transaction' : 'The same, as MTN MoMo sends it (PUT)',
    description:
      'Called by payment providers, never by merchants. The token is per transaction and unguessable; a wrong one is 404 and nothing is kept. ' +
      'The body (any content type, at most 64 KiB) is kept raw, once, and only prompts a status query to the provider: its answer, not the notification, changes the transaction.',
    params: { connector: '`mtn_momo`, `mpesa`, `flutterwave` or `sandbox`', token: 'The transaction’s callback token, as sent to the provider' },
    raw: {
      requestBody: { description: 'The provider’s notification, as it sends it', content: { '*/*': { schema: {} } } },
      responses: {
        '200': {
          description: 'Kept (or a duplicate, ignored): the acknowledgement the provider expects',
          content: { 'application/json': { schema: { type: 'object' } } },
        },
        '404': {
          description: 'No such callback (a wrong token, or another connector’s)',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
    },
  });

const receiveProviderWebhook = operation({
  operationId: 'receiveProviderWebhook',
  tag: 'Providers',
  access: 'public',
  summary: 'A provider’s account-wide webhook (Flutterwave’s, with `verif-hash`)',
  description:
    'Called by payment providers that send every webhook to one address, never by merchants. The connector authenticates it (Flutterwave: the `verif-hash` header, compared in constant time; ' +
    'otherwise 404 and nothing is kept) and names the transaction from its reference. The body is kept raw, once, and only prompts a status query.',
  params: { connector: '`flutterwave`' },
  raw: {
    requestBody: { description: 'The provider’s webhook, as it sends it', content: { '*/*': { schema: {} } } },
    responses: {
      '200': {
        description: 'Kept (or a duplicate, or about no transaction of ours: ignored)',
        content: { 'application/json': { schema: { type: 'object' } } },
      },
      '404': {
        description: 'Not the provider’s (the shared secret is wrong or missing)',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    },
  },
});

const returnFromAuthentication = operation({
  operationId: 'returnFromAuthentication',
  tag: 'Providers',
  access: 'public',
  summary: 'The cardholder’s browser, back from a processor’s 3-D Secure page',
  description:
    'Opened by the cardholder’s browser, never by merchants: the processor’s authentication page (Flutterwave’s) sends it here. The processor is asked about the payment at once; ' +
    'then the browser is sent (303) to the payment’s `redirect_url` with `reference`, `external_reference` and `status`, or shown the outcome when there is none. ' +
    'A wrong token is a 404 page, and nothing is changed.',
  params: { connector: '`flutterwave`', token: 'The payment’s return token, as sent to the processor' },
  raw: {
    responses: {
      '200': { description: 'The outcome, as a page (the payment has no `redirect_url`)', content: { 'text/html': { schema: { type: 'string' } } } },
      '303': { description: 'On to the payment’s `redirect_url`' },
      '404': { description: 'No such payment (a wrong token, or another connector’s)', content: { 'text/html': { schema: { type: 'string' } } } },
    },
  },
});

type CallbackRoute = { Params: { connector: string; token: string }; Body: string | undefined };

/**
 * `POST` (and `PUT`, which MTN uses) `/v1/providers/{connector}/callback/{token}`: where providers
 * send their notifications. Public, as providers send no credentials; the token (per transaction,
 * unguessable) says which transaction, and a wrong one is NOT_FOUND with nothing kept. The body
 * is taken as raw text, whatever its content type, and kept as it came; it only prompts a status
 * query (ProviderSignals.receiveNotification). The answer is the one the provider expects.
 */
export async function providerCallbackRoutes(app: FastifyInstance, { services }: { services: UsedServices }) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: CALLBACK_BODY_LIMIT }, (_request, body, done) => done(null, body));
  const handler = async (request: FastifyRequest<CallbackRoute>) =>
    services.providerSignals.receiveNotification(request.params.connector, request.params.token, {
      method: request.method,
      contentType: request.headers['content-type'] ?? null,
      body: typeof request.body === 'string' ? request.body : '',
    });
  for (const method of ['POST', 'PUT'] as const) {
    app.route<CallbackRoute>({
      method,
      url: '/providers/:connector/callback/:token',
      bodyLimit: CALLBACK_BODY_LIMIT,
      ...receiveNotification(method).route,
      handler,
    });
  }
  // The cardholder's browser, back from a processor's authentication page (3-D Secure): the processor is asked at
  // once, then the browser goes on to the merchant's redirect_url. A wrong token is a 404 page; nothing is changed.
  app.get<{ Params: { connector: string; token: string } }>('/providers/:connector/return/:token', returnFromAuthentication.route, async (request, reply) => {
    const payment = await services.providerSignals.returnFromAuthentication(request.params.connector, request.params.token).catch((err: unknown) => {
      if (err instanceof AppError && err.code === 'NOT_FOUND') return null;
      throw err;
    });
    if (!payment) return html(reply, 404, messagePage('Link not valid', 'This payment link is not valid. Nothing was changed.', undefined, PAYMENT_SITE));
    return backToMerchant(reply, payment, () => outcomeMessage(payment));
  });
  // Account-wide webhooks (Flutterwave's `verif-hash`): the connector authenticates them and names the transaction.
  app.post<{ Params: { connector: string }; Body: string | undefined }>(
    '/providers/:connector/webhook',
    { bodyLimit: CALLBACK_BODY_LIMIT, ...receiveProviderWebhook.route },
    async (request) =>
      services.providerSignals.receiveWebhook(request.params.connector, request.headers, {
        method: request.method,
        contentType: request.headers['content-type'] ?? null,
        body: typeof request.body === 'string' ? request.body : '',
      }),
  );
}
