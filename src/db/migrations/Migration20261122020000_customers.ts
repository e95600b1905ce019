import { Migration } from '@mikro-orm/migrations';

export class Migration20261122020000_customers extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table customer (
        id uuid primary key,
        merchant_id uuid not null references merchant(id) on delete cascade,
        customerid text not null,
        first_name text not null,
        last_name text not null,
        email text not null,
        phone_number text not null,
        dial_code text not null,
        country_code char(2) not null,
        date_of_birth date null,
        kyc_status text not null check (kyc_status in ('pending_kyc', 'pending', 'approved', 'rejected')),
        created_at timestamptz not null,
        updated_at timestamptz not null,
        -- The merchant's own id is unique per merchant: a constraint, so concurrent enrollments cannot both win.
        constraint customer_merchant_customerid_unique unique (merchant_id, customerid)
      );`);
    // Newest-first keyset paging per merchant.
    this.addSql(`create index customer_merchant_created_index on customer (merchant_id, created_at desc, id desc);`);
    this.addSql(`
      create table kyc_submission (
        id uuid primary key,
        customer_id uuid not null references customer(id) on delete cascade,
        merchant_id uuid not null references merchant(id) on delete cascade,
        id_type text not null,
        id_number_sealed text not null,
        id_number_last4 text not null,
        id_country char(2) not null,
        date_of_birth date not null,
        address jsonb not null,
        status text not null check (status in ('pending', 'approved', 'rejected')),
        rejection_reason text null,
        submitted_at timestamptz not null,
        reviewed_at timestamptz null
      );`);
    this.addSql(`create index kyc_submission_customer_index on kyc_submission (customer_id, submitted_at desc);`);
    // Transactional outbox: every state change writes its event in the same transaction.
    // The webhook dispatcher delivers from here.
    this.addSql(`
      create table outbox_event (
        id text primary key,
        merchant_id uuid not null references merchant(id) on delete cascade,
        type text not null,
        subject_id text not null,
        payload jsonb not null,
        created_at timestamptz not null
      );`);
    this.addSql(`create index outbox_event_merchant_created_index on outbox_event (merchant_id, created_at desc, id desc);`);
    this.addSql(`create index outbox_event_subject_index on outbox_event (subject_id);`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists outbox_event;');
    this.addSql('drop table if exists kyc_submission;');
    this.addSql('drop table if exists customer;');
  }
}
