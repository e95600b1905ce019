import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 37: domestic payments by mobile money and bank transfer, and the hosted checkout's link to them.
 * - A payment's method may be `momo` or `bank_transfer` besides `card`.
 * - A payment made on a checkout page names its session. At most one payment of a session is in flight or
 *   successful at any moment: `checkout_claim` (the session id while the payment is in flight or successful, else
 *   null) is unique, so two payers (or two tabs) racing on one session never both pay. A failed or expired attempt
 *   gives its claim up, and the payer may try again.
 */
/** The domain's check, whatever PostgreSQL named it when the domain was made. */
const dropDomainChecks = `do $$
declare name text;
begin
  for name in select conname from pg_constraint where contypid = 'transaction_payment_method'::regtype loop
    execute format('alter domain transaction_payment_method drop constraint %I', name);
  end loop;
end $$;`;

export class Migration20261204000000_domestic_methods extends Migration {
  override async up(): Promise<void> {
    this.addSql(dropDomainChecks);
    this.addSql(`alter domain transaction_payment_method add constraint transaction_payment_method_check check (value in ('card', 'momo', 'bank_transfer'));`);
    this.addSql(`alter table "transaction" add column checkout_session_id text null;`);
    // The claim is a stored generated column, so the index's predicate names no other column: a status change of any
    // other transaction leaves every indexed value as it was and stays a HOT update (transaction.store.ts relies on it).
    this.addSql(`alter table "transaction" add column checkout_claim text generated always as (
        case when status in ('initiating', 'processing', 'requires_action', 'successful') then checkout_session_id end) stored;`);
    this.addSql(`create unique index transaction_checkout_session_attempt_key on "transaction" (checkout_claim) where checkout_claim is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index transaction_checkout_session_attempt_key;`);
    this.addSql(`alter table "transaction" drop column checkout_claim, drop column checkout_session_id;`);
    this.addSql(dropDomainChecks);
    this.addSql(`alter domain transaction_payment_method add constraint transaction_payment_method_check check (value = 'card');`);
  }
}
