import type { FastifyInstance } from 'fastify';
import type { MerchantService } from '../../../modules/merchants/merchant.service';
import type { WebhookService } from '../../../modules/webhooks/webhook.service';
import { MerchantRecord, serializeMerchant } from '../../../modules/merchants/merchant.serializer';
import {
  serializeEvent,
  serializeEventSummary,
  serializeSecretRotation,
  WebhookEventRecord,
  WebhookEventSummaryRecord,
  WebhookSecretRotationRecord,
} from '../../../modules/webhooks/webhook.serializer';
import { endpointSchema, eventListSchema } from '../../../modules/webhooks/webhook.service';
import { auditOf } from '../audit-context';
import { authOf } from '../auth';
import { pageMeta } from '../envelope';
import { fromRest } from '../field-names';
import { operation } from '../openapi/operation';

/** The services this file calls (the composition root passes them). */
type UsedServices = { merchants: MerchantService; webhooks: WebhookService };

const setWebhookEndpoint = operation({
  operationId: 'setWebhookEndpoint',
  tag: 'Webhooks',
  access: 'bearer',
  permission: 'webhooks:manage',
  summary: 'Set or remove the webhook endpoint',
  description: 'Production: https only, to a public address. Sandbox: http and private addresses are allowed too. `null` removes the endpoint.',
  body: { name: 'WebhookEndpointRequest', schema: endpointSchema, example: { url: 'https://shop.example/hooks' } },
  ok: { message: 'Webhook endpoint saved', data: MerchantRecord },
});

const rotateWebhookSecret = operation({
  operationId: 'rotateWebhookSecret',
  tag: 'Webhooks',
  access: 'bearer',
  permission: 'webhooks:manage',
  summary: 'Rotate the webhook signing secret',
  description: 'The new secret is shown only this once. For 24 h every delivery is signed with both the new and the old secret.',
  ok: {
    message: 'Webhook secret rotated; it is shown only this once, and the old one signs too until it expires',
    data: WebhookSecretRotationRecord,
    noStore: true,
  },
});

const listWebhookEvents = operation({
  operationId: 'listWebhookEvents',
  tag: 'Webhooks',
  access: 'bearer',
  permission: 'webhooks:read',
  summary: 'List your events with their delivery status, newest first',
  query: eventListSchema,
  fields: { after: { description: 'The `meta.next_cursor` of the previous page' } },
  ok: { message: 'Events retrieved', data: WebhookEventSummaryRecord, list: 'page' },
});

const getWebhookEvent = operation({
  operationId: 'getWebhookEvent',
  tag: 'Webhooks',
  access: 'bearer',
  permission: 'webhooks:read',
  summary: 'Get an event with every delivery attempt',
  params: { id: 'The event id (`evt_…`)' },
  ok: { message: 'Event retrieved', data: WebhookEventRecord },
  errors: { NOT_FOUND: 'no event of yours has this id' },
});

const resendWebhookEvent = operation({
  operationId: 'resendWebhookEvent',
  tag: 'Webhooks',
  access: 'bearer',
  permission: 'webhooks:manage',
  summary: 'Deliver an event again now',
  description: 'Same `webhook-id`, whatever its delivery state; recorded as the next attempt.',
  params: { id: 'The event id (`evt_…`)' },
  ok: { message: 'Event queued for delivery', data: WebhookEventRecord },
  errors: { NOT_FOUND: 'no event of yours has this id', INVALID_STATE: 'no webhook endpoint is set' },
});

const sendWebhookTestEvent = operation({
  operationId: 'sendWebhookTestEvent',
  tag: 'Webhooks',
  access: 'bearer',
  permission: 'webhooks:manage',
  summary: 'Send a test event to your endpoint',
  description:
    'Records a `webhook.test` event and makes its first delivery attempt now, signed like every event, so that you can check your receiver without making a transaction. The answer is the event with that attempt (`attempts[0]`: your endpoint’s status code, or the error); with your endpoint’s deliveries all in flight, or its circuit open, it has no attempt yet and waits its turn. A failed attempt is retried on the usual schedule. At most 10 a minute.',
  ok: { status: 201, message: 'Test event sent', data: WebhookEventRecord },
  errors: {
    INVALID_STATE: 'no webhook endpoint is set',
    RATE_LIMITED: 'your request budget is spent, or more test events than allowed in a minute (see Retry-After)',
  },
});

type IdParams = { Params: { id: string } };

/** Webhook endpoint, secret rotation, and the event log (CONTRACT §2, §8); bearer-protected. */
export async function webhookRoutes(app: FastifyInstance, { services }: { services: UsedServices }) {
  app.put('/webhooks/endpoint', setWebhookEndpoint.route, async (request, reply) => {
    const merchant = await services.webhooks.setEndpoint(authOf(request).merchantId, fromRest(request.body), auditOf(request));
    return setWebhookEndpoint.send(reply, serializeMerchant(merchant, services.merchants.webhookSecretOverlapUntil(merchant)), {
      message: merchant.webhookUrl ? 'Webhook endpoint saved' : 'Webhook endpoint removed',
    });
  });

  app.post('/webhooks/secret/rotate', rotateWebhookSecret.route, async (request, reply) => {
    const rotated = await services.webhooks.rotateSecret(authOf(request).merchantId, auditOf(request));
    reply.header('cache-control', 'no-store');
    return rotateWebhookSecret.send(reply, serializeSecretRotation(rotated));
  });

  app.get<{ Querystring: { limit?: string; after?: string; type?: string } }>('/webhooks/events', listWebhookEvents.route, async (request, reply) => {
    const page = await services.webhooks.listEvents(authOf(request).merchantId, fromRest(request.query));
    return listWebhookEvents.send(
      reply,
      page.items.map((i) => serializeEventSummary(i.node)),
      { meta: pageMeta(page) },
    );
  });

  app.post('/webhooks/test-event', sendWebhookTestEvent.route, async (request, reply) => {
    return sendWebhookTestEvent.send(reply, serializeEvent(await services.webhooks.sendTestEvent(authOf(request).merchantId)));
  });

  app.get<IdParams>('/webhooks/events/:id', getWebhookEvent.route, async (request, reply) => {
    return getWebhookEvent.send(reply, serializeEvent(await services.webhooks.getEvent(authOf(request).merchantId, request.params.id)));
  });

  app.post<IdParams>('/webhooks/events/:id/resend', resendWebhookEvent.route, async (request, reply) => {
    const detail = await services.webhooks.resend(authOf(request).merchantId, request.params.id);
    return resendWebhookEvent.send(reply, serializeEvent(detail));
  });
}
