import type { AuditLog } from '../audit/audit-log';
import type { JobQueue } from '../../jobs/job-queue';
import { defineModule, type ModuleInfra } from '../module';
import type { EventChoices } from '../outbox/event-choices';
import type { Outbox } from '../outbox/outbox';
import { parseRetrySchedule } from './retry-schedule';
import { WebhookDispatcher } from './webhook-dispatcher';
import { webhookDeliverySql } from './webhook-delivery.sql';
import { WebhookPump } from './webhook-pump';
import { WebhookService } from './webhook.service';
import { EventRetention } from './event-retention';
import { EventFeed } from './event-feed';

/** How often an open `eventRecorded` stream (`listen`) looks for new events. */
const EVENT_FEED_POLL_MS = 500;

type WebhooksInfra = Pick<ModuleInfra, 'config' | 'orm' | 'sql' | 'clock' | 'secretBox' | 'logger' | 'metrics'> & {
  jobs: Pick<JobQueue<never>, 'onDue' | 'addQueueStats'>;
};

/**
 * Webhooks: the merchant's endpoint settings and event log (WebhookService), and delivery
 * (WebhookDispatcher, fed by WebhookPump: the delivery row is the queue item, with no job). Every event's
 * statement also writes its delivery row (the outbox follow-up), and wakes this instance's pump after its
 * commit. A resend makes its delivery due and wakes the pump; a test event's first attempt is made within
 * its request by the dispatcher, built first. The pump runs where the workers run (bootstrap starts it).
 */
export const webhooksModule = defineModule({
  name: 'webhooks',
  outboxFollowUps: ({ config }: Pick<WebhooksInfra, 'config'>) => webhookDeliverySql(config.webhookTimeoutMs),
  create: (infra: WebhooksInfra, { outbox, eventChoices, audit }: { outbox: Outbox; eventChoices: EventChoices; audit: AuditLog }) => {
    const { config, orm, sql, clock, secretBox, logger, metrics, jobs } = infra;
    const webhookDispatcher = new WebhookDispatcher({
      sql,
      clock,
      secretBox,
      settings: {
        env: config.env,
        timeoutMs: config.webhookTimeoutMs,
        schedule: parseRetrySchedule(config.webhookRetrySchedule),
        capacity: config.webhookCapacity,
      },
      logger,
      observeAttempt: metrics?.webhookAttempt,
    });
    const { webhookCapacity: capacity } = config;
    const webhookPump = new WebhookPump({
      sql,
      clock,
      logger,
      dispatcher: webhookDispatcher,
      settings: {
        concurrency: capacity.senders,
        perEndpoint: capacity.perEndpoint,
        slowPerEndpoint: capacity.slowPerEndpoint,
        circuitFailures: capacity.circuitFailures,
        pollMs: config.jobPollIntervalMs,
        // An attempt in flight at shutdown may run to its own timeout, within the shutdown's deadline.
        drainMs: Math.min(config.webhookTimeoutMs + 1000, config.shutdownTimeoutMs),
      },
    });
    // A committed statement that wrote a due delivery (or any wake of the workers) wakes this instance's pump.
    jobs.onDue(() => webhookPump.wake());
    // The deliveries in the job queue's metrics, under the task name they had as jobs.
    jobs.addQueueStats('deliver-webhook', WebhookPump.QUEUE_STATS_SQL);
    const webhooks = new WebhookService({
      orm,
      clock,
      wakeDeliveries: () => webhookPump.wake(),
      outbox,
      eventChoices,
      secretBox,
      env: config.env,
      testEventsPerMinute: config.webhookCapacity.testEventsPerMinute,
      dispatcher: webhookDispatcher,
      audit,
    });
    const eventRetention = new EventRetention({ sql, clock, retentionMs: config.retention.eventMs });
    const eventFeed = new EventFeed({ sql, clock, pollMs: EVENT_FEED_POLL_MS });
    return { services: { webhooks, webhookPump, eventRetention, eventFeed } };
  },
});
