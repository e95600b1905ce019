import { Migration } from '@mikro-orm/migrations';

/**
 * The engine of issue #8: rows are written before the provider is called
 * (`initiating`), background work moves from pg-boss to graphile-worker (whose
 * schema is installed before these migrations run), and the sandbox provider
 * keeps its virtual accounts by idempotency key.
 */
export class Migration20261122050000_engine extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "transaction" drop constraint transaction_status_check;`);
    this.addSql(`
      alter table "transaction" add constraint transaction_status_check
        check (status in ('initiating', 'processing', 'successful', 'failed', 'expired'));`);
    // Reconciliation looks only for rows a crash left initiating: a tiny partial index.
    this.addSql(`create index transaction_initiating_index on "transaction" (created_at) where status = 'initiating';`);
    // The sandbox provider's memory: one virtual account per idempotency key, as a real provider's idempotency would give.
    this.addSql(`
      create table sandbox_virtual_account (
        idempotency_key text primary key,
        account_number text not null unique default nextval('sandbox_virtual_account_seq')::text
      );`);
    // Job worker instances and their heartbeats: a live instance releases the jobs of a dead one.
    this.addSql(`create table job_worker_instance (pool_id text primary key, heartbeat_at timestamptz not null);`);
    // Work in flight under pg-boss continues under graphile-worker, derived from the durable state itself.
    this.addSql(`
      select graphile_worker.add_job('settle-transaction', json_build_object('transactionId', id), job_key => 'settle-transaction:' || id)
      from "transaction" where status = 'processing' and not (kind = 'collection' and account_type = 'bank');`);
    this.addSql(`
      select graphile_worker.add_job('expire-collection', json_build_object('transactionId', id), run_at => expires_at, job_key => 'expire-collection:' || id)
      from "transaction" where status = 'processing' and kind = 'collection' and account_type = 'bank';`);
    this.addSql(`
      select graphile_worker.add_job('deliver-webhook', json_build_object('eventId', event_id), run_at => next_attempt_at, job_key => 'deliver:' || event_id)
      from webhook_delivery where status = 'pending';`);
    this.addSql(`
      select graphile_worker.add_job('kyc-review', json_build_object('submissionId', id), job_key => 'kyc-review:' || id)
      from kyc_submission where status = 'pending';`);
    this.addSql(`drop schema if exists pgboss cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists job_worker_instance;');
    this.addSql('drop table if exists sandbox_virtual_account;');
    this.addSql('drop index if exists transaction_initiating_index;');
    this.addSql(`delete from "transaction" where status = 'initiating';`);
    this.addSql(`alter table "transaction" drop constraint transaction_status_check;`);
    this.addSql(`alter table "transaction" add constraint transaction_status_check check (status in ('processing', 'successful', 'failed', 'expired'));`);
  }
}
