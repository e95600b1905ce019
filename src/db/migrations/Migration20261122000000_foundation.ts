import { Migration } from '@mikro-orm/migrations';

export class Migration20261122000000_foundation extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table merchant (
        id uuid primary key,
        name text not null,
        client_id text not null unique,
        client_secret_hash text not null,
        webhook_secret_sealed text not null,
        webhook_url text null,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );`);
    this.addSql(`
      create table token_family (
        id uuid primary key,
        merchant_id uuid not null references merchant(id) on delete cascade,
        created_at timestamptz not null,
        revoked_at timestamptz null,
        revoked_reason text null
      );`);
    this.addSql(`create index token_family_merchant_id_index on token_family (merchant_id);`);
    this.addSql(`
      create table refresh_token (
        id uuid primary key,
        family_id uuid not null references token_family(id) on delete cascade,
        merchant_id uuid not null references merchant(id) on delete cascade,
        token_hash text not null unique,
        created_at timestamptz not null,
        expires_at timestamptz not null,
        used_at timestamptz null
      );`);
    this.addSql(`create index refresh_token_family_id_index on refresh_token (family_id);`);
    // Append-only feed of revoked families, read by sequence so every instance can
    // catch up on revocations without comparing clocks.
    this.addSql(`
      create table token_revocation (
        seq bigserial primary key,
        family_id uuid not null,
        revoked_at timestamptz not null
      );`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists token_revocation;');
    this.addSql('drop table if exists refresh_token;');
    this.addSql('drop table if exists token_family;');
    this.addSql('drop table if exists merchant;');
  }
}
