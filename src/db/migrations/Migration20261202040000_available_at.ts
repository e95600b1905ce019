import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 35 (the recipe "Add a field", docs/architecture.md): when a successful collection's or payment's
 * net becomes available in the merchant's balance (the end of its settlement delay, when ReleaseFunds
 * moves it from pending to available). Null for other kinds and until then. Rows settled before this
 * migration keep null: their release time was never recorded, and guessing it would state what we do
 * not know.
 */
export class Migration20261202040000_available_at extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "transaction" add column available_at timestamptz;');
  }

  override async down(): Promise<void> {
    this.addSql('alter table "transaction" drop column available_at;');
  }
}
