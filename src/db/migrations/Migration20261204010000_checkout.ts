import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 37: hosted checkout sessions and payment links.
 * - A session's id is its key on the public page (`cs_` + time-ordered bytes, then ≥ 12 random ones): unguessable.
 * - The merchant's reference is unique per merchant among sessions (its attempts' references add `-N`).
 * - The expiry sweep reads open sessions by their deadline (`checkout_session_due`).
 * - A link's slug is unique across merchants: it is the link's public address (`/pay/{slug}`).
 */
export class Migration20261204010000_checkout extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table payment_link (
      id text primary key,
      merchant_id uuid not null references merchant (id),
      slug text not null unique check (slug ~ '^[a-z0-9-]{3,64}$'),
      name text not null,
      amount numeric null,
      currency text not null,
      description text null,
      payment_methods text[] null,
      collect text[] not null default '{email}',
      min_amount numeric null,
      max_amount numeric null,
      max_payments int null,
      payments_count int not null default 0,
      sessions_count int not null default 0,
      expires_at timestamptz null,
      redirect_url text null,
      active boolean not null default true,
      created_at timestamptz not null,
      deactivated_at timestamptz null);`);
    this.addSql(`create index payment_link_merchant_list on payment_link (merchant_id, created_at desc, id desc);`);
    this.addSql(`create table checkout_session (
      id text primary key,
      merchant_id uuid not null references merchant (id),
      status text not null check (status in ('open', 'complete', 'expired')),
      amount numeric not null,
      currency text not null,
      reference text not null,
      customer jsonb not null,
      payment_methods text[] null,
      redirect_url text not null,
      cancel_url text null,
      metadata jsonb null,
      description text null,
      payment_link_id text null references payment_link (id),
      attempts int not null default 0,
      transaction_id uuid null,
      expires_at timestamptz not null,
      created_at timestamptz not null,
      completed_at timestamptz null,
      expired_at timestamptz null,
      constraint checkout_session_reference_key unique (merchant_id, reference));`);
    this.addSql(`create index checkout_session_due on checkout_session (expires_at) where status = 'open';`);
    this.addSql(`create index checkout_session_link on checkout_session (payment_link_id) where payment_link_id is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table checkout_session;');
    this.addSql('drop table payment_link;');
  }
}
