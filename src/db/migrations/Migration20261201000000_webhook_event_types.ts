import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 24: the event types a merchant chose to receive (recorded in its event log and sent to its
 * endpoint). Null: the default, final statuses and KYC decisions (modules/outbox/event-types.ts),
 * which is what every merchant received before the choice existed.
 */
export class Migration20261201000000_webhook_event_types extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table merchant add column webhook_event_types text[] null`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table merchant drop column webhook_event_types`);
  }
}
