import type { EventFollowUpsSql } from '../outbox/outbox';
import { CheckoutJob, type CheckoutJobQueue } from './checkout.jobs';

/**
 * The checkout module's part of every event's statement: a successful payment made on a checkout
 * page (its payload names `checkout_session_id`) adds the job that completes the session, in the same
 * statement as the payment's status change, so a session is never left open behind a successful
 * payment (a crash between the two cannot happen). Guarded by the change itself, not by the event's
 * row: a merchant who chose not to receive `payment.successful` still has its session completed.
 */
export function checkoutCompletionSql(jobs: CheckoutJobQueue): EventFollowUpsSql {
  return (params, event, recorded) => {
    if (event.type !== 'payment.successful') return { ctes: [], selects: [] };
    const sessionId = event.payload.checkout_session_id;
    if (typeof sessionId !== 'string' || sessionId === '') return { ctes: [], selects: [] };
    const guard = `outbox_cs as (select 1 ${recorded.guard ? `from ${recorded.guard}` : ''})`;
    const job = jobs.jobsSql(
      params,
      [{ name: CheckoutJob.CompleteSession, payload: { sessionId, transactionReference: event.subjectId } }],
      'outbox_cs',
      'outbox_cs',
    );
    return { ctes: [guard, ...job.ctes], selects: job.selects };
  };
}
