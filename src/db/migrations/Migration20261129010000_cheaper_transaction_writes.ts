import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 22: what each write to `transaction` costs PostgreSQL besides the row and its indexes (perf on the engine
 * floor: check constraints re-read from their stored text by every statement, about 11 % of PostgreSQL's CPU per
 * initiation; foreign-key triggers, about 6 %).
 *
 * - The one-column checks (status, kind, account type, payment method) become domains. A domain's check is compiled
 *   once per connection and cached; a table's check constraint is re-parsed by every INSERT and UPDATE. The values
 *   allowed are the same. The two-column check on refunds stays a table constraint.
 * - The foreign keys from `transaction` to `merchant` and `customer` go. Each INSERT ran two lookups with row locks
 *   for them. Their rows are never deleted (a merchant is disabled, a customer is kept with its KYC record), and the
 *   service writes a transaction only for the authenticated merchant and a customer it has just read as that
 *   merchant's, in the same request. Every other foreign key stays.
 */
export class Migration20261129010000_cheaper_transaction_writes extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create domain transaction_status as text check (value in ('initiating', 'processing', 'requires_action', 'successful', 'failed', 'expired'));`,
    );
    this.addSql(`create domain transaction_kind as text check (value in ('collection', 'transfer', 'payment', 'refund'));`);
    this.addSql(`create domain transaction_account_type as text check (value in ('bank', 'momo'));`);
    this.addSql(`create domain transaction_payment_method as text check (value = 'card');`);
    this.addSql(`alter table "transaction"
      drop constraint transaction_status_check,
      drop constraint transaction_kind_check,
      drop constraint transaction_account_type_check,
      drop constraint transaction_payment_method_check,
      drop constraint transaction_merchant_id_fkey,
      drop constraint transaction_customer_id_fkey;`);
    this.addSql(`alter table "transaction"
      alter column status type transaction_status,
      alter column kind type transaction_kind,
      alter column account_type type transaction_account_type,
      alter column payment_method type transaction_payment_method;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "transaction"
      alter column status type text,
      alter column kind type text,
      alter column account_type type text,
      alter column payment_method type text;`);
    this.addSql(`drop domain transaction_status, transaction_kind, transaction_account_type, transaction_payment_method;`);
    this.addSql(`alter table "transaction"
      add constraint transaction_status_check check (status in ('initiating', 'processing', 'requires_action', 'successful', 'failed', 'expired')),
      add constraint transaction_kind_check check (kind in ('collection', 'transfer', 'payment', 'refund')),
      add constraint transaction_account_type_check check (account_type in ('bank', 'momo')),
      add constraint transaction_payment_method_check check (payment_method = 'card'),
      add constraint transaction_merchant_id_fkey foreign key (merchant_id) references merchant (id) on delete cascade,
      add constraint transaction_customer_id_fkey foreign key (customer_id) references customer (id);`);
  }
}
