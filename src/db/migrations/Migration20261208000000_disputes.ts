import { Migration } from '@mikro-orm/migrations';

/** The statuses in which a dispute still waits for an outcome (at most one such dispute per payment). */
const OPEN = `('warning_needs_response', 'warning_under_review', 'needs_response', 'under_review')`;

/**
 * Issue 39: disputes and chargebacks (docs/disputes.md, docs/ledger.md).
 * - Two more merchant accounts per currency: `disputed` (a hold, as Flutterwave's lien: the disputed amount and the
 *   dispute fee while a chargeback is open; never below zero) and `receivable` (what the merchant owes the platform when
 *   available could not cover a hold: a debit-normal account, TigerBeetle's `credits_must_not_exceed_credits`'s mirror
 *   `credits_must_not_exceed_debits`, so it never goes below zero either).
 * - The lines' trigger creates a merchant's five accounts at once, counts `receivable` in the merchant's balance (a
 *   balance transaction's `balance_after` is available + pending − what is owed), and repays a debt first: an entry
 *   that credits available while the merchant owes moves what it can from available to receivable in the same
 *   statement, under the same locks (entry type `debt_repayment`, key `<entry id>:repay`).
 * - A payment counts what its chargeback holds or took (`disputed_amount`): refunds and disputes together stay within
 *   the amount captured (one CHECK), and no refund is claimed while a chargeback is open (`dispute_open`).
 * - The dispute itself, and `dispute` prices in merchant_fee.
 */
export class Migration20261208000000_disputes extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table ledger_account drop constraint ledger_account_code_check;`);
    this.addSql(`
      alter table ledger_account add constraint ledger_account_code_check check (code in
        ('available', 'pending', 'reserved', 'disputed', 'receivable', 'fee_revenue', 'fx_position', 'provider_clearing', 'sandbox_funding', 'external_funds'));`);
    this.addSql(`alter table ledger_account drop constraint ledger_account_merchant_owned;`);
    this.addSql(`
      alter table ledger_account add constraint ledger_account_merchant_owned
        check ((merchant_id is not null) = (code in ('available', 'pending', 'reserved', 'disputed', 'receivable')));`);
    this.addSql(`alter table ledger_account drop constraint ledger_account_no_overdraft;`);
    this.addSql(`
      alter table ledger_account add constraint ledger_account_no_overdraft check (not no_overdraft or
        case when code = 'receivable' then credits_posted <= debits_posted else debits_posted <= credits_posted end);`);

    this.addSql(`
      create or replace function ledger_post_lines() returns trigger language plpgsql as $$
      declare
        r record;
        repay_entry bigint;
      begin
        -- 1. Every entry balances in each currency.
        if exists (select 1 from new_lines group by entry_id, currency having sum(amount) <> 0) then
          raise exception 'a ledger entry does not balance in each currency' using errcode = '23514', constraint = 'ledger_entry_balanced';
        end if;
        -- 2. Missing accounts: a merchant's five at once, so the balance read below can lock all of them.
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
          from new_lines l cross join (values ('available'), ('pending'), ('reserved'), ('disputed'), ('receivable')) c(code)
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
        -- 4. Running totals, refused by ledger_account_no_overdraft below zero (receivable: above what is owed).
        update ledger_account a
           set debits_posted = a.debits_posted + s.debits, credits_posted = a.credits_posted + s.credits
          from (select account_id, sum(greatest(-amount, 0)) as debits, sum(greatest(amount, 0)) as credits
                from new_lines where split_part(account_id, ':', 1) = 'm' group by account_id) s
         where a.id = s.account_id;
        -- 5. The merchant's balance transactions: every entry that changes available + pending − what is owed.
        insert into balance_transaction (entry_id, merchant_id, currency, type, amount, fee, net, balance_after, source_reference, created_at)
        select d.entry_id, d.merchant_id, d.currency, e.type, d.net + e.fee, e.fee, d.net,
               (select sum(a.credits_posted - a.debits_posted) from ledger_account a
                 where a.merchant_id = d.merchant_id and a.currency = d.currency and a.code in ('available', 'pending', 'receivable'))
               - coalesce(sum(d.net) over (partition by d.merchant_id, d.currency order by d.entry_id desc rows between unbounded preceding and 1 preceding), 0),
               e.source_reference, clock_timestamp()
        from (
          select l.entry_id, split_part(l.account_id, ':', 2)::uuid as merchant_id, l.currency, sum(l.amount) as net
          from new_lines l
          where split_part(l.account_id, ':', 1) = 'm' and split_part(l.account_id, ':', 3) in ('available', 'pending', 'receivable')
          group by 1, 2, 3
          having sum(l.amount) <> 0
        ) d
        join ledger_entry e on e.id = d.entry_id
        order by d.entry_id;
        -- 6. Debt first (issue 39): money credited to available while the merchant owes the platform repays it, here,
        --    under the locks taken above. The repayment's own lines come back through this trigger (depth 2), which
        --    repays nothing further.
        if pg_trigger_depth() = 1 then
          for r in
            select c.merchant_id, c.currency, c.entry_id,
                   least(av.credits_posted - av.debits_posted, rc.debits_posted - rc.credits_posted) as amount
            from (
              select split_part(l.account_id, ':', 2)::uuid as merchant_id, l.currency, max(l.entry_id) as entry_id
              from new_lines l
              where split_part(l.account_id, ':', 1) = 'm' and split_part(l.account_id, ':', 3) = 'available' and l.amount > 0
              group by 1, 2
            ) c
            join ledger_account rc on rc.id = 'm:' || c.merchant_id || ':receivable:' || c.currency and rc.debits_posted > rc.credits_posted
            join ledger_account av on av.id = 'm:' || c.merchant_id || ':available:' || c.currency
            order by c.merchant_id, c.currency
          loop
            continue when r.amount <= 0;
            insert into ledger_entry (key, merchant_id, transaction_id, leg, type, source_reference, fee, description, created_at)
            select r.entry_id || ':repay', r.merchant_id, null, 'repay', 'debt_repayment', e.source_reference, 0,
                   'Repays what the merchant owes (a dispute available could not cover)', clock_timestamp()
            from ledger_entry e where e.id = r.entry_id
            returning id into repay_entry;
            insert into ledger_line (entry_id, account_id, currency, amount) values
              (repay_entry, 'm:' || r.merchant_id || ':available:' || r.currency, r.currency, -r.amount),
              (repay_entry, 'm:' || r.merchant_id || ':receivable:' || r.currency, r.currency, r.amount);
          end loop;
        end if;
        return null;
      end $$;`);

    // A payment's chargebacks: what they hold or took, and whether one is open (refunds wait).
    this.addSql(`
      alter table "transaction"
        add column disputed_amount numeric not null default 0,
        add column dispute_open boolean not null default false;`);
    this.addSql(`alter table "transaction" drop constraint transaction_refunded_within_amount;`);
    this.addSql(`
      alter table "transaction" add constraint transaction_refunded_within_amount check (
        refunded_amount >= 0 and disputed_amount >= 0 and (amount is null or refunded_amount + disputed_amount <= amount));`);

    this.addSql(`alter table merchant_fee drop constraint merchant_fee_kind_check;`);
    this.addSql(`alter table merchant_fee add constraint merchant_fee_kind_check check (kind in ('collection', 'transfer', 'payment', 'payout', 'dispute'));`);

    this.addSql(`
      create table dispute (
        id text primary key,
        merchant_id uuid not null references merchant (id) on delete cascade,
        payment_id uuid not null references "transaction" (id),
        payment_reference text not null,
        provider text not null,
        provider_dispute_id text null,
        amount numeric not null check (amount > 0),
        currency char(3) not null,
        fee numeric not null default 0 check (fee >= 0),
        reason text not null,
        status text not null check (status in ('warning_needs_response', 'warning_under_review', 'warning_closed',
          'needs_response', 'under_review', 'won', 'lost', 'prevented')),
        provider_status text null,
        evidence jsonb not null default '{}'::jsonb,
        evidence_due_by timestamptz null,
        reminders_sent smallint not null default 0,
        submission_count int not null default 0,
        funds text not null default 'none' check (funds in ('none', 'held', 'reinstated', 'withdrawn')),
        closed_reason text null,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        closed_at timestamptz null,
        constraint dispute_provider_unique unique (provider, provider_dispute_id)
      );`);
    this.addSql(`create index dispute_merchant_index on dispute (merchant_id, created_at desc, id desc);`);
    this.addSql(`create index dispute_payment_index on dispute (payment_id);`);
    this.addSql(`create unique index dispute_open_per_payment on dispute (payment_id) where status in ${OPEN};`);
    // The sandbox's always-disputed test card: its charges are disputed by the dispute sweep.
    this.addSql(`alter table sandbox_card_charge add column disputed boolean not null default false;`);
    this.addSql(`create index sandbox_card_charge_disputed_index on sandbox_card_charge (idempotency_key) where disputed;`);
    this.addSql(`create index dispute_due_index on dispute (evidence_due_by) where status in ('needs_response', 'warning_needs_response');`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table dispute;`);
    this.addSql(`alter table sandbox_card_charge drop column disputed;`);
    this.addSql(`delete from merchant_fee where kind = 'dispute';`);
    this.addSql(`alter table merchant_fee drop constraint merchant_fee_kind_check;`);
    this.addSql(`alter table merchant_fee add constraint merchant_fee_kind_check check (kind in ('collection', 'transfer', 'payment', 'payout'));`);
    this.addSql(`alter table "transaction" drop constraint transaction_refunded_within_amount;`);
    this.addSql(`alter table "transaction" drop column disputed_amount, drop column dispute_open;`);
    this.addSql(`
      alter table "transaction" add constraint transaction_refunded_within_amount
        check (refunded_amount >= 0 and (amount is null or refunded_amount <= amount));`);
    // The books keep their entries; the trigger and checks of before cannot be restored over disputed or receivable accounts.
  }
}
