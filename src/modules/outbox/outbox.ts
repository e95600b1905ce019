import type { EntityManager } from '@mikro-orm/postgresql';
import { JobName, type JobRunner } from '../../jobs/job-runner';
import type { Clock } from '../../shared/clock';
import { randomToken } from '../../shared/crypto';
import { WebhookDelivery } from '../webhooks/webhook-delivery.entity';
import type { EventType } from './event-types';
import { OutboxEvent } from './outbox-event.entity';

export interface NewEvent {
  merchantId: string;
  type: EventType;
  subjectId: string;
  payload: Record<string, unknown>;
}

/**
 * The transactional outbox. `record` must run on the transaction that makes the
 * state change: the event, its pending webhook delivery and the job that will
 * deliver it commit together with the change, or not at all. No change is ever
 * without its event, and no event is lost to a crash.
 */
export class Outbox {
  constructor(
    private readonly clock: Clock,
    private readonly jobs: JobRunner,
  ) {}

  async record(em: EntityManager, event: NewEvent): Promise<OutboxEvent> {
    const now = this.clock.now();
    const recorded = em.create(OutboxEvent, { id: randomToken('evt', 16), createdAt: now, ...event });
    em.create(WebhookDelivery, { eventId: recorded.id, merchantId: event.merchantId, status: 'pending', attemptCount: 0, nextAttemptAt: now, createdAt: now, updatedAt: now });
    await em.flush();
    await this.jobs.enqueue(em, JobName.DeliverWebhook, { eventId: recorded.id }, { singletonKey: `${recorded.id}:1` });
    return recorded;
  }
}
