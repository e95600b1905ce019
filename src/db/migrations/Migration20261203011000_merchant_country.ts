import { Migration } from '@mikro-orm/migrations';

/** Issue 36, sign-up: the country a merchant's business gave when it signed up (null for merchants an operator made). */
export class Migration20261203011000_merchant_country extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table merchant add column country text null;');
  }

  override async down(): Promise<void> {
    this.addSql('alter table merchant drop column country;');
  }
}
