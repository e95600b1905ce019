import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 38: payouts to the merchant's own account. A payout moves money as a transaction of the new kind `payout`
 * (the engine's routing, breaker, reconciliation and books, like a transfer); its own row says what it settles:
 *
 * - `window_key`: an automatic payout's schedule window (the local date of its cut-off), unique per merchant and
 *   currency, so a window pays out once however many runs (or crashed runs) reach it; null for a manual payout.
 * - `after_seq`, `through_seq`: the balance transactions an automatic payout settles, (after_seq, through_seq] of the
 *   merchant's currency, less the automatic payouts' own debits (docs/payouts.md).
 * - `carried_in`, `carried_out`: what an earlier window left unpaid (available could not cover it), and what this one
 *   leaves: Σ net of its balance transactions + carried_in − carried_out = amount, to the minor unit.
 * - `transaction_id`: its money movement, set once the transaction is written (null: claimed, not yet sent).
 */
export class Migration20261207020000_payouts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`do $$ declare name text; begin
  for name in select conname from pg_constraint where contypid = 'transaction_kind'::regtype loop
    execute format('alter domain transaction_kind drop constraint %I', name);
  end loop;
end $$;`);
    this.addSql(
      `alter domain transaction_kind add constraint transaction_kind_check check (value in ('collection', 'transfer', 'payment', 'refund', 'payout'));`,
    );
    this.addSql(`alter table merchant_fee drop constraint merchant_fee_kind_check;`);
    this.addSql(`alter table merchant_fee add constraint merchant_fee_kind_check check (kind in ('collection', 'transfer', 'payment', 'payout'));`);
    this.addSql(`
      create table payout (
        id text primary key,
        merchant_id uuid not null references merchant (id) on delete cascade,
        currency char(3) not null,
        amount numeric not null check (amount > 0),
        automatic boolean not null,
        window_key text null,
        after_seq bigint null,
        through_seq bigint null,
        carried_in numeric not null default 0,
        carried_out numeric not null default 0,
        destination_id text not null,
        transaction_id uuid null unique,
        transaction_reference text null unique,
        canceled_reason text null,
        expected_arrival_at timestamptz not null,
        created_at timestamptz not null,
        check (automatic = (window_key is not null)),
        check (automatic = (through_seq is not null))
      );`);
    this.addSql(`create unique index payout_window_index on payout (merchant_id, currency, window_key) where window_key is not null;`);
    this.addSql(`create index payout_merchant_index on payout (merchant_id, created_at desc, id desc);`);
    this.addSql(`create index payout_range_index on payout (merchant_id, currency, through_seq desc) where automatic;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table payout;`);
    this.addSql(`delete from merchant_fee where kind = 'payout';`);
    this.addSql(`alter table merchant_fee drop constraint merchant_fee_kind_check;`);
    this.addSql(`alter table merchant_fee add constraint merchant_fee_kind_check check (kind in ('collection', 'transfer', 'payment'));`);
    this.addSql(`delete from "transaction" where kind = 'payout';`);
    this.addSql(`alter domain transaction_kind drop constraint transaction_kind_check;`);
    this.addSql(`alter domain transaction_kind add constraint transaction_kind_check check (value in ('collection', 'transfer', 'payment', 'refund'));`);
  }
}
