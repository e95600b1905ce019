import type { FastifyInstance } from 'fastify';
import type { Services } from '../../../container';
import type { WebhookAttempt } from '../../../modules/webhooks/webhook-delivery.entity';
import type { EventWithDelivery } from '../../../modules/webhooks/webhook.service';
import { authOf } from '../auth';
import { pageMeta, sendSuccess } from '../envelope';
import { serializeMerchant } from './merchant.serializer';
import { fromRest } from '../field-names';

const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;

function serializeEventSummary({ event, delivery }: EventWithDelivery) {
  return {
    id: event.id,
    type: event.type,
    created_at: event.createdAt.toISOString(),
    delivery_status: delivery?.status ?? null,
    attempt_count: delivery?.attemptCount ?? 0,
    next_attempt_at: iso(delivery?.nextAttemptAt),
    delivered_at: iso(delivery?.deliveredAt),
  };
}

function serializeEvent(detail: EventWithDelivery & { attempts: WebhookAttempt[] }) {
  return {
    ...serializeEventSummary(detail),
    data: detail.event.payload,
    attempts: detail.attempts.map((a) => ({
      attempt_number: a.attemptNumber,
      attempted_at: a.attemptedAt.toISOString(),
      url: a.url,
      status_code: a.statusCode,
      latency_ms: a.latencyMs,
      success: a.success,
      error: a.error,
    })),
  };
}

type IdParams = { Params: { id: string } };

/** Webhook endpoint, secret rotation, and the event log (CONTRACT §2, §8); bearer-protected. */
export async function webhookRoutes(app: FastifyInstance, { services }: { services: Services }) {
  app.put('/webhooks/endpoint', async (request, reply) => {
    const merchant = await services.webhooks.setEndpoint(authOf(request).merchantId, fromRest(request.body));
    return sendSuccess(
      reply,
      merchant.webhookUrl ? 'Webhook endpoint saved' : 'Webhook endpoint removed',
      serializeMerchant(merchant, services.merchants.webhookSecretOverlapUntil(merchant)),
    );
  });

  app.post('/webhooks/secret/rotate', async (request, reply) => {
    const rotated = await services.webhooks.rotateSecret(authOf(request).merchantId);
    reply.header('cache-control', 'no-store');
    return sendSuccess(reply, 'Webhook secret rotated; it is shown only this once, and the old one signs too until it expires', {
      webhook_secret: rotated.webhookSecret,
      previous_secret_expires_at: rotated.previousSecretExpiresAt.toISOString(),
    });
  });

  app.get<{ Querystring: { limit?: string; after?: string; type?: string } }>('/webhooks/events', async (request, reply) => {
    const page = await services.webhooks.listEvents(authOf(request).merchantId, fromRest(request.query));
    return sendSuccess(
      reply,
      'Events retrieved',
      page.items.map((i) => serializeEventSummary(i.node)),
      200,
      pageMeta(page),
    );
  });

  app.get<IdParams>('/webhooks/events/:id', async (request, reply) => {
    return sendSuccess(reply, 'Event retrieved', serializeEvent(await services.webhooks.getEvent(authOf(request).merchantId, request.params.id)));
  });

  app.post<IdParams>('/webhooks/events/:id/resend', async (request, reply) => {
    const detail = await services.webhooks.resend(authOf(request).merchantId, request.params.id);
    return sendSuccess(reply, 'Event queued for delivery', serializeEvent(detail));
  });
}
