import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 34: a locked FX quote serves one transfer. `used_by` is the transaction that consumed it,
 * set by that transaction's insert statement (transaction.store.ts) only while it is null: of two
 * transfers racing on one quote, the second finds it set and inserts nothing. Quotes made before
 * this migration have expired long since (60 s), so none needs filling in.
 */
export class Migration20261202020000_single_use_quotes extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table fx_quote add column used_by uuid null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table fx_quote drop column if exists used_by;`);
  }
}
