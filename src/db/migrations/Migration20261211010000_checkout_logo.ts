import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 37: the merchant's logo is served by this service, from its own origin (docs/checkout.md, "The merchant's
 * logo"), not fetched by the payer's browser from an address the merchant gave: the checkout page makes no
 * third-party request, and its CSP allows images from 'self' only. The bytes (a PNG or JPEG, checked by content, at
 * most 50 KiB) are kept here, one logo per merchant; `sha256` is their hex digest, the logo's public name
 * (`/checkout/logos/{sha256}`, cached as immutable). The logo addresses merchants gave before (`checkout_logo_url`)
 * are dropped: a merchant uploads its image instead.
 */
export class Migration20261211010000_checkout_logo extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table checkout_logo (
        merchant_id uuid primary key references merchant (id) on delete cascade,
        sha256 char(64) not null check (sha256 ~ '^[0-9a-f]{64}$'),
        content_type text not null check (content_type in ('image/png', 'image/jpeg')),
        content bytea not null check (octet_length(content) between 1 and 51200),
        created_at timestamptz not null
      );`);
    this.addSql(`create index checkout_logo_sha256_index on checkout_logo (sha256);`);
    this.addSql(`alter table merchant drop column checkout_logo_url;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table merchant add column checkout_logo_url text null;`);
    this.addSql('drop table if exists checkout_logo;');
  }
}
