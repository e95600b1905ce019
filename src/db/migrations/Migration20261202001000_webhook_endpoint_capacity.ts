import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 34 (H1): one merchant's slow endpoint must not hold up anyone else.
 * - `webhook_endpoint_slot`: the deliveries in flight to one merchant's endpoint, one row per slot
 *   (WEBHOOK_ENDPOINT_CONCURRENCY of them, made on the endpoint's first delivery; one not known to be
 *   prompt is offered only the first WEBHOOK_SLOW_ENDPOINT_CONCURRENCY). A claim takes a
 *   free slot with FOR UPDATE SKIP LOCKED, so the cap holds across instances; a slot is a lease
 *   (`held_until`), so one held by a killed process frees itself.
 * - `webhook_endpoint`: the endpoint's health. `prompt_until`: it answered within WEBHOOK_SLOW_MS
 *   lately, so all its slots are offered; otherwise (new, slow, silent) only the first
 *   WEBHOOK_SLOW_ENDPOINT_CONCURRENCY. And its circuit. Consecutive unanswered attempts; once they reach
 *   WEBHOOK_CIRCUIT_FAILURES the circuit opens until `open_until` (doubling with each reopening,
 *   `openings`), then lets one attempt through; an answer closes it.
 * - A delivery waits for its endpoint simply by staying due and unclaimed: nothing is written when a
 *   job finds no slot. The statement that finishes an attempt claims the endpoint's longest-due
 *   delivery on the slot it frees (`webhook_delivery_due_index` finds it); a sweep wakes those that
 *   a worker's death, a killed slot holder or a circuit's end left due for more than a few seconds
 *   (`webhook_delivery.woken_at`: when it last did, so that it wakes each at most every few seconds).
 */
export class Migration20261202001000_webhook_endpoint_capacity extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table webhook_endpoint_slot (
        merchant_id uuid not null references merchant(id) on delete cascade,
        slot smallint not null,
        event_id text null,
        held_until timestamptz null,
        primary key (merchant_id, slot)
      );`);
    this.addSql(`
      create table webhook_endpoint (
        merchant_id uuid primary key references merchant(id) on delete cascade,
        failures int not null default 0,
        openings int not null default 0,
        open_until timestamptz null,
        prompt_until timestamptz null,
        updated_at timestamptz not null
      );`);
    this.addSql(`alter table webhook_delivery add column woken_at timestamptz null;`);
    this.addSql(`create index webhook_delivery_due_index on webhook_delivery (merchant_id, next_attempt_at) where status = 'pending';`);
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists webhook_delivery_due_index;');
    this.addSql('alter table webhook_delivery drop column if exists woken_at;');
    this.addSql('drop table if exists webhook_endpoint;');
    this.addSql('drop table if exists webhook_endpoint_slot;');
  }
}
