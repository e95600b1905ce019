import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 38, point 5: reconciliation with the providers (docs/reconciliation.md). A run compares one connector's
 * transactions of one window (a UTC day) with the provider's records; its items are what it found, one per
 * transaction or record. One run per connector and window (the unique key): a second instance's daily job, or a
 * rerun of a completed day, finds it and does nothing; a failed run is replaced. The run writes only these two tables.
 */
export class Migration20261207030000_reconciliation extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table reconciliation_run (
        id uuid primary key,
        connector text not null,
        window_from timestamptz not null,
        window_to timestamptz not null,
        status text not null check (status in ('running', 'completed', 'failed')),
        matched integer not null default 0,
        amount_mismatch integer not null default 0,
        status_mismatch integer not null default 0,
        missing_at_provider integer not null default 0,
        missing_here integer not null default 0,
        in_flight integer not null default 0,
        balance_mismatch integer not null default 0,
        -- Per currency: our clearing balance, the provider's, the difference, and how each moved since the last run.
        clearing jsonb not null default '[]',
        started_at timestamptz not null,
        finished_at timestamptz null,
        error text null,
        constraint reconciliation_run_once unique (connector, window_from)
      );`);
    this.addSql(`create index reconciliation_run_started_index on reconciliation_run (started_at desc, id desc);`);
    this.addSql(`
      create table reconciliation_item (
        id uuid primary key,
        run_id uuid not null references reconciliation_run(id) on delete cascade,
        class text not null check (class in ('matched', 'amount_mismatch', 'status_mismatch', 'missing_at_provider', 'missing_here', 'in_flight', 'balance_mismatch')),
        transaction_id uuid null,
        transaction_reference text null,
        kind text null,
        provider_reference text null,
        currency char(3) null,
        our_amount numeric null,
        our_currency char(3) null,
        our_status text null,
        their_amount numeric null,
        their_currency char(3) null,
        their_status text null,
        resolved_at timestamptz null,
        resolved_by text null,
        resolution_note text null
      );`);
    this.addSql(`create index reconciliation_item_run_index on reconciliation_item (run_id, id);`);
    // The open exceptions (the metric, the runs' lists): few, so a partial index keeps them cheap to count.
    this.addSql(`
      create index reconciliation_item_open_index on reconciliation_item (run_id)
      where resolved_at is null and class not in ('matched', 'in_flight');`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists reconciliation_item;');
    this.addSql('drop table if exists reconciliation_run;');
  }
}
