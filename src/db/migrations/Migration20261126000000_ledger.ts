import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 19: the books (docs/ledger.md). A double-entry ledger on TigerBeetle's model, enforced
 * by the database itself:
 * - `ledger_account`: one per (owner, code, currency); its id names all three
 *   (`m:<merchant>:available:NGN`, `p:fee_revenue:NGN`, `p:provider_clearing:sandbox:NGN`).
 *   A merchant's accounts are created on their first posting (all three at once) and keep running
 *   totals under TigerBeetle's `debits_must_not_exceed_credits` flag (`no_overdraft`): the CHECK
 *   refuses any posting that would take one below zero. Platform accounts have no limit and
 *   keep no running totals (their balance is the sum of their lines): a platform account is
 *   touched by every merchant's settlements, and a running total would serialise them all.
 * - `ledger_entry`: one movement, keyed once (`key`: `<transaction id>:<leg>`, or the key of a
 *   top-up or an adjustment), so a repeated posting does nothing.
 * - `ledger_line`: signed amounts (credit > 0, debit < 0). A statement trigger refuses lines whose
 *   entries do not balance in each currency, creates missing accounts, locks them in id order,
 *   updates the running totals, and writes the merchant's balance transactions.
 * Entries, lines and balance transactions are append-only: UPDATE and DELETE are refused.
 */
export class Migration20261126000000_ledger extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table ledger_account (
        id text primary key,
        merchant_id uuid null,
        code text not null check (code in ('available', 'pending', 'reserved', 'fee_revenue', 'fx_position', 'provider_clearing', 'sandbox_funding', 'external_funds')),
        currency char(3) not null,
        provider text null,
        no_overdraft boolean not null,
        debits_posted numeric not null default 0,
        credits_posted numeric not null default 0,
        created_at timestamptz not null default now(),
        constraint ledger_account_no_overdraft check (not no_overdraft or debits_posted <= credits_posted),
        constraint ledger_account_merchant_owned check ((merchant_id is not null) = (code in ('available', 'pending', 'reserved')))
      );`);
    this.addSql(`create index ledger_account_merchant_index on ledger_account (merchant_id, currency) where merchant_id is not null;`);
    this.addSql(`
      create table ledger_entry (
        id bigserial primary key,
        key text not null,
        merchant_id uuid null,
        transaction_id uuid null,
        leg text not null,
        type text not null,
        source_reference text null,
        fee numeric not null default 0,
        description text null,
        created_at timestamptz not null,
        constraint ledger_entry_key_unique unique (key)
      );`);
    this.addSql(`create index ledger_entry_transaction_index on ledger_entry (transaction_id) where transaction_id is not null;`);
    this.addSql(`
      create table ledger_line (
        id bigserial primary key,
        entry_id bigint not null references ledger_entry(id),
        account_id text not null references ledger_account(id) deferrable initially deferred,
        currency char(3) not null,
        amount numeric not null,
        constraint ledger_line_nonzero check (amount <> 0),
        constraint ledger_line_account_currency check (right(account_id, 4) = ':' || currency)
      );`);
    this.addSql(`create index ledger_line_entry_index on ledger_line (entry_id);`);
    this.addSql(`create index ledger_line_account_index on ledger_line (account_id, id);`);
    this.addSql(`
      create table balance_transaction (
        id uuid primary key default gen_random_uuid(),
        seq bigserial not null unique,
        entry_id bigint not null references ledger_entry(id),
        merchant_id uuid not null,
        currency char(3) not null,
        type text not null,
        amount numeric not null,
        fee numeric not null,
        net numeric not null,
        balance_after numeric not null,
        source_reference text null,
        -- When the balance changed, by the database's clock, read under the accounts' lock: in one
        -- merchant's currency, created_at never goes back as seq goes forward (statements cut by time).
        created_at timestamptz not null
      );`);
    this.addSql(`create index balance_transaction_merchant_index on balance_transaction (merchant_id, created_at desc, id desc);`);
    this.addSql(`create index balance_transaction_statement_index on balance_transaction (merchant_id, currency, created_at, seq);`);

    this.addSql(`
      create function ledger_append_only() returns trigger language plpgsql as $$
      begin
        raise exception '% is append-only: % is refused', tg_table_name, tg_op using errcode = '55000';
      end $$;`);
    for (const table of ['ledger_entry', 'ledger_line', 'balance_transaction']) {
      this.addSql(`create trigger ${table}_append_only before update or delete on ${table} for each row execute function ledger_append_only();`);
    }

    this.addSql(`
      create function ledger_post_lines() returns trigger language plpgsql as $$
      begin
        -- 1. Every entry balances in each currency.
        if exists (select 1 from new_lines group by entry_id, currency having sum(amount) <> 0) then
          raise exception 'a ledger entry does not balance in each currency' using errcode = '23514', constraint = 'ledger_entry_balanced';
        end if;
        -- 2. Missing accounts: a merchant's three at once, so the balance read below can lock all of them.
        insert into ledger_account (id, merchant_id, code, currency, provider, no_overdraft)
        select distinct on (acct) acct,
               case when split_part(acct, ':', 1) = 'm' then split_part(acct, ':', 2)::uuid end,
               case when split_part(acct, ':', 1) = 'm' then split_part(acct, ':', 3) else split_part(acct, ':', 2) end,
               right(acct, 3),
               case when split_part(acct, ':', 2) = 'provider_clearing' then split_part(acct, ':', 3) end,
               split_part(acct, ':', 1) = 'm'
        from (
          select l.account_id as acct from new_lines l
          union
          select 'm:' || split_part(l.account_id, ':', 2) || ':' || c.code || ':' || l.currency
          from new_lines l cross join (values ('available'), ('pending'), ('reserved')) c(code)
          where split_part(l.account_id, ':', 1) = 'm'
        ) wanted
        order by acct
        on conflict (id) do nothing;
        -- 3. Lock every merchant account touched (and its siblings, whose sum is the balance), in id order: no deadlocks.
        --    NO KEY UPDATE: other statements' foreign-key checks on these accounts (KEY SHARE) do not wait.
        perform 1 from ledger_account a
        where a.merchant_id is not null
          and (a.merchant_id, a.currency) in (select split_part(l.account_id, ':', 2)::uuid, l.currency from new_lines l where split_part(l.account_id, ':', 1) = 'm')
        order by a.id for no key update;
        -- 4. Running totals, refused by ledger_account_no_overdraft below zero.
        update ledger_account a
           set debits_posted = a.debits_posted + s.debits, credits_posted = a.credits_posted + s.credits
          from (select account_id, sum(greatest(-amount, 0)) as debits, sum(greatest(amount, 0)) as credits
                from new_lines where split_part(account_id, ':', 1) = 'm' group by account_id) s
         where a.id = s.account_id;
        -- 5. The merchant's balance transactions: every entry that changes available + pending.
        insert into balance_transaction (entry_id, merchant_id, currency, type, amount, fee, net, balance_after, source_reference, created_at)
        select d.entry_id, d.merchant_id, d.currency, e.type, d.net + e.fee, e.fee, d.net,
               (select sum(a.credits_posted - a.debits_posted) from ledger_account a
                 where a.merchant_id = d.merchant_id and a.currency = d.currency and a.code in ('available', 'pending'))
               - coalesce(sum(d.net) over (partition by d.merchant_id, d.currency order by d.entry_id desc rows between unbounded preceding and 1 preceding), 0),
               e.source_reference, clock_timestamp()
        from (
          select l.entry_id, split_part(l.account_id, ':', 2)::uuid as merchant_id, l.currency, sum(l.amount) as net
          from new_lines l
          where split_part(l.account_id, ':', 1) = 'm' and split_part(l.account_id, ':', 3) in ('available', 'pending')
          group by 1, 2, 3
          having sum(l.amount) <> 0
        ) d
        join ledger_entry e on e.id = d.entry_id
        order by d.entry_id;
        return null;
      end $$;`);
    this.addSql(
      `create trigger ledger_line_post after insert on ledger_line referencing new table as new_lines for each statement execute function ledger_post_lines();`,
    );

    // Refunds: a new kind, pointing at the payment it gives back; a payment counts what its refunds hold.
    this.addSql(`alter table "transaction" drop constraint transaction_kind_check;`);
    this.addSql(`alter table "transaction" add constraint transaction_kind_check check (kind in ('collection', 'transfer', 'payment', 'refund'));`);
    this.addSql(`
      alter table "transaction"
        add column parent_id uuid null references "transaction"(id),
        add column parent_reference text null,
        add column refunded_amount numeric not null default 0,
        add constraint transaction_refunded_within_amount check (refunded_amount >= 0 and (amount is null or refunded_amount <= amount));`);
    this.addSql(`create index transaction_parent_index on "transaction" (parent_id) where parent_id is not null;`);

    // Fee schedules: a merchant's own prices per kind (and currency, or every currency when null).
    this.addSql(`
      create table merchant_fee (
        merchant_id uuid not null references merchant(id) on delete cascade,
        kind text not null check (kind in ('collection', 'transfer', 'payment')),
        currency char(3) not null default '*',
        percent numeric not null check (percent >= 0 and percent < 100),
        fixed numeric not null check (fixed >= 0),
        updated_at timestamptz not null,
        primary key (merchant_id, kind, currency)
      );`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table merchant_fee;`);
    this.addSql(`delete from "transaction" where kind = 'refund';`);
    this.addSql(`alter table "transaction" drop column parent_id, drop column parent_reference, drop column refunded_amount;`);
    this.addSql(`alter table "transaction" drop constraint transaction_kind_check;`);
    this.addSql(`alter table "transaction" add constraint transaction_kind_check check (kind in ('collection', 'transfer', 'payment'));`);
    this.addSql(`drop table balance_transaction, ledger_line, ledger_entry, ledger_account;`);
    this.addSql(`drop function ledger_post_lines(); drop function ledger_append_only();`);
  }
}
