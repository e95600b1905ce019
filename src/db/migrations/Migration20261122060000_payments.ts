import { Migration } from '@mikro-orm/migrations';

/**
 * Domestic card payments (issue #9). A payment is a row of the one `transaction`
 * table, created on the one creation path. Of the card it keeps only the brand,
 * the last four digits and a keyed fingerprint: the number, CVC and expiry are
 * never written anywhere (PCI DSS 3.3–3.5).
 */
export class Migration20261122060000_payments extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "transaction" drop constraint transaction_status_check;`);
    this.addSql(`
      alter table "transaction" add constraint transaction_status_check
        check (status in ('initiating', 'processing', 'requires_action', 'successful', 'failed', 'expired'));`);
    this.addSql(`
      alter table "transaction"
        add column payment_method text null check (payment_method in ('card')),
        add column card_brand text null,
        add column card_last4 char(4) null,
        add column card_fingerprint text null,
        add column redirect_url text null,
        add column description text null,
        -- The 3-D Secure page's address while the payment awaits authentication: sealed
        -- (AES-256-GCM), because its handle lets whoever holds it decide the payment.
        add column next_action_url text null;`);
    // The sandbox card processor's memory: one charge per idempotency key (the transaction's id), so
    // reconciliation after a crash learns the outcome without the card, which is never stored. For a
    // 3-D Secure charge it keeps the SHA-256 of the page handle, never the handle itself.
    this.addSql(`
      create table sandbox_card_charge (
        idempotency_key text primary key,
        provider_reference text not null,
        outcome text not null check (outcome in ('successful', 'requires_action', 'failed')),
        failure_reason text null,
        handle_hash text null unique,
        created_at timestamptz not null default now()
      );`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists sandbox_card_charge;');
    this.addSql(`delete from "transaction" where kind = 'payment';`);
    this.addSql(`
      alter table "transaction"
        drop column payment_method, drop column card_brand, drop column card_last4, drop column card_fingerprint,
        drop column redirect_url, drop column description, drop column next_action_url;`);
    this.addSql(`alter table "transaction" drop constraint transaction_status_check;`);
    this.addSql(`
      alter table "transaction" add constraint transaction_status_check
        check (status in ('initiating', 'processing', 'successful', 'failed', 'expired'));`);
  }
}
