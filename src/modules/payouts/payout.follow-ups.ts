import type { EventFollowUpsSql } from '../outbox/outbox';
import { PayoutJob, type PayoutJobQueue } from './payout.jobs';

/**
 * The payouts module's part of every event's statement: a payout's failure adds the job that emails the merchant's
 * owners, in the failure's own statement (so it is never lost to a crash), whether or not the merchant chose to
 * receive `payout.failed` by webhook.
 */
export function payoutFailureSql(jobs: PayoutJobQueue): EventFollowUpsSql {
  return (params, event, recorded) => {
    if (event.type !== 'payout.failed') return { ctes: [], selects: [] };
    const payoutId = event.payload.id;
    if (typeof payoutId !== 'string') return { ctes: [], selects: [] };
    const guard = `outbox_po as (select 1 ${recorded.guard ? `from ${recorded.guard}` : ''})`;
    const job = jobs.jobsSql(params, [{ name: PayoutJob.NotifyFailed, payload: { merchantId: event.merchantId, payoutId } }], 'outbox_po', 'outbox_po');
    return { ctes: [guard, ...job.ctes], selects: job.selects };
  };
}
