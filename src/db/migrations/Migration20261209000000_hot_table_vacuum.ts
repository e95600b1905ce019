import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 40: autovacuum settings per hot table. The server's defaults (vacuum once 20 % of a table is dead
 * rows, analyze once 10 % changed) suit tables that change slowly. Ours are of two kinds:
 * - small tables updated or emptied on every request: the balances (each posting updates its accounts),
 *   the webhook endpoints' slots and circuits, the initiation markers, the job queue. A few live rows
 *   and thousands of dead versions a minute: vacuumed every 200 dead rows, whatever the table's size;
 *   the balances and slots also leave half of each page free, so an update stays on its page (HOT)
 *   and touches no index;
 * - large tables that only grow (transactions, events, deliveries and their attempts, the ledger's
 *   lines and balance transactions, idempotency keys): at 20 %, a table of 10 M rows waits for 2 M dead
 *   rows before a vacuum that then takes minutes. At 2 % (and 2 % of inserts, so that the visibility map
 *   keeps up and index-only scans stay index-only) each vacuum is small and frequent.
 * docs/operations.md ("Vacuum") lists them. Storage options only: nothing is rewritten, and the
 * fillfactor applies to pages written from now on.
 */
const CHURNING = ['ledger_account', 'webhook_endpoint_slot', 'webhook_endpoint', 'transaction_initiation', 'job_worker_instance'];
const HALF_FREE = ['ledger_account', 'webhook_endpoint_slot'];
const GROWING = [
  '"transaction"',
  'transaction_event',
  'outbox_event',
  'webhook_delivery',
  'webhook_attempt',
  'ledger_entry',
  'ledger_line',
  'balance_transaction',
  'idempotency_key',
  'audit_log',
];
/** graphile-worker's queue (0.17, pinned): jobs inserted, locked and deleted all the time. */
const QUEUE = ['graphile_worker._private_jobs', 'graphile_worker._private_job_queues'];

const CHURNING_OPTIONS =
  'autovacuum_vacuum_threshold = 200, autovacuum_vacuum_scale_factor = 0, autovacuum_analyze_threshold = 200, autovacuum_analyze_scale_factor = 0';
const GROWING_OPTIONS = 'autovacuum_vacuum_scale_factor = 0.02, autovacuum_vacuum_insert_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.02';
const RESET_OPTIONS =
  'autovacuum_vacuum_threshold, autovacuum_vacuum_scale_factor, autovacuum_analyze_threshold, autovacuum_analyze_scale_factor, autovacuum_vacuum_insert_scale_factor';

export class Migration20261209000000_hot_table_vacuum extends Migration {
  override async up(): Promise<void> {
    for (const table of [...CHURNING, ...QUEUE]) this.addSql(`alter table ${table} set (${CHURNING_OPTIONS});`);
    for (const table of HALF_FREE) this.addSql(`alter table ${table} set (fillfactor = 50);`);
    for (const table of GROWING) this.addSql(`alter table ${table} set (${GROWING_OPTIONS});`);
  }

  override async down(): Promise<void> {
    for (const table of [...CHURNING, ...QUEUE, ...GROWING]) this.addSql(`alter table ${table} reset (${RESET_OPTIONS});`);
    for (const table of HALF_FREE) this.addSql(`alter table ${table} reset (fillfactor);`);
  }
}
