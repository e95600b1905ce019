import { LockMode } from '@mikro-orm/core';
import type { PaymentsEnv } from '../../config';
import type { Orm } from '../../db/orm';
import { JobName, type JobRunner } from '../../jobs/job-runner';
import type { Clock } from '../../shared/clock';
import type { Logger } from '../../shared/logger';
import { Merchant } from '../merchants/merchant.entity';
import { OutboxEvent } from '../outbox/outbox-event.entity';
import { postWebhook, type SendResult } from './http-sender';
import { retryDelay } from './retry-schedule';
import { webhookHeaders } from './signing';
import { WebhookAttempt, WebhookDelivery } from './webhook-delivery.entity';
import type { WebhookService } from './webhook.service';

/** The webhook body (CONTRACT §8): the event with the full record as the status endpoint returns it. */
export function webhookBody(event: OutboxEvent): string {
  return JSON.stringify({ id: event.id, type: event.type, created_at: event.createdAt.toISOString(), data: event.payload });
}

/**
 * Delivers outbox events, one attempt per job. At-least-once: an attempt whose
 * worker dies is re-run when its job's claim expires, with the same webhook-id.
 * Each attempt is recorded; a failure schedules the next attempt on the retry
 * schedule (with jitter) until the schedule is spent, then the delivery is failed.
 * pg-boss gives each job to one worker, so several instances never send one
 * attempt twice.
 */
export class WebhookDispatcher {
  constructor(
    private readonly orm: Orm,
    private readonly clock: Clock,
    private readonly jobs: JobRunner,
    private readonly webhooks: WebhookService,
    private readonly settings: { env: PaymentsEnv; timeoutMs: number; schedule: number[] },
    private readonly logger: Logger,
  ) {}

  async deliver(eventId: string): Promise<void> {
    const em = this.orm.em.fork();
    const delivery = await em.findOne(WebhookDelivery, { eventId });
    if (!delivery || delivery.status !== 'pending') return;
    const event = await em.findOneOrFail(OutboxEvent, { id: eventId });
    const merchant = await em.findOneOrFail(Merchant, { id: event.merchantId });
    const attemptNumber = delivery.attemptCount + 1;
    const attemptedAt = this.clock.now();

    let result: SendResult;
    if (!merchant.webhookUrl) {
      result = { statusCode: null, latencyMs: 0, error: 'no webhook endpoint is configured' };
    } else {
      const body = webhookBody(event);
      // webhook-timestamp is wall-clock time: receivers check it against their own clocks.
      const headers = webhookHeaders(this.webhooks.signingSecrets(merchant), event.id, new Date(), body);
      result = await postWebhook(merchant.webhookUrl, body, headers, this.settings.env, this.settings.timeoutMs);
    }
    const success = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;

    await em.transactional(async (tx) => {
      const locked = await tx.findOne(WebhookDelivery, { eventId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!locked || locked.status !== 'pending' || locked.attemptCount !== delivery.attemptCount) return;
      tx.create(WebhookAttempt, {
        eventId,
        merchantId: event.merchantId,
        attemptNumber,
        url: merchant.webhookUrl,
        attemptedAt,
        statusCode: result.statusCode,
        latencyMs: result.latencyMs,
        success,
        error: success ? null : (result.error ?? `HTTP ${result.statusCode}`),
      });
      locked.attemptCount = attemptNumber;
      locked.updatedAt = this.clock.now();
      if (success) {
        locked.status = 'delivered';
        locked.deliveredAt = locked.updatedAt;
        locked.nextAttemptAt = null;
        return;
      }
      const delay = retryDelay(this.settings.schedule, attemptNumber);
      if (delay === undefined) {
        locked.status = 'failed';
        locked.nextAttemptAt = null;
        this.logger.warn({ eventId, merchantId: event.merchantId, attempts: attemptNumber }, 'webhook delivery failed for good');
        return;
      }
      locked.nextAttemptAt = new Date(locked.updatedAt.getTime() + delay);
      await tx.flush();
      await this.jobs.enqueue(tx, JobName.DeliverWebhook, { eventId }, { delayMs: delay, singletonKey: `${eventId}:${attemptNumber + 1}` });
    });
  }
}
