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
    // Transactions between their insert and the provider's answer (normally milliseconds), so that
    // reconciliation finds what a crash left behind without an index on status: an index on status
    // (even a partial one) would make every status change update all the table's indexes, where
    // without one PostgreSQL can update the row in place (HOT). Free space on each page is kept for
    // those in-place updates. The table stays tiny; no foreign key (its rows live as long as the
    // statement pair that adds and removes them, and the key check would cost every initiation).
    this.addSql(`create table transaction_initiation (transaction_id uuid primary key, created_at timestamptz not null);`);
    this.addSql(`alter table "transaction" set (fillfactor = 80);`);
    // The sandbox provider's memory: one virtual account per idempotency key, as a real provider's idempotency would give.
    this.addSql(`
      create table sandbox_virtual_account (
        idempotency_key text primary key,
        account_number text not null unique default nextval('sandbox_virtual_account_seq')::text
      );`);
    // A delivery attempt is claimed before it is sent, so two jobs for one attempt (a resend and a
    // scheduled retry) never both send it; a claim outlives the attempt's timeout only briefly.
    this.addSql(`alter table webhook_delivery add column claimed_until timestamptz null;`);
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
    this.addSql('alter table webhook_delivery drop column if exists claimed_until;');
    this.addSql('drop table if exists sandbox_virtual_account;');
    this.addSql('drop table if exists transaction_initiation;');
    this.addSql('alter table "transaction" reset (fillfactor);');
    this.addSql(`delete from "transaction" where status = 'initiating';`);
    this.addSql(`alter table "transaction" drop constraint transaction_status_check;`);
    this.addSql(`alter table "transaction" add constraint transaction_status_check check (status in ('processing', 'successful', 'failed', 'expired'));`);
  }
}
