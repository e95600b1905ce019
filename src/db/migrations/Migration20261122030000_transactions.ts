import { Migration } from '@mikro-orm/migrations';

export class Migration20261122030000_transactions extends Migration {
  override async up(): Promise<void> {
    // One table for every kind of transaction (collection, transfer, and later domestic payments).
    this.addSql(`
      create table "transaction" (
        id uuid primary key,
        merchant_id uuid not null references merchant(id) on delete cascade,
        kind text not null check (kind in ('collection', 'transfer', 'payment')),
        reference text not null unique,
        external_reference text not null,
        status text not null check (status in ('processing', 'successful', 'failed', 'expired')),
        customer_id uuid null references customer(id),
        account_type text null check (account_type in ('bank', 'momo')),
        country_code char(2) null,
        channel_id text null,
        network_id text null,
        account_number text null,
        account_name text null,
        dial_code text null,
        reason text null,
        amount numeric null,
        currency char(3) null,
        source_amount numeric null,
        source_currency char(3) null,
        destination_amount numeric null,
        destination_currency char(3) null,
        rate numeric null,
        fee numeric null,
        quote_id text null,
        bank_info jsonb null,
        virtual_account_number text null unique,
        provider_reference text null,
        failure_reason text null,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        completed_at timestamptz null,
        expires_at timestamptz null,
        -- The merchant's reference is unique per merchant across every kind: the first commit wins.
        constraint transaction_merchant_external_reference_unique unique (merchant_id, external_reference)
      );`);
    this.addSql(`create index transaction_merchant_created_index on "transaction" (merchant_id, created_at desc, id desc);`);
    this.addSql(`create index transaction_customer_index on "transaction" (customer_id);`);
    // Every state change of a transaction, in order.
    this.addSql(`
      create table transaction_event (
        id bigserial primary key,
        transaction_id uuid not null references "transaction"(id) on delete cascade,
        from_status text null,
        to_status text not null,
        reason text null,
        occurred_at timestamptz not null
      );`);
    this.addSql(`create index transaction_event_transaction_index on transaction_event (transaction_id, id);`);
    // Sandbox virtual account numbers: a sequence makes each one unique without a retry loop.
    this.addSql(`create sequence sandbox_virtual_account_seq start 1000000001;`);
  }

  override async down(): Promise<void> {
    this.addSql('drop sequence if exists sandbox_virtual_account_seq;');
    this.addSql('drop table if exists transaction_event;');
    this.addSql('drop table if exists "transaction";');
  }
}
