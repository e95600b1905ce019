import type { PaymentsEnv } from '../../config';
import type { JobsSql } from '../../jobs/job-queue';
import type { PreviousWebhookSecret } from '../merchants/merchant.entity';
import { Params, type Sql } from '../../db/sql';
import { runSelects } from '../../jobs/job-queue';
import type { Clock } from '../../shared/clock';
import type { SecretBox } from '../../shared/crypto';
import type { Logger } from '../../shared/logger';
import { postWebhook, type SendResult } from './http-sender';
import { retryDelay } from './retry-schedule';
import { webhookHeaders } from './signing';
import { WebhookJob, type WebhookJobQueue } from './webhook.jobs';

/** What one attempt needs, read in one statement. */
interface PendingDelivery {
  id: string;
  merchantId: string;
  type: string;
  createdAt: Date;
  /** The payload as PostgreSQL prints the jsonb: spliced into the body without parsing it. */
  payload: string;
  attemptCount: number;
  /** The attempt's row, written by the claim before the POST leaves. */
  attemptId: string;
  /** The endpoint's slot this attempt holds (webhook_endpoint_slot). */
  slot: number;
  /** The endpoint's consecutive unanswered attempts before this one (its circuit). */
  circuitFailures: number;
  webhookUrl: string | null;
  secretSealed: string;
  previousSecrets: PreviousWebhookSecret[];
}

/** The webhook body (CONTRACT §8): the event with the full record as the status endpoint returns it. */
function webhookBody(event: { id: string; type: string; createdAt: Date }, payloadJson: string): string {
  return `{"id":${JSON.stringify(event.id)},"type":${JSON.stringify(event.type)},"created_at":"${event.createdAt.toISOString()}","data":${payloadJson}}`;
}

/** What an attempt led to: delivered (final), failed (final: the retry schedule is spent), or another attempt scheduled. */
type WebhookAttemptOutcome = 'delivered' | 'retry_scheduled' | 'failed';

/**
 * Told of each attempt once it is recorded (the metrics): its outcome, and how long
 * the POST took in seconds (null when none was sent: no endpoint is configured).
 */
export type WebhookAttemptObserver = (outcome: WebhookAttemptOutcome, requestSeconds: number | null) => void;

/** What an attempt left unfinished by a dead process says, once the next claim of its event finds it. */
export const INTERRUPTED = 'interrupted: the sending process stopped before the answer was recorded; the event is sent again';

/** How long a claim outlives the attempt's timeout. */
const CLAIM_MARGIN_MS = 5_000;

/** Opened webhook secrets, keyed by their sealed form: a rotation changes the key, so an entry is never stale. */
const OPENED_SECRETS_MAX = 10_000;

/** How many deliveries one endpoint takes at once, and when its circuit opens (config: WebhookCapacityConfig). */
export interface EndpointCapacity {
  perEndpoint: number;
  circuitFailures: number;
  circuitOpenS: number;
  circuitMaxOpenS: number;
}

/** A delivery waiting this long for its endpoint is woken by the sweep (a lost wake-up, a killed slot holder, a circuit's end). */
const WAITING_GRACE_S = 5;
/** Waiting deliveries the sweep wakes at most per tick. */
const SWEEP_BATCH = 500;

/** What WebhookDispatcher is built with (the composition root passes it). */
export interface WebhookDispatcherDeps {
  sql: Sql;
  clock: Clock;
  jobs: WebhookJobQueue;
  secretBox: SecretBox;
  settings: { env: PaymentsEnv; timeoutMs: number; schedule: number[]; capacity: EndpointCapacity };
  logger: Logger;
  observeAttempt?: WebhookAttemptObserver;
}

/**
 * Delivers outbox events, one attempt per job. At-least-once: an attempt whose
 * worker dies is run again (same webhook-id) once its instance is known dead.
 * Each attempt is recorded; a failure schedules the next attempt on the retry
 * schedule (with jitter) until the schedule is spent, then the delivery is failed.
 * Each attempt is written before its POST leaves and finished after it, so the log never
 * shows fewer sends than the receiver saw, even when the process is killed mid-send.
 * An attempt is claimed before it is sent (a lease a little longer than its
 * timeout), so two jobs for one attempt (a resend and a scheduled retry, or a job
 * released from an instance thought dead) never both send it. Two statements per
 * attempt: claim, start the attempt and read; then one write (attempt, delivery, next job).
 */
export class WebhookDispatcher {
  private readonly opened = new Map<string, string>();

  constructor(private readonly deps: WebhookDispatcherDeps) {}

  /** One attempt. `attempt` (from the job) fences it: a job for an attempt already made (a resend overtook a scheduled retry) does nothing. */
  async deliver(eventId: string, attempt?: number): Promise<void> {
    let claim = await this.claim(eventId, attempt);
    if (claim.kind === 'endpoint-new') {
      // The endpoint's first delivery (or a raised WEBHOOK_ENDPOINT_CONCURRENCY): its slots are made once, then claimed.
      await this.deps.sql.query('insert into webhook_endpoint_slot (merchant_id, slot) select $1, generate_series(0, $2::int - 1) on conflict do nothing', [
        claim.merchantId,
        this.deps.settings.capacity.perEndpoint,
      ]);
      claim = await this.claim(eventId, attempt);
    }
    if (claim.kind === 'gone') return this.notClaimed(eventId, attempt);
    // Waiting: its endpoint's slots are all in flight, or its circuit is open. The attempt that frees a
    // slot (or the sweep, once the circuit lets one through) wakes it; nothing to retry here.
    if (claim.kind !== 'claimed') return;
    const delivery = claim.delivery;
    const attemptNumber = delivery.attemptCount + 1;

    let result: SendResult;
    if (!delivery.webhookUrl) {
      result = { statusCode: null, latencyMs: 0, error: 'no webhook endpoint is configured', unanswered: false };
    } else {
      const body = webhookBody(delivery, delivery.payload);
      // webhook-timestamp is wall-clock time: receivers check it against their own clocks.
      const headers = webhookHeaders(this.signingSecrets(delivery), delivery.id, new Date(), body);
      result = await postWebhook(delivery.webhookUrl, body, headers, this.deps.settings.env, this.deps.settings.timeoutMs);
    }
    const success = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    const now = this.deps.clock.now();
    const delay = success ? undefined : retryDelay(this.deps.settings.schedule, attemptNumber);
    const status = success ? 'delivered' : delay === undefined ? 'failed' : 'pending';

    const params = new Params();
    const ctes = [
      `d as (
        update webhook_delivery
        set attempt_count = ${params.p(attemptNumber)}, status = ${params.p(status)}, updated_at = ${params.p(now)}, claimed_until = null,
            delivered_at = ${params.p(success ? now : null)}::timestamptz,
            next_attempt_at = ${params.p(delay === undefined ? null : new Date(now.getTime() + delay))}::timestamptz
        where event_id = ${params.p(eventId)} and status = 'pending' and attempt_count = ${params.p(delivery.attemptCount)}
        returning event_id, merchant_id)`,
      // The attempt was sent, whatever became of the delivery meanwhile: its row is finished in any case.
      `a as (
        update webhook_attempt
        set status_code = ${params.p(result.statusCode)}::int, latency_ms = ${params.p(Math.round(result.latencyMs))}::int,
            success = ${params.p(success)}::boolean, error = ${params.p(success ? null : (result.error ?? `HTTP ${result.statusCode}`))}::text,
            finished_at = ${params.p(now)}::timestamptz
        where id = ${params.p(delivery.attemptId)}::bigint)`,
      ...this.endpointAfterAttemptSql(params, delivery, eventId, result.unanswered ? false : result.statusCode !== null ? true : null),
    ];
    const retry = this.deps.jobs.jobsSql(
      params,
      status === 'pending' ? [{ name: WebhookJob.DeliverWebhook, payload: { eventId, attempt: attemptNumber + 1 }, delayMs: delay }] : [],
      'd',
      'retry',
    );
    const woken = this.wakeSql(params, 'woken');
    ctes.push(...retry.ctes, ...woken.ctes);
    const selects = [...retry.selects, ...woken.selects];
    const [row] = await this.deps.sql.query<Record<string, unknown>>(
      `with ${ctes.join(',\n')} select (select count(*) from d) as d, ${runSelects(selects)}`,
      params.values,
    );
    this.deps.jobs.wakeIfDue(row, selects);
    this.deps.observeAttempt?.(status === 'pending' ? 'retry_scheduled' : status, delivery.webhookUrl ? result.latencyMs / 1000 : null);
    if (status === 'failed') this.deps.logger.warn({ eventId, merchantId: delivery.merchantId, attempts: attemptNumber }, 'webhook delivery failed for good');
  }

  /**
   * Claims the attempt and one of its endpoint's slots, records the attempt as started (before
   * anything is sent: the log never shows fewer sends than the receiver saw), closes an earlier
   * attempt a dead process left unfinished, and reads what the send needs: one statement. With
   * every slot in flight, or the endpoint's circuit open, the delivery is marked waiting instead.
   *
   * Slots are rows taken with FOR UPDATE SKIP LOCKED, so the cap per endpoint holds across
   * instances; each is a lease as long as the claim, so one held by a killed process frees itself.
   * The circuit: open (`open_until` ahead) lets nothing through; tripped but past `open_until`
   * (half-open) lets one attempt through, on slot 0 only.
   */
  private async claim(
    eventId: string,
    attempt: number | undefined,
  ): Promise<{ kind: 'claimed'; delivery: PendingDelivery } | { kind: 'waiting' } | { kind: 'endpoint-new'; merchantId: string } | { kind: 'gone' }> {
    const { perEndpoint, circuitFailures } = this.deps.settings.capacity;
    const rows = await this.deps.sql.query<PendingDelivery & { targetMerchantId: string; slotRows: number; claimedId: string | null }>(
      `with target as (
         select event_id, merchant_id, attempt_count from webhook_delivery
         where event_id = $1 and status = 'pending' and (claimed_until is null or claimed_until < now())
           and ($3::int is null or attempt_count + 1 = $3::int)),
       circuit as (
         select failures, open_until from webhook_endpoint where merchant_id = (select merchant_id from target)),
       slot as (
         select s.merchant_id, s.slot from webhook_endpoint_slot s
         where s.merchant_id = (select merchant_id from target) and s.slot < $6
           and (s.held_until is null or s.held_until < now())
           and not exists (select 1 from circuit where open_until > now())
           and (s.slot = 0 or not exists (select 1 from circuit where failures >= $7))
         order by s.slot limit 1 for update skip locked),
       claimed as (
         update webhook_delivery w set claimed_until = now() + make_interval(secs => $2), waiting_since = null
         from slot
         where w.event_id = $1 and w.status = 'pending' and (w.claimed_until is null or w.claimed_until < now())
           and ($3::int is null or w.attempt_count + 1 = $3::int)
         returning w.event_id, w.merchant_id, w.attempt_count, slot.slot),
       held as (
         update webhook_endpoint_slot s set event_id = c.event_id, held_until = now() + make_interval(secs => $2)
         from claimed c where s.merchant_id = c.merchant_id and s.slot = c.slot),
       parked as (
         update webhook_delivery w set waiting_since = now()
         where w.event_id = $1 and w.waiting_since is null and exists (select 1 from target) and not exists (select 1 from slot)),
       interrupted as (
         update webhook_attempt set finished_at = $4, error = $5
         where event_id = $1 and finished_at is null and exists (select 1 from claimed)),
       started as (
         insert into webhook_attempt (event_id, merchant_id, attempt_number, url, attempted_at)
         select c.event_id, c.merchant_id, c.attempt_count + 1, m.webhook_url, $4 from claimed c join merchant m on m.id = c.merchant_id
         returning id)
       select t.merchant_id as "targetMerchantId",
              (select count(*) from webhook_endpoint_slot where merchant_id = t.merchant_id and slot < $6)::int as "slotRows",
              coalesce((select failures from circuit), 0) as "circuitFailures", d.*
       from target t left join lateral (
         select e.id as "claimedId", e.id, e.merchant_id as "merchantId", e.type, e.created_at as "createdAt", e.payload::text as payload,
                c.attempt_count as "attemptCount", c.slot, (select id from started)::text as "attemptId", m.webhook_url as "webhookUrl",
                m.webhook_secret_sealed as "secretSealed", m.previous_webhook_secrets as "previousSecrets"
         from claimed c join outbox_event e on e.id = c.event_id join merchant m on m.id = c.merchant_id) d on true`,
      [eventId, (this.deps.settings.timeoutMs + CLAIM_MARGIN_MS) / 1000, attempt ?? null, this.deps.clock.now(), INTERRUPTED, perEndpoint, circuitFailures],
      'webhook_claim_delivery',
    );
    const row = rows[0];
    if (!row) return { kind: 'gone' };
    if (row.claimedId) return { kind: 'claimed', delivery: row };
    if (row.slotRows < perEndpoint) return { kind: 'endpoint-new', merchantId: row.targetMerchantId };
    return { kind: 'waiting' };
  }

  /**
   * The endpoint's part of the attempt's finishing statement: its slot freed, its circuit told
   * whether the endpoint answered (`answered`; null when nothing was sent: no endpoint, or an address
   * the policy refused), and, unless the circuit
   * is now open, the longest-waiting deliveries woken: one for the freed slot, or every slot when
   * an answer closes a tripped circuit.
   */
  private endpointAfterAttemptSql(params: Params, delivery: PendingDelivery, eventId: string, answered: boolean | null): string[] {
    const { perEndpoint, circuitFailures, circuitOpenS, circuitMaxOpenS } = this.deps.settings.capacity;
    const merchant = `${params.p(delivery.merchantId)}::uuid`;
    const ctes = [
      `released as (
        update webhook_endpoint_slot set event_id = null, held_until = null
        where merchant_id = ${merchant} and slot = ${params.p(delivery.slot)}::smallint and event_id = ${params.p(eventId)})`,
    ];
    if (answered === true && delivery.circuitFailures > 0) {
      ctes.push(`circuit as (
        update webhook_endpoint set failures = 0, openings = 0, open_until = null, updated_at = now()
        where merchant_id = ${merchant}
        returning open_until)`);
    } else if (answered === false) {
      const tripped = `webhook_endpoint.failures + 1 >= ${params.p(circuitFailures)}::int`;
      const first = params.p(circuitFailures <= 1);
      ctes.push(`circuit as (
        insert into webhook_endpoint (merchant_id, failures, openings, open_until, updated_at)
        values (${merchant}, 1, case when ${first}::boolean then 1 else 0 end,
                case when ${first}::boolean then now() + make_interval(secs => ${params.p(circuitOpenS)}) end, now())
        on conflict (merchant_id) do update set
          failures = webhook_endpoint.failures + 1,
          openings = case when ${tripped} then webhook_endpoint.openings + 1 else webhook_endpoint.openings end,
          open_until = case when ${tripped}
            then now() + make_interval(secs => least(${params.p(circuitMaxOpenS)}::float8, ${params.p(circuitOpenS)}::float8 * power(2, webhook_endpoint.openings)))
            else webhook_endpoint.open_until end,
          updated_at = now()
        returning open_until)`);
    }
    const circuitOpen = answered === false ? `exists (select 1 from circuit where open_until > now())` : 'false';
    const wakeCount = answered === true && delivery.circuitFailures >= circuitFailures ? perEndpoint : 1;
    ctes.push(`waiting as (
        select event_id from webhook_delivery
        where merchant_id = ${merchant} and waiting_since is not null and status = 'pending' and event_id <> ${params.p(eventId)}
          and not ${circuitOpen}
        order by waiting_since, event_id limit ${params.p(wakeCount)}::int for update skip locked)`);
    ctes.push(`woken as (
        update webhook_delivery w set waiting_since = null from waiting
        where w.event_id = waiting.event_id
        returning w.event_id, w.attempt_count)`);
    return ctes;
  }

  /** A delivery job for each row of the CTE `from` (event_id, attempt_count): its next attempt, due now. */
  private wakeSql(params: Params, from: string): JobsSql {
    return this.deps.jobs.jobsFromRowsSql(
      params,
      WebhookJob.DeliverWebhook,
      `json_build_object('eventId', ${from}.event_id, 'attempt', ${from}.attempt_count + 1)`,
      from,
      `${from}_job`,
    );
  }

  /**
   * Wakes deliveries left waiting for their endpoint more than a few seconds, up to the endpoint's
   * slots each, whose circuit is not open: the wake-up an attempt's end sends can miss a delivery
   * that was parking at that moment, a killed process's slot frees itself only when its lease
   * ends, and a circuit's open period ends with no attempt to notice. Run by every instance's
   * sweeps; bounded; two instances wake each delivery once (the update takes its row).
   */
  async sweepWaiting(): Promise<number> {
    const params = new Params();
    const ctes = [
      `candidates as (
        select d.event_id, row_number() over (partition by d.merchant_id order by d.waiting_since, d.event_id) as place
        from webhook_delivery d
        where d.waiting_since is not null and d.waiting_since < now() - make_interval(secs => ${params.p(WAITING_GRACE_S)})
          and d.status = 'pending' and (d.claimed_until is null or d.claimed_until < now())
          and not exists (select 1 from webhook_endpoint e where e.merchant_id = d.merchant_id and e.open_until > now())
        limit ${params.p(SWEEP_BATCH)})`,
      `swept as (
        update webhook_delivery w set waiting_since = null from candidates c
        where w.event_id = c.event_id and c.place <= ${params.p(this.deps.settings.capacity.perEndpoint)} and w.waiting_since is not null
        returning w.event_id, w.attempt_count)`,
    ];
    const jobs = this.wakeSql(params, 'swept');
    ctes.push(...jobs.ctes);
    const [row] = await this.deps.sql.query<Record<string, unknown>>(
      `with ${ctes.join(',\n')} select (select count(*) from swept)::int as swept, ${runSelects(jobs.selects)}`,
      params.values,
    );
    this.deps.jobs.wakeIfDue(row, jobs.selects);
    return Number(row?.swept ?? 0);
  }

  /**
   * The attempt was not claimed: delivered, failed for good, fenced off (made already), or
   * claimed by another job (a test event's attempt made within its request, a resend). Only
   * the last needs a look later: if its claimer died, the attempt is still made once the claim
   * lapses, by a job added for that moment (one per attempt: keyed). Nothing is thrown, so
   * nothing is logged as an error.
   */
  private async notClaimed(eventId: string, attempt: number | undefined): Promise<void> {
    const [row] = await this.deps.sql.query<{ attemptCount: number; lapsesInS: number }>(
      `select attempt_count as "attemptCount", extract(epoch from claimed_until - now())::float8 as "lapsesInS"
       from webhook_delivery where event_id = $1 and status = 'pending' and claimed_until > now()`,
      [eventId],
    );
    if (!row || (attempt !== undefined && attempt !== row.attemptCount + 1)) return;
    const next = row.attemptCount + 1;
    await this.deps.jobs.add([
      {
        name: WebhookJob.DeliverWebhook,
        payload: { eventId, attempt: next },
        delayMs: Math.ceil(row.lapsesInS * 1000) + 1000,
        key: `deliver-after-claim:${eventId}:${next}`,
      },
    ]);
  }

  /** The secrets a delivery is signed with now: the current one, and the previous one during its overlap. */
  private signingSecrets(d: PendingDelivery): string[] {
    const now = this.deps.clock.now().toISOString();
    const secrets = [this.open(d.secretSealed)];
    // ISO 8601 in UTC compares as text: each rotated-out secret signs until its own expiry.
    for (const previous of d.previousSecrets) if (previous.expiresAt > now) secrets.push(this.open(previous.sealed));
    return secrets;
  }

  private open(sealed: string): string {
    let secret = this.opened.get(sealed);
    if (secret === undefined) {
      if (this.opened.size >= OPENED_SECRETS_MAX) this.opened.clear();
      secret = this.deps.secretBox.open(sealed);
      this.opened.set(sealed, secret);
    }
    return secret;
  }
}
