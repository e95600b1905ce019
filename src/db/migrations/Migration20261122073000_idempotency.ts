import { Migration } from '@mikro-orm/migrations';

/**
 * Idempotency-Key on the REST POSTs that create something (issue #11, CONTRACT §1): one row per
 * merchant and key. While `completed_at` is null the key is claimed by a request in flight
 * (`claim_id` names that claim); once completed, the row holds the answer to replay, sealed
 * (AES-256-GCM: a payment's answer can carry a 3-D Secure link). Only a keyed hash of the request
 * (method, route, body) is kept, to tell a retry from another request under the same key.
 * A row older than 24 h counts as absent; a periodic sweep deletes it (created_at index).
 */
export class Migration20261122073000_idempotency extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table idempotency_key (
        merchant_id uuid not null references merchant(id) on delete cascade,
        idempotency_key text not null check (char_length(idempotency_key) between 1 and 255),
        fingerprint text not null,
        claim_id uuid not null,
        created_at timestamptz not null,
        completed_at timestamptz null,
        status_code smallint null,
        response_sealed text null,
        constraint idempotency_key_pkey primary key (merchant_id, idempotency_key),
        constraint idempotency_key_completed_check check ((completed_at is null) = (status_code is null) and (completed_at is null) = (response_sealed is null))
      );`);
    this.addSql(`create index idempotency_key_created_index on idempotency_key (created_at);`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists idempotency_key;');
  }
}
