import type { EntityManager } from '@mikro-orm/postgresql';
import { JobName, type JobRunner } from '../../jobs/job-runner';
import { Params, executeOnOrm } from '../../db/sql';
import type { Clock } from '../../shared/clock';
import { timeOrderedBytes } from '../../shared/crypto';
import type { EventType } from './event-types';

export interface NewEvent {
  merchantId: string;
  type: EventType;
  subjectId: string;
  payload: Record<string, unknown>;
}

/** Common table expressions (and the SELECT CTEs the final SELECT must reference) that record one event. */
export interface EventSql {
  ctes: string[];
  selects: string[];
}

/** The final SELECT's columns: each SELECT CTE's row count, under its own name (`<prefix>_wake`: a job due now was added). */
export function runSelects(selects: string[]): string {
  return selects.map((s) => `(select count(*) from ${s}) as ${s}`).join(', ');
}

/**
 * The transactional outbox. An event is written in the same database transaction
 * (on the hot paths: the same statement) as the state change that causes it, with
 * its webhook delivery and the job that attempts it, or not at all. No change is
 * ever without its event, and no event is lost to a crash.
 */
export class Outbox {
  constructor(
    private readonly clock: Clock,
    private readonly jobs: JobRunner,
  ) {}

  /** A new event's id and time. */
  stamp(event: NewEvent): NewEvent & { id: string; createdAt: Date } {
    return { ...event, id: `evt_${timeOrderedBytes(16).toString('base64url')}`, createdAt: this.clock.now() };
  }

  /**
   * CTEs that record one event inside the statement making the state change.
   * `guard` names an earlier CTE: the event is written only if it returned a row
   * (the change really happened). The webhook delivery and the job that will
   * attempt it are written only when the merchant has an endpoint; an event of a
   * merchant without one stays in the event log, unattempted (CONTRACT §8).
   */
  eventSql(params: Params, event: NewEvent & { id: string; createdAt: Date }, guard?: string): EventSql {
    const now = `${params.p(event.createdAt)}::timestamptz`;
    const id = `${params.p(event.id)}::text`;
    const delivery = this.jobs.jobsSql(params, [{ name: JobName.DeliverWebhook, payload: { eventId: event.id, attempt: 1 } }], 'outbox_dv', 'outbox');
    return {
      ctes: [
        `outbox_ev as (
          insert into outbox_event (id, merchant_id, type, subject_id, payload, created_at)
          select ${id}, ${params.p(event.merchantId)}::uuid, ${params.p(event.type)}::text, ${params.p(event.subjectId)}::text, ${params.p(JSON.stringify(event.payload))}::jsonb, ${now}
          ${guard ? `from ${guard}` : ''}
          returning id, merchant_id)`,
        `outbox_dv as (
          insert into webhook_delivery (event_id, merchant_id, status, attempt_count, next_attempt_at, created_at, updated_at)
          select outbox_ev.id, outbox_ev.merchant_id, 'pending', 0, ${now}, ${now}, ${now}
          from outbox_ev join merchant on merchant.id = outbox_ev.merchant_id
          where merchant.webhook_url is not null
          returning event_id)`,
        ...delivery.ctes,
      ],
      selects: delivery.selects,
    };
  }

  /**
   * Records an event through the caller's ORM transaction (services that use the unit of work).
   * Its delivery job is added without a notification: the caller wakes the workers after its
   * commit (`JobRunner.wake`).
   */
  async record(em: EntityManager, event: NewEvent): Promise<string> {
    const stamped = this.stamp(event);
    const params = new Params();
    const sql = this.eventSql(params, stamped);
    await executeOnOrm(em, `with ${sql.ctes.join(', ')} select ${runSelects(sql.selects)}`, params.values);
    return stamped.id;
  }
}
