import { Migration } from '@mikro-orm/migrations';

/**
 * Every rotated-out webhook secret keeps its own 24 h (issue #11): a list of previous
 * secrets, each with its expiry, instead of one previous secret that the next rotation
 * would overwrite.
 */
export class Migration20261122072000_webhook_secrets extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table merchant add column previous_webhook_secrets jsonb not null default '[]';`);
    this.addSql(`
      update merchant set previous_webhook_secrets = jsonb_build_array(jsonb_build_object(
        'sealed', previous_webhook_secret_sealed, 'expiresAt', to_char(previous_webhook_secret_expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))
      where previous_webhook_secret_sealed is not null and previous_webhook_secret_expires_at is not null;`);
    this.addSql(`alter table merchant drop column previous_webhook_secret_sealed, drop column previous_webhook_secret_expires_at;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table merchant add column previous_webhook_secret_sealed text null, add column previous_webhook_secret_expires_at timestamptz null;`);
    // The latest rotated-out secret survives a downgrade; older ones stop signing.
    this.addSql(`
      update merchant set previous_webhook_secret_sealed = previous_webhook_secrets -> -1 ->> 'sealed',
        previous_webhook_secret_expires_at = (previous_webhook_secrets -> -1 ->> 'expiresAt')::timestamptz
      where jsonb_array_length(previous_webhook_secrets) > 0;`);
    this.addSql(`alter table merchant drop column previous_webhook_secrets;`);
  }
}
