import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 22: the periodic ledger check verifies what was posted since its last run, not the whole
 * ledger (docs/ledger.md, *Verification*; ledger.verify.ts).
 * - `ledger_verification`: one row per periodic run. `seen_*` are the highest ids visible when it
 *   ran (`run_at`); `settled_*` the marks below which every row was already committed (or never
 *   will be) when the run before it ran, so the run read everything above them.
 *   `checkpoint_line_id`: the mark `ledger_verified_account` holds after the run. `previous_id` is
 *   unique: two instances that verify at once cannot both advance the checkpoint.
 * - `ledger_verified_account`: each merchant account's debits and credits summed from its lines
 *   up to the latest run's `checkpoint_line_id`, so a run adds only the lines above it.
 */
export class Migration20261130001000_ledger_checkpoints extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table ledger_verification (
        id bigserial primary key,
        previous_id bigint null unique,
        run_at timestamptz not null default now(),
        seen_line_id bigint not null,
        seen_entry_id bigint not null,
        seen_balance_seq bigint not null,
        seen_event_id bigint not null,
        settled_line_id bigint not null,
        settled_entry_id bigint not null,
        settled_balance_seq bigint not null,
        settled_event_id bigint not null,
        settled_time timestamptz null,
        checkpoint_line_id bigint not null,
        problems int not null
      );`);
    this.addSql(`
      create table ledger_verified_account (
        account_id text primary key references ledger_account(id),
        debits numeric not null,
        credits numeric not null
      );`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table ledger_verified_account, ledger_verification;`);
  }
}
