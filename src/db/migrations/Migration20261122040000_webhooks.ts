import { Migration } from '@mikro-orm/migrations';

export class Migration20261122040000_webhooks extends Migration {
  override async up(): Promise<void> {
    // During a rotation the old secret keeps signing (a second signature) until it expires.
    this.addSql(`
      alter table merchant
        add column previous_webhook_secret_sealed text null,
        add column previous_webhook_secret_expires_at timestamptz null;`);
    // One delivery per outbox event: its state across attempts.
    this.addSql(`
      create table webhook_delivery (
        event_id text primary key references outbox_event(id) on delete cascade,
        merchant_id uuid not null references merchant(id) on delete cascade,
        status text not null check (status in ('pending', 'delivered', 'failed')),
        attempt_count int not null default 0,
        next_attempt_at timestamptz null,
        delivered_at timestamptz null,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );`);
    this.addSql(`create index webhook_delivery_merchant_index on webhook_delivery (merchant_id, status);`);
    // Every attempt, as it happened.
    this.addSql(`
      create table webhook_attempt (
        id bigserial primary key,
        event_id text not null references outbox_event(id) on delete cascade,
        merchant_id uuid not null references merchant(id) on delete cascade,
        attempt_number int not null,
        url text null,
        attempted_at timestamptz not null,
        status_code int null,
        latency_ms int not null,
        success boolean not null,
        error text null
      );`);
    this.addSql(`create index webhook_attempt_event_index on webhook_attempt (event_id, id);`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists webhook_attempt;');
    this.addSql('drop table if exists webhook_delivery;');
    this.addSql('alter table merchant drop column previous_webhook_secret_sealed, drop column previous_webhook_secret_expires_at;');
  }
}
