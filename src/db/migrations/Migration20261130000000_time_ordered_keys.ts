import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 22: time-ordered keys for the rows every posting writes. `balance_transaction.id` came from
 * `gen_random_uuid()`, so each insert landed on a random page of its primary-key index, and after a
 * checkpoint nearly every one wrote a full-page image to the WAL (bench/wal-keys.sh). `uuid_v7()`
 * (RFC 9562) puts the time in milliseconds first: new entries go to the end of the index. The
 * service makes its own keys the same way (shared/crypto.ts: transaction ids, references, event ids).
 */
export class Migration20261130000000_time_ordered_keys extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create function uuid_v7() returns uuid language sql volatile parallel safe as $$
        -- A random UUID with its first 48 bits replaced by the time in ms, and its version nibble set from 4 to 7.
        select encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
                 placing substring(int8send(floor(extract(epoch from clock_timestamp()) * 1000)::bigint) from 3) from 1 for 6),
               52, 1), 53, 1), 'hex')::uuid
      $$;`);
    this.addSql(`alter table balance_transaction alter column id set default uuid_v7();`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table balance_transaction alter column id set default gen_random_uuid();`);
    this.addSql(`drop function uuid_v7();`);
  }
}
