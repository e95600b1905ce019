import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 24: the transaction list's `search` finds a customer of the merchant by email, case-insensitively
 * (emails are kept as enrolled). References need nothing new: `reference` is unique and
 * (merchant_id, external_reference) is the merchant's unique constraint, and `customer_id` is indexed.
 */
export class Migration20261201020000_transaction_search extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index customer_merchant_email_index on customer (merchant_id, lower(email));`);
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists customer_merchant_email_index;');
  }
}
