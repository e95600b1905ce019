import { Migration } from '@mikro-orm/migrations';

/**
 * Reference tables (filled from src/modules/reference/data by the seeder at every
 * start) and FX quotes.
 */
export class Migration20261122010000_reference extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table currency (
        code text primary key check (code ~ '^[A-Z]{3}$'),
        name text not null,
        minor_unit smallint not null check (minor_unit between 0 and 4)
      );`);
    this.addSql(`
      create table country (
        code text primary key check (code ~ '^[A-Z]{2}$'),
        name text not null,
        currency text not null references currency(code),
        dial_code text not null check (dial_code ~ '^\\+[1-9][0-9]{0,3}$')
      );`);
    this.addSql(`
      create table channel (
        id text primary key,
        country_code text not null references country(code),
        channel_type text not null check (channel_type in ('bank', 'momo')),
        ramptype text not null check (ramptype in ('deposit', 'withdrawal')),
        min_amount numeric not null check (min_amount > 0),
        max_amount numeric not null check (max_amount >= min_amount),
        status text not null check (status in ('active', 'inactive')),
        unique (country_code, channel_type, ramptype)
      );`);
    this.addSql(`
      create table network (
        id text primary key,
        name text not null,
        code text not null,
        country_code text not null references country(code),
        channel_type text not null check (channel_type in ('bank', 'momo')),
        unique (country_code, channel_type, code)
      );`);
    this.addSql(`
      create table fx_quote (
        id text primary key,
        merchant_id uuid not null references merchant(id) on delete cascade,
        source_currency text not null,
        destination_currency text not null,
        source_amount numeric not null check (source_amount > 0),
        destination_amount numeric not null check (destination_amount > 0),
        rate numeric not null check (rate > 0),
        fee numeric not null check (fee >= 0),
        created_at timestamptz not null,
        expires_at timestamptz not null
      );`);
    this.addSql(`create index fx_quote_merchant_id_index on fx_quote (merchant_id);`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists fx_quote;');
    this.addSql('drop table if exists network;');
    this.addSql('drop table if exists channel;');
    this.addSql('drop table if exists country;');
    this.addSql('drop table if exists currency;');
  }
}
