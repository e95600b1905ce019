import { Migration } from '@mikro-orm/migrations';

/**
 * The KYC review queue (issue #10): in production no rule decides, operators do.
 * A decision records who made it; the queue reads pending submissions oldest first.
 */
export class Migration20261122070100_kyc_review extends Migration {
  override async up(): Promise<void> {
    // Decisions made before this migration were all the sandbox rule's.
    this.addSql(`alter table kyc_submission add column reviewed_by text null;`);
    this.addSql(`update kyc_submission set reviewed_by = 'reviewer:sandbox' where status <> 'pending';`);
    this.addSql(`
      alter table kyc_submission
        add constraint kyc_submission_reviewed_by_length check (char_length(reviewed_by) <= 200),
        add constraint kyc_submission_rejection_reason_length check (char_length(rejection_reason) <= 500),
        -- A decided submission says when and by whom; a rejected one why.
        add constraint kyc_submission_decision_recorded check (
          status = 'pending' or (reviewed_at is not null and reviewed_by is not null and (status <> 'rejected' or rejection_reason is not null))
        );`);
    // The queue, oldest first: only pending rows are indexed, so the index stays as small as the queue.
    this.addSql(`create index kyc_submission_pending_index on kyc_submission (submitted_at, id) where status = 'pending';`);
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists kyc_submission_pending_index;');
    this.addSql(`
      alter table kyc_submission
        drop constraint if exists kyc_submission_decision_recorded,
        drop constraint if exists kyc_submission_rejection_reason_length,
        drop constraint if exists kyc_submission_reviewed_by_length,
        drop column if exists reviewed_by;`);
  }
}
