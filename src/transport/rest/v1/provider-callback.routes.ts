import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../../../container';
import { messagePage } from '../../../providers/sandbox/three-ds-page';
import { AppError } from '../../../shared/errors';
import { backToMerchant, html, outcomeMessage } from './payment-pages';

/** A provider's notification is small; anything larger is not one. */
const CALLBACK_BODY_LIMIT = 64 * 1024;

type CallbackRoute = { Params: { connector: string; token: string }; Body: string | undefined };

/**
 * `POST` (and `PUT`, which MTN uses) `/v1/providers/{connector}/callback/{token}`: where providers
 * send their notifications. Public, as providers send no credentials; the token (per transaction,
 * unguessable) says which transaction, and a wrong one is NOT_FOUND with nothing kept. The body
 * is taken as raw text, whatever its content type, and kept as it came; it only prompts a status
 * query (TransactionService.receiveNotification). The answer is the one the provider expects.
 */
export async function providerCallbackRoutes(app: FastifyInstance, { services }: { services: Services }) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: CALLBACK_BODY_LIMIT }, (_request, body, done) => done(null, body));
  const handler = async (request: FastifyRequest<CallbackRoute>) =>
    services.transactions.receiveNotification(request.params.connector, request.params.token, {
      method: request.method,
      contentType: request.headers['content-type'] ?? null,
      body: typeof request.body === 'string' ? request.body : '',
    });
  app.route<CallbackRoute>({ method: ['POST', 'PUT'], url: '/providers/:connector/callback/:token', bodyLimit: CALLBACK_BODY_LIMIT, handler });
  // The cardholder's browser, back from a processor's authentication page (3-D Secure): the processor is asked at
  // once, then the browser goes on to the merchant's redirect_url. A wrong token is a 404 page; nothing is changed.
  app.get<{ Params: { connector: string; token: string } }>('/providers/:connector/return/:token', async (request, reply) => {
    const payment = await services.transactions.returnFromAuthentication(request.params.connector, request.params.token).catch((err: unknown) => {
      if (err instanceof AppError && err.code === 'NOT_FOUND') return null;
      throw err;
    });
    if (!payment) return html(reply, 404, messagePage('Link not valid', 'This payment link is not valid. Nothing was changed.'));
    return backToMerchant(reply, payment, () => outcomeMessage(payment));
  });
  // Account-wide webhooks (Flutterwave's `verif-hash`): the connector authenticates them and names the transaction.
  app.post<{ Params: { connector: string }; Body: string | undefined }>('/providers/:connector/webhook', { bodyLimit: CALLBACK_BODY_LIMIT }, async (request) =>
    services.transactions.receiveWebhook(request.params.connector, request.headers, {
      method: request.method,
      contentType: request.headers['content-type'] ?? null,
      body: typeof request.body === 'string' ? request.body : '',
    }),
  );
}
