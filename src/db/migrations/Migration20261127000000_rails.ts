import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 20: real rails. Each transaction keeps the connector routing picked for it (every one
 * made so far was the sandbox's), and every provider notification is kept raw, once, before it
 * is acted on: (connector, transaction, dedupe key) is unique, so a duplicate changes nothing.
 * Status queries whose answers come back as notifications (M-Pesa's Transaction Status) are kept
 * here too (`method` QUERY), so that an answer is believed only if it answers one of ours.
 */
export class Migration20261127000000_rails extends Migration {
  override async up(): Promise<void> {
    // Every transaction so far went through the sandbox; a constant default is instant (no rewrite), and is dropped after.
    this.addSql(`alter table "transaction" add column connector text not null default 'sandbox';`);
    this.addSql(`alter table "transaction" alter column connector drop default;`);
    this.addSql(`
      create table provider_notification (
        id bigint generated always as identity primary key,
        connector text not null,
        transaction_id uuid not null references "transaction" (id) on delete cascade,
        dedupe_key text not null,
        method text not null,
        content_type text null,
        body text not null,
        parsed jsonb not null,
        received_at timestamptz not null default clock_timestamp(),
        processed_at timestamptz null,
        constraint provider_notification_once unique (transaction_id, connector, dedupe_key)
      );`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table provider_notification;`);
    this.addSql(`alter table "transaction" drop column connector;`);
  }
}
