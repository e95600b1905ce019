import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 39, point 4: a dispute's evidence files (src/modules/disputes/files). The id is the public one (`file_…`,
 * time-ordered as the other prefixed ids). The bytes live in the row (`content`, storage 'postgres') or in S3-compatible
 * storage under `storage_key` (storage 's3', when S3_* is configured); a row says where its own bytes are, so files
 * written before a change of storage stay readable. `sha256` is the hex digest of the bytes, checked again on read.
 * A file belongs to a dispute of its own merchant, which the database holds (the key is the pair (dispute, merchant)):
 * no request can attach a file to another merchant's dispute, whatever a door forgets to check.
 */
export class Migration20261208010000_dispute_files extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table dispute add constraint dispute_id_merchant unique (id, merchant_id);`);
    this.addSql(`
      create table dispute_file (
        id text primary key,
        merchant_id uuid not null references merchant (id) on delete cascade,
        dispute_id text not null,
        filename text not null check (length(filename) between 1 and 200),
        content_type text not null check (content_type in ('application/pdf', 'image/png', 'image/jpeg')),
        size integer not null check (size > 0 and size <= 5242880),
        sha256 char(64) not null check (sha256 ~ '^[0-9a-f]{64}$'),
        storage text not null check (storage in ('postgres', 's3')),
        storage_key text null,
        content bytea null,
        created_at timestamptz not null,
        constraint dispute_file_dispute foreign key (dispute_id, merchant_id) references dispute (id, merchant_id) on delete cascade,
        -- Exactly one home for the bytes: the row, or the object store's key.
        constraint dispute_file_bytes check (
          (storage = 'postgres' and content is not null and storage_key is null)
          or (storage = 's3' and content is null and storage_key is not null)
        )
      );`);
    this.addSql(`create index dispute_file_dispute_index on dispute_file (merchant_id, dispute_id, created_at);`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists dispute_file;');
    this.addSql('alter table dispute drop constraint if exists dispute_id_merchant;');
  }
}
