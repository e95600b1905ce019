import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 39: `ledger:verify` checks every debt repayment (docs/ledger.md, Verification). They are a small share of the
 * entries: a partial index finds them (all of them for the whole check, those above a mark for the periodic one)
 * without reading the others. An entry of another type is not in it, so the postings' inserts keep their cost.
 */
export class Migration20261211000000_debt_repayment_index extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index ledger_entry_debt_repayment_index on ledger_entry (id) where type = 'debt_repayment';`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index ledger_entry_debt_repayment_index;`);
  }
}
