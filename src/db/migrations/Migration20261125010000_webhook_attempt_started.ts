import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 18: an attempt is recorded before its POST leaves, and finished afterwards, so the
 * attempt log never shows fewer sends than the receiver saw (a process killed mid-send left
 * no row). An attempt not yet finished has no outcome (`success`, `latency_ms` null,
 * `finished_at` null): in flight, or, once the next claim of its event finds it so,
 * interrupted (`error` says so; the event is sent again under the same webhook-id).
 */
export class Migration20261125010000_webhook_attempt_started extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table webhook_attempt
        alter column latency_ms drop not null,
        alter column success drop not null,
        add column finished_at timestamptz null;`);
    // Every attempt recorded so far was recorded once finished.
    this.addSql(`update webhook_attempt set finished_at = attempted_at + make_interval(secs => latency_ms / 1000.0);`);
  }

  override async down(): Promise<void> {
    this.addSql(`delete from webhook_attempt where finished_at is null or success is null;`);
    this.addSql(`alter table webhook_attempt drop column finished_at, alter column latency_ms set not null, alter column success set not null;`);
  }
}
