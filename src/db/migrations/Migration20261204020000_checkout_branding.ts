import { Migration } from '@mikro-orm/migrations';

/** Issue 37: the merchant's logo on its hosted checkout page, and the origins allowed to frame that page. */
export class Migration20261204020000_checkout_branding extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table merchant add column checkout_logo_url text null, add column checkout_embed_origins text[] not null default '{}';`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table merchant drop column checkout_logo_url, drop column checkout_embed_origins;`);
  }
}
