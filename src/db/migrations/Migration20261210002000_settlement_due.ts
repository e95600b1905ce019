import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 40: a settlement (the provider's status query, a sandbox decision) is a row of `settlement_due`, claimed in
 * batches by SettlementPump, instead of a `settle-transaction` job each (inserted, locked and deleted in
 * graphile-worker's table of 4 indexes, and each next poll a new job).
 *
 * Not a column of `transaction` under a partial index, as the issue suggested: `transaction` has 8 indexes, and
 * both updates on a transaction's way (the provider's answer, the final status) are HOT today. A due time in an
 * index would change on both, so each would write a new entry in all 8 indexes. Here: a narrow row per
 * transaction being settled (its primary key and the due index), written in the answer's own statement, its lease
 * (`claimed_until`, unindexed, and `claimed_by`, the instance holding it: a dead instance's claims are taken over
 * once it stops heartbeating) a HOT update, deleted once the transaction is decided. Half of each page is left
 * free for those updates, and it is vacuumed as the other churning tables are (every 200 dead rows).
 *
 * Jobs queued before this migration become rows (the earliest run time and the latest poll of each transaction's
 * jobs), and are deleted. Down: the reverse.
 */
export class Migration20261210002000_settlement_due extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table settlement_due (
      transaction_id uuid primary key,
      due_at timestamptz not null,
      poll integer not null default 0,
      claimed_until timestamptz null,
      claimed_by text null
    ) with (fillfactor = 50, autovacuum_vacuum_threshold = 200, autovacuum_vacuum_scale_factor = 0, autovacuum_analyze_threshold = 200, autovacuum_analyze_scale_factor = 0);`);
    this.addSql('create index settlement_due_due_index on settlement_due (due_at);');
    this.addSql(`insert into settlement_due (transaction_id, due_at, poll)
      select (j.payload->>'transactionId')::uuid, min(j.run_at), max(coalesce((j.payload->>'poll')::int, 0))
      from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
      where t.identifier = 'settle-transaction'
      group by 1;`);
    this.addSql(
      `delete from graphile_worker._private_jobs where task_id in (select id from graphile_worker._private_tasks where identifier = 'settle-transaction');`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      `select graphile_worker.add_job('settle-transaction', json_build_object('transactionId', transaction_id, 'poll', poll), run_at => due_at)
       from settlement_due;`,
    );
    this.addSql('drop table if exists settlement_due;');
  }
}
