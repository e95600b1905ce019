import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 41: a merchant funds its own balance. A funding is a transaction of the new kind `funding`: an account to pay
 * into (a provider's virtual account, as a bank collection's), credited to `available` when the money arrives
 * (docs/ledger.md). Its columns are the transaction table's own; only the kind's domain widens.
 */
export class Migration20261212000000_funding extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter domain transaction_kind drop constraint transaction_kind_check;`);
    this.addSql(
      `alter domain transaction_kind add constraint transaction_kind_check check (value in ('collection', 'transfer', 'payment', 'refund', 'payout', 'funding'));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "transaction" where kind = 'funding';`);
    this.addSql(`alter domain transaction_kind drop constraint transaction_kind_check;`);
    this.addSql(
      `alter domain transaction_kind add constraint transaction_kind_check check (value in ('collection', 'transfer', 'payment', 'refund', 'payout'));`,
    );
  }
}
