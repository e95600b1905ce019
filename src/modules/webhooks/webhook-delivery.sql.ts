import { TEST_EVENT_TYPE } from '../outbox/event-types';
import type { EventFollowUpsSql } from '../outbox/outbox';
import { serviceNowSql } from './webhook-dispatcher';

/**
 * The webhooks' part of the outbox's statement (the outbox is given it at the composition root):
 * an event's delivery row, written with the event, and only when the merchant has an endpoint; an
 * event of a merchant without one stays in the event log, unattempted (CONTRACT §8). The row is the
 * queue item (WebhookPump picks it; no job is written): the statement says, in `outbox_dv_due`, that a
 * delivery became due, and the caller's `wakeIfDue` after the commit wakes this instance's pump.
 * No statement of its own: CTEs of the state change's one statement.
 *
 * A test event's first attempt is made within its request (WebhookService.sendTestEvent), whose answer shows how
 * the endpoint answered: its delivery falls due for the pump only once that attempt could be over (its timeout,
 * and the claim's margin), should that process die first, instead of racing the request to the claim. (A request
 * that finds no slot for it makes it due at once.)
 */
/** How long after its request's attempt could have timed out a test event's delivery falls due for the pump. */
const TEST_EVENT_FALLBACK_MARGIN_MS = 5_000;

export function webhookDeliverySql(timeoutMs: number): EventFollowUpsSql {
  const testEventDelayS = (timeoutMs + TEST_EVENT_FALLBACK_MARGIN_MS) / 1000;
  return (params, event, recorded) => {
    const now = recorded.createdAt;
    const ev = recorded.cte;
    const test = event.type === TEST_EVENT_TYPE;
    const due = test ? `${serviceNowSql(now)} + make_interval(secs => ${params.p(testEventDelayS)})` : now;
    return {
      ctes: [
        `outbox_dv as (
          insert into webhook_delivery (event_id, merchant_id, status, attempt_count, next_attempt_at, created_at, updated_at)
          select ${ev}.id, ${ev}.merchant_id, 'pending', 0, ${due}, ${now}, ${now}
          from ${ev} join merchant on merchant.id = ${ev}.merchant_id
          where merchant.webhook_url is not null
          returning event_id)`,
        `outbox_dv_due as (select 1 from outbox_dv${test ? ' where false' : ''} limit 1)`,
      ],
      selects: ['outbox_dv_due'],
    };
  };
}
