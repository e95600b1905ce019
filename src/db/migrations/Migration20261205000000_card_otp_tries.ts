import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 37: Flutterwave's PIN cards. After the PIN, the cardholder enters the code the issuer sent on our page; a
 * payment takes three codes at most (CardOtpChallenges). Only the count is kept: never the code, the PIN or the card.
 */
export class Migration20261205000000_card_otp_tries extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table card_otp_try (
        transaction_id uuid primary key references "transaction"(id) on delete cascade,
        tries smallint not null check (tries >= 1)
      );`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists card_otp_try;');
  }
}
