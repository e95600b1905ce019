import { Migration } from '@mikro-orm/migrations';

/** Issue 38: whether a transfer's beneficiary_name is checked against the name the provider resolves (on by default). */
export class Migration20261206000000_name_check extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table merchant add column name_check boolean not null default true;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table merchant drop column name_check;`);
  }
}
