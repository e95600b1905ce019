import type { AuditLog } from '../audit/audit-log';
import { defineModule, type ModuleInfra } from '../module';
import type { EventChoices } from '../outbox/event-choices';
import type { Outbox } from '../outbox/outbox';
import { parseRetrySchedule } from './retry-schedule';
import { WebhookDispatcher } from './webhook-dispatcher';
import { webhookDeliverySql } from './webhook-delivery.sql';
import { WEBHOOK_JOBS, type WebhookJobQueue } from './webhook.jobs';
import { WebhookService } from './webhook.service';

type WebhooksInfra = Pick<ModuleInfra, 'config' | 'orm' | 'sql' | 'clock' | 'secretBox' | 'logger' | 'metrics'> & { jobs: WebhookJobQueue };

/**
 * Webhooks: the merchant's endpoint settings and event log (WebhookService), and delivery
 * (WebhookDispatcher, run by the `deliver-webhook` job). Every event's statement also writes its
 * delivery row and first job (the outbox follow-up). A resend enqueues a delivery job; a test
 * event's first attempt is made within its request by the dispatcher, built first.
 */
export const webhooksModule = defineModule({
  name: 'webhooks',
  jobs: WEBHOOK_JOBS,
  outboxFollowUps: ({ jobs, config }: Pick<WebhooksInfra, 'jobs' | 'config'>) => webhookDeliverySql(jobs, config.webhookTimeoutMs),
  create: (infra: WebhooksInfra, { outbox, eventChoices, audit }: { outbox: Outbox; eventChoices: EventChoices; audit: AuditLog }) => {
    const { config, orm, sql, clock, secretBox, logger, metrics, jobs } = infra;
    const webhookDispatcher = new WebhookDispatcher({
      sql,
      clock,
      jobs,
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
    const webhooks = new WebhookService({
      orm,
      clock,
      jobs,
      outbox,
      eventChoices,
      secretBox,
      env: config.env,
      testEventsPerMinute: config.webhookCapacity.testEventsPerMinute,
      dispatcher: webhookDispatcher,
      audit,
    });
    return { services: { webhooks, webhookDispatcher } };
  },
});
