import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 38, payout schedules: a merchant's own schedule per currency (no row: the default, docs/payouts.md). The
 * checks mirror the rules (src/modules/payouts/schedule/schedule.rules.ts): an anchor only on its own interval.
 */
export class Migration20261207010000_payout_schedules extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table payout_schedule (
      merchant_id uuid not null references merchant(id) on delete cascade,
      currency text not null check (currency ~ '^[A-Z]{3}$'),
      interval text not null check (interval in ('daily', 'weekly', 'monthly', 'manual')),
      weekly_anchor text null check (weekly_anchor in ('monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday')),
      monthly_anchor smallint null check (monthly_anchor between 1 and 31),
      delay_days smallint not null check (delay_days between 0 and 30),
      cutoff_time text not null check (cutoff_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
      time_zone text not null check (length(time_zone) between 1 and 64),
      updated_at timestamptz not null,
      updated_by text null,
      primary key (merchant_id, currency),
      constraint payout_schedule_weekly_anchor check ((interval = 'weekly') = (weekly_anchor is not null)),
      constraint payout_schedule_monthly_anchor check ((interval = 'monthly') = (monthly_anchor is not null))
    );`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table payout_schedule;');
  }
}
