import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 21, sandbox parity: a refund can fail, as a real processor's can. The sandbox's charge
 * keeps whether its refunds fail (its test card says so); the card itself is never kept.
 */
export class Migration20261128000000_sandbox_refunds extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table sandbox_card_charge add column refunds_fail boolean not null default false;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table sandbox_card_charge drop column refunds_fail;`);
  }
}
