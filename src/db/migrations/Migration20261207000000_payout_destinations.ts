import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 38, point 2: where a merchant's payouts in a currency go (docs/payouts.md, Destinations). A change is
 * a new row, never an update of the account: the old row stays (replaced) for the record. The partial unique
 * indexes hold the rules the service relies on: one active destination and one pending change per currency.
 */
export class Migration20261207000000_payout_destinations extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table payout_destination (
      id text primary key,
      merchant_id uuid not null references merchant (id),
      currency text not null,
      account_type text not null check (account_type in ('bank', 'momo')),
      country_code text not null,
      channel_id text not null,
      network_id text not null,
      bank_code text null,
      account_number text not null,
      dial_code text not null,
      account_name text not null,
      name_checked boolean not null,
      status text not null check (status in ('active', 'pending_approval', 'replaced', 'canceled')),
      created_by uuid not null references app_user (id),
      approved_by uuid null references app_user (id),
      canceled_by uuid null references app_user (id),
      effective_at timestamptz null,
      created_at timestamptz not null,
      activated_at timestamptz null,
      replaced_at timestamptz null,
      canceled_at timestamptz null,
      constraint payout_destination_active_since check (status not in ('active', 'replaced') or activated_at is not null));`);
    this.addSql(`create unique index payout_destination_one_active on payout_destination (merchant_id, currency) where status = 'active';`);
    this.addSql(`create unique index payout_destination_one_pending on payout_destination (merchant_id, currency) where status = 'pending_approval';`);
    this.addSql(`create index payout_destination_list on payout_destination (merchant_id, created_at desc, id desc);`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table payout_destination;');
  }
}
