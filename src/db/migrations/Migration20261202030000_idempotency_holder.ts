import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 34: which instance holds an Idempotency-Key's claim (its job runner's id in
 * `job_worker_instance`). A claim whose holder has stopped heartbeating died with it (kill -9) and
 * is taken over by a retry at once, instead of after the lock timeout (idempotency.store.ts).
 * Claims made before this migration have none, and keep the lock timeout.
 */
export class Migration20261202030000_idempotency_holder extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table idempotency_key add column holder text null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table idempotency_key drop column if exists holder;`);
  }
}
