import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 34 (L6): the per-transaction cap on kept provider notifications, as a counter. Each insert
 * used to read the count itself, so concurrent ones all saw room (150 at once kept 103 with a cap of
 * 100). Now the statement that keeps a notification first takes a slot here, with an upsert whose
 * `where kept < cap` PostgreSQL re-checks on the row's latest version under its row lock: concurrent
 * statements take slots one after another, and no more than the cap are ever taken. Status queries
 * recorded by the service (`method` QUERY) are not notifications and take no slot.
 */
export class Migration20261202034000_notification_cap extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table provider_notification_tally (
        transaction_id uuid primary key references "transaction" (id) on delete cascade,
        kept integer not null
      );`);
    this.addSql(`
      insert into provider_notification_tally (transaction_id, kept)
      select transaction_id, count(*) from provider_notification where method <> 'QUERY' group by transaction_id;`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table provider_notification_tally;');
  }
}
