import { Migration } from '@mikro-orm/migrations';

/** Operators can disable a merchant (issue #10): its tokens are revoked and no new ones are issued. */
export class Migration20261122071000_merchant_disable extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table merchant add column disabled_at timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table merchant drop column if exists disabled_at;`);
  }
}
