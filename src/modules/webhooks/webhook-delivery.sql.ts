import { TEST_EVENT_TYPE } from '../outbox/event-types';
import type { EventFollowUpsSql } from '../outbox/outbox';
import { WebhookJob, type WebhookJobQueue } from './webhook.jobs';

/**
 * The webhooks' part of the outbox's statement (the outbox is given it at the composition root):
 * an event's delivery row and the job that makes its first attempt, written with the event, and
 * only when the merchant has an endpoint; an event of a merchant without one stays in the event
 * log, unattempted (CONTRACT §8). No statement of its own: CTEs of the state change's one statement.
 *
 * A test event's first attempt is made within its request (WebhookService.sendTestEvent), whose answer shows how
 * the endpoint answered: its job is the fallback, should that process die first, so it waits until the request's
 * attempt is over (its timeout, and the claim's margin) instead of racing it to the claim.
 */
/** How long after its request's attempt could have timed out a test event's fallback job runs. */
const TEST_EVENT_FALLBACK_MARGIN_MS = 5_000;

export function webhookDeliverySql(jobs: WebhookJobQueue, timeoutMs: number): EventFollowUpsSql {
  const testEventJobDelayMs = timeoutMs + TEST_EVENT_FALLBACK_MARGIN_MS;
  return (params, event, recorded) => {
    const now = recorded.createdAt;
    const ev = recorded.cte;
    const job = jobs.jobsSql(
      params,
      [
        {
          name: WebhookJob.DeliverWebhook,
          payload: { eventId: event.id, attempt: 1, merchantId: event.merchantId },
          delayMs: event.type === TEST_EVENT_TYPE ? testEventJobDelayMs : undefined,
        },
      ],
      'outbox_dv',
      'outbox',
    );
    return {
      ctes: [
        `outbox_dv as (
          insert into webhook_delivery (event_id, merchant_id, status, attempt_count, next_attempt_at, created_at, updated_at)
          select ${ev}.id, ${ev}.merchant_id, 'pending', 0, ${now}, ${now}, ${now}
          from ${ev} join merchant on merchant.id = ${ev}.merchant_id
          where merchant.webhook_url is not null
          returning event_id)`,
        ...job.ctes,
      ],
      selects: job.selects,
    };
  };
}
