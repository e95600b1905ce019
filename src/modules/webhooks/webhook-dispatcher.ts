import type { PaymentsEnv } from '../../config';
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

/** The attempt asked for is being made by another job (the caller need not make it). */
export class AttemptTakenElsewhere extends Error {}

/** How long a claim outlives the attempt's timeout. */
const CLAIM_MARGIN_MS = 5_000;

/** Opened webhook secrets, keyed by their sealed form: a rotation changes the key, so an entry is never stale. */
const OPENED_SECRETS_MAX = 10_000;

/** What WebhookDispatcher is built with (the composition root passes it). */
export interface WebhookDispatcherDeps {
  sql: Sql;
  clock: Clock;
  jobs: WebhookJobQueue;
  secretBox: SecretBox;
  settings: { env: PaymentsEnv; timeoutMs: number; schedule: number[] };
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
    // Claim the attempt, record it as started (before anything is sent: the log never shows fewer
    // sends than the receiver saw), close an earlier attempt a dead process left unfinished, and
    // read what the send needs: one statement.
    const [delivery] = await this.deps.sql.query<PendingDelivery>(
      `with claimed as (
         update webhook_delivery set claimed_until = now() + make_interval(secs => $2)
         where event_id = $1 and status = 'pending' and (claimed_until is null or claimed_until < now())
           and ($3::int is null or attempt_count + 1 = $3::int)
         returning event_id, merchant_id, attempt_count),
       interrupted as (
         update webhook_attempt set finished_at = $4, error = $5
         where event_id = $1 and finished_at is null and exists (select 1 from claimed)),
       started as (
         insert into webhook_attempt (event_id, merchant_id, attempt_number, url, attempted_at)
         select c.event_id, c.merchant_id, c.attempt_count + 1, m.webhook_url, $4 from claimed c join merchant m on m.id = c.merchant_id
         returning id)
       select e.id, e.merchant_id as "merchantId", e.type, e.created_at as "createdAt", e.payload::text as payload,
              c.attempt_count as "attemptCount", (select id from started)::text as "attemptId", m.webhook_url as "webhookUrl",
              m.webhook_secret_sealed as "secretSealed", m.previous_webhook_secrets as "previousSecrets"
       from claimed c join outbox_event e on e.id = c.event_id join merchant m on m.id = c.merchant_id`,
      [eventId, (this.deps.settings.timeoutMs + CLAIM_MARGIN_MS) / 1000, attempt ?? null, this.deps.clock.now(), INTERRUPTED],
      'webhook_claim_delivery',
    );
    if (!delivery) return this.notClaimed(eventId, attempt);
    const attemptNumber = delivery.attemptCount + 1;

    let result: SendResult;
    if (!delivery.webhookUrl) {
      result = { statusCode: null, latencyMs: 0, error: 'no webhook endpoint is configured' };
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
    ];
    const retry = this.deps.jobs.jobsSql(
      params,
      status === 'pending' ? [{ name: WebhookJob.DeliverWebhook, payload: { eventId, attempt: attemptNumber + 1 }, delayMs: delay }] : [],
      'd',
      'retry',
    );
    ctes.push(...retry.ctes);
    const selects = retry.selects;
    const [row] = await this.deps.sql.query<Record<string, unknown>>(
      `with ${ctes.join(',\n')} select (select count(*) from d) as d${selects.length ? `, ${runSelects(selects)}` : ''}`,
      params.values,
    );
    this.deps.jobs.wakeIfDue(row, selects);
    this.deps.observeAttempt?.(status === 'pending' ? 'retry_scheduled' : status, delivery.webhookUrl ? result.latencyMs / 1000 : null);
    if (status === 'failed') this.deps.logger.warn({ eventId, merchantId: delivery.merchantId, attempts: attemptNumber }, 'webhook delivery failed for good');
  }

  /**
   * The attempt was not claimed: delivered, failed for good, fenced off (made
   * already), or claimed by another job. Only the last is worth waiting for: the
   * job fails and is retried with backoff, so if the claimer died the attempt is
   * still made once its claim lapses.
   */
  private async notClaimed(eventId: string, attempt: number | undefined): Promise<void> {
    const [row] = await this.deps.sql.query<{ status: string; attemptCount: number; claimed: boolean }>(
      'select status, attempt_count as "attemptCount", claimed_until > now() as claimed from webhook_delivery where event_id = $1',
      [eventId],
    );
    if (row?.status === 'pending' && row.claimed && (attempt === undefined || attempt === row.attemptCount + 1)) {
      throw new AttemptTakenElsewhere(`delivery attempt ${row.attemptCount + 1} of ${eventId} is being made by another worker`);
    }
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
