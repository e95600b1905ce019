import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 22: half the database work per initiation.
 *
 * - The first history entry of a transaction (no status → its status after the provider's first answer) is kept on
 *   the row, written by the same HOT update that records the answer, instead of a `transaction_event` row with two
 *   index entries and a foreign-key check. Later changes still write `transaction_event` rows. The view
 *   `transaction_history` gives both as one history, in order (`seq` 0 is the first entry); rows written before
 *   this migration have their first entry in `transaction_event` and none on the row.
 * - `virtual_account_number` is unique only where it is set (bank collections): the other kinds no longer add a
 *   null entry to that index.
 */
export class Migration20261129001000_initiation_on_row extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "transaction"
      add column initiated_status text,
      add column initiated_reason text,
      add column initiated_at timestamptz;`);
    this.addSql(`create view transaction_history as
      select 0::bigint as seq, t.id as transaction_id, null::text as from_status, t.initiated_status as to_status,
             t.initiated_reason as reason, t.initiated_at as occurred_at
        from "transaction" t where t.initiated_status is not null
      union all
      select e.id, e.transaction_id, e.from_status, e.to_status, e.reason, e.occurred_at from transaction_event e;`);
    this.addSql(`alter table "transaction" drop constraint transaction_virtual_account_number_key;`);
    this.addSql(
      `create unique index transaction_virtual_account_number_key on "transaction" (virtual_account_number) where virtual_account_number is not null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index transaction_virtual_account_number_key;`);
    this.addSql(`alter table "transaction" add constraint transaction_virtual_account_number_key unique (virtual_account_number);`);
    this.addSql(`insert into transaction_event (transaction_id, from_status, to_status, reason, occurred_at)
      select id, null, initiated_status, initiated_reason, initiated_at from "transaction" where initiated_status is not null;`);
    this.addSql(`drop view transaction_history;`);
    this.addSql(`alter table "transaction" drop column initiated_status, drop column initiated_reason, drop column initiated_at;`);
  }
}
