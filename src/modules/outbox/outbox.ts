import type { EntityManager } from '@mikro-orm/postgresql';
import { createHash } from 'node:crypto';
import { Params, executeOnOrm } from '../../db/sql';
import { runSelects, type JobsSql } from '../../jobs/job-queue';
import type { Clock } from '../../shared/clock';
import { timeOrderedBytes } from '../../shared/crypto';
import { DEFAULT_EVENT_TYPES, TEST_EVENT_TYPE, type EventType } from './event-types';

export interface NewEvent {
  merchantId: string;
  type: EventType;
  subjectId: string;
  payload: Record<string, unknown>;
}

/** An event with its id and time (`Outbox.stamp`). */
export type StampedEvent = NewEvent & { id: string; createdAt: Date };

/** Common table expressions (and the SELECT CTEs the final SELECT must reference, `runSelects`) that record one event. */
export type EventSql = JobsSql;

/**
 * What else an event's statement writes, given by another module's factory: the webhooks module's
 * delivery row and the job that attempts it (webhooks/webhook-delivery.sql.ts). CTEs that read
 * `recorded.cte` (the event's row, `id` and `merchant_id`; none when the event was not written);
 * `recorded.createdAt` is the event's time, a parameter already bound. Their names start with
 * `outbox_`, the statement's prefix for the event's part. `recorded.guard`: the state change's CTE, for
 * a follow-up that must happen with the change even when the merchant did not choose the event's type.
 */
export type EventFollowUpsSql = (params: Params, event: StampedEvent, recorded: { cte: string; createdAt: string; guard?: string }) => EventSql;

/**
 * The transactional outbox. An event is written in the same database transaction
 * (on the hot paths: the same statement) as the state change that causes it, with
 * what follows from it (its webhook delivery and the job that attempts it), or not
 * at all. No change is ever without its event, and no event is lost to a crash.
 */
export class Outbox {
  private readonly clock: Pick<Clock, 'now'>;
  private readonly followUps: EventFollowUpsSql;

  /** `followUps`: what other modules add to an event's statement (the webhooks module's delivery row and job), in order. */
  constructor(deps: { clock: Pick<Clock, 'now'>; followUps: EventFollowUpsSql[] }) {
    this.clock = deps.clock;
    this.followUps = combineFollowUps(deps.followUps);
  }

  /**
   * A new event's id and time. `once`: the event can happen only once for its subject (a transaction
   * reaches each status once), so its id is derived from it: recorded again after a lost commit
   * (transaction.store.ts, `commitsAsynchronously`), it is the same event, with the same `webhook-id`.
   */
  stamp(event: NewEvent, once?: { key: string; at: Date }): StampedEvent {
    return {
      ...event,
      id: `evt_${(once ? derivedTimeOrderedBytes(once.key, once.at) : timeOrderedBytes(16)).toString('base64url')}`,
      createdAt: this.clock.now(),
    };
  }

  /**
   * CTEs that record one event inside the statement making the state change, with its follow-ups.
   * `guard` names an earlier CTE: the event is written only if it returned a row
   * (the change really happened). An event of a type the merchant did not choose is not written
   * (nor sent); the test event always is.
   */
  eventSql(params: Params, event: StampedEvent, guard?: string): EventSql {
    const now = `${params.p(event.createdAt)}::timestamptz`;
    const id = `${params.p(event.id)}::text`;
    const merchantId = `${params.p(event.merchantId)}::uuid`;
    const type = `${params.p(event.type)}::text`;
    const chosen =
      event.type === TEST_EVENT_TYPE
        ? ''
        : `where exists (select 1 from merchant where id = ${merchantId}
            and coalesce(${type} = any(webhook_event_types), ${params.p(DEFAULT_TYPES.has(event.type))}::boolean))`;
    const followUps = this.followUps(params, event, { cte: 'outbox_ev', createdAt: now, guard });
    return {
      ctes: [
        `outbox_ev as (
          insert into outbox_event (id, merchant_id, type, subject_id, payload, created_at)
          select ${id}, ${merchantId}, ${type}, ${params.p(event.subjectId)}::text, ${params.p(JSON.stringify(event.payload))}::jsonb, ${now}
          ${guard ? `from ${guard}` : ''} ${chosen}
          returning id, merchant_id)`,
        ...followUps.ctes,
      ],
      selects: followUps.selects,
    };
  }

  /**
   * Records an event through the caller's ORM transaction (services that use the unit of work).
   * Its delivery job is added without a notification: the caller wakes the workers after its
   * commit (`JobQueue.wake`).
   */
  async record(em: EntityManager, event: NewEvent): Promise<string> {
    const stamped = this.stamp(event);
    const params = new Params();
    const sql = this.eventSql(params, stamped);
    await executeOnOrm(em, `with ${sql.ctes.join(', ')} select ${runSelects(sql.selects)}`, params.values);
    return stamped.id;
  }
}

const DEFAULT_TYPES: ReadonlySet<string> = new Set(DEFAULT_EVENT_TYPES);

/** Several modules' follow-ups as one (their CTEs and SELECTs one after another); one alone as it is. */
function combineFollowUps(followUps: EventFollowUpsSql[]): EventFollowUpsSql {
  if (followUps.length === 1) return followUps[0]!;
  return (params, event, recorded) => {
    const parts = followUps.map((f) => f(params, event, recorded));
    return { ctes: parts.flatMap((p) => p.ctes), selects: parts.flatMap((p) => p.selects) };
  };
}

/** 16 bytes: the time (ms) in the first six, as `timeOrderedBytes`, then ten derived from `key`. */
function derivedTimeOrderedBytes(key: string, at: Date): Buffer {
  const bytes = Buffer.alloc(16);
  bytes.writeUIntBE(at.getTime(), 0, 6);
  createHash('sha256').update(key, 'utf8').digest().copy(bytes, 6, 0, 10);
  return bytes;
}
