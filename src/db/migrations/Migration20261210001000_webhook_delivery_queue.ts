import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 40: a webhook delivery row is its own queue item (WebhookPump). No `deliver-webhook` job is written
 * per delivery or retry any more:
 * - the pump picks due deliveries oldest first across endpoints: an index on `next_attempt_at` of the pending
 *   ones (the per-endpoint index, `webhook_delivery_due_index`, stays for an endpoint's own backlog);
 * - jobs queued before this migration are deleted: their deliveries are pending rows, which the pump picks as
 *   they fall due (a job's `attempt` fence was the delivery's own `attempt_count` + 1);
 * - `woken_at` (when the old sweep last gave a waiting delivery a job) is dropped.
 * Down: the jobs are queued again, one per pending delivery, as the engine migration did.
 */
export class Migration20261210001000_webhook_delivery_queue extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index webhook_delivery_pending_due_index on webhook_delivery (next_attempt_at) where status = 'pending';`);
    this.addSql(
      `delete from graphile_worker._private_jobs where task_id in (select id from graphile_worker._private_tasks where identifier = 'deliver-webhook');`,
    );
    this.addSql('alter table webhook_delivery drop column if exists woken_at;');
  }

  override async down(): Promise<void> {
    this.addSql('alter table webhook_delivery add column woken_at timestamptz null;');
    this.addSql('drop index if exists webhook_delivery_pending_due_index;');
    this.addSql(
      `select graphile_worker.add_job('deliver-webhook', json_build_object('eventId', event_id, 'attempt', attempt_count + 1, 'merchantId', merchant_id),
                                      run_at => next_attempt_at)
       from webhook_delivery where status = 'pending';`,
    );
  }
}
