import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 36, team accounts (docs/access.md): people (app_user) who belong to merchants with a role
 * (membership), API keys managed by people (api_key, which takes over the merchant's one client
 * credential), invitations, single-use emailed links (user_token), 2FA recovery codes, token
 * families that say whose they are, and the append-only audit log.
 */
export class Migration20261203000000_team_accounts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table api_key (
        id uuid primary key,
        merchant_id uuid not null references merchant(id) on delete cascade,
        label text not null,
        role text not null check (role in ('developer', 'finance', 'support', 'viewer')),
        client_id text not null unique,
        client_secret_hash text not null,
        created_at timestamptz not null,
        created_by text null,
        last_used_at timestamptz null,
        revoked_at timestamptz null
      );`);
    this.addSql('create index api_key_merchant_index on api_key (merchant_id, created_at);');
    // The merchant's one credential becomes its first key, with the role every key has by default.
    this.addSql(`
      insert into api_key (id, merchant_id, label, role, client_id, client_secret_hash, created_at, created_by)
      select gen_random_uuid(), id, 'Default key', 'developer', client_id, client_secret_hash, created_at, 'operator'
        from merchant;`);
    this.addSql('alter table merchant drop column client_secret_hash;');
    this.addSql('alter table merchant add column require_two_factor boolean not null default false;');

    this.addSql(`
      create table app_user (
        id uuid primary key,
        email text not null,
        name text not null,
        password_hash text not null,
        email_verified_at timestamptz null,
        totp_secret_sealed text null,
        totp_enabled_at timestamptz null,
        totp_last_step bigint null,
        password_changed_at timestamptz not null,
        last_sign_in_at timestamptz null,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );`);
    this.addSql('create unique index app_user_email_unique on app_user (lower(email));');
    this.addSql(`
      create table membership (
        id uuid primary key,
        user_id uuid not null references app_user(id) on delete cascade,
        merchant_id uuid not null references merchant(id) on delete cascade,
        role text not null check (role in ('owner', 'admin', 'developer', 'finance', 'support', 'viewer')),
        created_at timestamptz not null,
        updated_at timestamptz not null,
        unique (user_id, merchant_id)
      );`);
    this.addSql('create index membership_merchant_index on membership (merchant_id, role);');
    this.addSql(`
      create table invitation (
        id uuid primary key,
        merchant_id uuid not null references merchant(id) on delete cascade,
        email text not null,
        role text not null check (role in ('owner', 'admin', 'developer', 'finance', 'support', 'viewer')),
        token_hash text not null unique,
        invited_by uuid null references app_user(id) on delete set null,
        created_at timestamptz not null,
        expires_at timestamptz not null,
        accepted_at timestamptz null,
        revoked_at timestamptz null
      );`);
    this.addSql('create index invitation_merchant_index on invitation (merchant_id, created_at);');
    this.addSql(`
      create table user_token (
        id uuid primary key,
        user_id uuid not null references app_user(id) on delete cascade,
        purpose text not null check (purpose in ('verify_email', 'reset_password')),
        token_hash text not null unique,
        created_at timestamptz not null,
        expires_at timestamptz not null,
        used_at timestamptz null
      );`);
    this.addSql('create index user_token_user_index on user_token (user_id, purpose);');
    this.addSql(`
      create table recovery_code (
        id uuid primary key,
        user_id uuid not null references app_user(id) on delete cascade,
        code_hash text not null,
        used_at timestamptz null
      );`);
    this.addSql('create index recovery_code_user_index on recovery_code (user_id);');

    // Whose a token family is: an API key's (client_credentials) or a person's dashboard session.
    this.addSql('alter table token_family add column api_key_id uuid null references api_key(id) on delete cascade;');
    this.addSql('alter table token_family add column user_id uuid null references app_user(id) on delete cascade;');
    this.addSql('alter table token_family add column user_agent text null;');
    this.addSql('alter table token_family add column ip text null;');
    this.addSql('alter table token_family add column last_seen_at timestamptz null;');
    this.addSql('create index token_family_api_key_index on token_family (api_key_id) where api_key_id is not null;');
    this.addSql('create index token_family_user_index on token_family (user_id) where user_id is not null;');

    this.addSql(`
      create table audit_log (
        id uuid primary key,
        merchant_id uuid null references merchant(id) on delete cascade,
        actor_type text not null check (actor_type in ('user', 'api_key', 'operator', 'system')),
        actor_id text null,
        actor_label text null,
        role text null,
        action text not null,
        target_type text null,
        target_id text null,
        ip text null,
        user_agent text null,
        before jsonb null,
        after jsonb null,
        created_at timestamptz not null
      );`);
    this.addSql('create index audit_log_merchant_index on audit_log (merchant_id, created_at desc, id desc);');
    // Append-only, by the database itself: no UPDATE, DELETE or TRUNCATE (a merchant's rows go only with the merchant).
    this.addSql(`
      create function audit_log_append_only() returns trigger language plpgsql as $$
      begin
        raise exception 'audit_log is append-only: % refused', tg_op using errcode = 'insufficient_privilege';
      end $$;`);
    this.addSql(`create trigger audit_log_no_update before update or delete on audit_log for each row execute function audit_log_append_only();`);
    this.addSql(`create trigger audit_log_no_truncate before truncate on audit_log for each statement execute function audit_log_append_only();`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table audit_log;');
    this.addSql('drop function audit_log_append_only();');
    this.addSql('alter table token_family drop column api_key_id, drop column user_id, drop column user_agent, drop column ip, drop column last_seen_at;');
    this.addSql('drop table recovery_code, user_token, invitation, membership, app_user;');
    this.addSql('alter table merchant drop column require_two_factor;');
    this.addSql('alter table merchant add column client_secret_hash text;');
    this.addSql(`update merchant m set client_secret_hash = k.client_secret_hash from api_key k where k.client_id = m.client_id;`);
    this.addSql('drop table api_key;');
  }
}
