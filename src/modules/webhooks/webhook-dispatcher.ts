import type { PaymentsEnv, WebhookCapacityConfig } from '../../config';
import type { PreviousWebhookSecret } from '../merchants/merchant.entity';
import { Params, type Sql } from '../../db/sql';
import { systemClock, type Clock } from '../../shared/clock';
import type { SecretBox } from '../../shared/crypto';
import type { Logger } from '../../shared/logger';
import { postWebhook, type SendResult } from './http-sender';
import { retryDelay } from './retry-schedule';
import { webhookBody, webhookHeaders } from './signing';

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
  /** For how much longer the endpoint counts as prompt (seconds; null or negative: it does not). */
  promptForS: number | null;
  webhookUrl: string | null;
  secretSealed: string;
  previousSecrets: PreviousWebhookSecret[];
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

/**
 * How many deliveries one endpoint takes at once (all its slots while it answers promptly; a few while it is new,
 * slow or silent: slow start, as TCP's), and when its circuit opens.
 */
type EndpointCapacity = Pick<WebhookCapacityConfig, 'perEndpoint' | 'slowPerEndpoint' | 'slowMs' | 'circuitFailures' | 'circuitOpenS' | 'circuitMaxOpenS'>;

/** How long an endpoint counts as prompt (all its slots offered) after an answer within `slowMs`. */
const PROMPT_MEMORY_S = 60;

/**
 * CTEs that record the attempt of the claimed delivery in the CTE `claimed` (event_id, merchant_id, attempt_count)
 * as started, before anything is sent (the log never shows fewer sends than the receiver saw), and close an earlier
 * attempt of it that a dead process left unfinished. `${prefix}started` returns the new attempt's id.
 */
function startAttemptSql(params: Params, claimed: string, prefix: string, now: Date): string[] {
  const at = `${params.p(now)}::timestamptz`;
  return [
    `${prefix}interrupted as (
      update webhook_attempt set finished_at = ${at}, error = ${params.p(INTERRUPTED)}
      where event_id = (select event_id from ${claimed}) and finished_at is null)`,
    `${prefix}started as (
      insert into webhook_attempt (event_id, merchant_id, attempt_number, url, attempted_at)
      select c.event_id, c.merchant_id, c.attempt_count + 1, m.webhook_url, ${at} from ${claimed} c join merchant m on m.id = c.merchant_id
      returning id)`,
  ];
}

/** What the send of the attempt started by `startAttemptSql` needs (a PendingDelivery but the endpoint's state), as a SELECT. */
function sendDataSql(claimed: string, prefix: string, slotSql: string): string {
  return `select e.id, e.merchant_id as "merchantId", e.type, e.created_at as "createdAt", e.payload::text as payload,
                 c.attempt_count as "attemptCount", (select id from ${prefix}started)::text as "attemptId", ${slotSql} as slot,
                 m.webhook_url as "webhookUrl", m.webhook_secret_sealed as "secretSealed", m.previous_webhook_secrets as "previousSecrets"
          from ${claimed} c join outbox_event e on e.id = c.event_id join merchant m on m.id = c.merchant_id`;
}

/**
 * The service's time, for when a delivery falls due: its clock's reading `clockSql`, or the database's if later (a
 * test's clock held still: a retry then waits its delay in real time, as a delayed job did). WebhookPump compares
 * `next_attempt_at` with the same.
 */
export function serviceNowSql(clockSql: string): string {
  return `greatest(now(), ${clockSql}::timestamptz)`;
}

/** What WebhookDispatcher is built with (the composition root passes it). */
export interface WebhookDispatcherDeps {
  sql: Sql;
  clock: Clock;
  secretBox: SecretBox;
  settings: { env: PaymentsEnv; timeoutMs: number; schedule: number[]; capacity: EndpointCapacity };
  logger: Logger;
  observeAttempt?: WebhookAttemptObserver;
}

/**
 * Delivers outbox events, one attempt at a time per claim; the deliveries are picked by WebhookPump (the delivery
 * row is the queue item: no job per attempt). At-least-once: an attempt whose process dies is sent again (same
 * webhook-id) once its claim lapses. Each attempt is recorded; a failure schedules the next attempt on the retry
 * schedule (with jitter: `next_attempt_at`) until the schedule is spent, then the delivery is failed.
 * Each attempt is written before its POST leaves and finished after it, so the log never
 * shows fewer sends than the receiver saw, even when the process is killed mid-send.
 * An attempt is claimed before it is sent (a lease a little longer than its
 * timeout), so two picks of one attempt (two instances, or a resend and a retry falling due) never both send it.
 * Two statements per attempt: claim, start the attempt and read; then one write (attempt, delivery, the endpoint's
 * next delivery claimed on the freed slot).
 */
export class WebhookDispatcher {
  private readonly opened = new Map<string, string>();
  /** Attempts this instance has in flight, per merchant (its endpoint's slots it holds). */
  private readonly inFlight = new Map<string, number>();
  /** Told when deliveries became due that this instance's attempts do not carry on to (a circuit closed): the pump picks them. */
  onDue?: () => void;
  /** Shutting down: an attempt that finishes frees its slot instead of carrying on with the endpoint's backlog. */
  stopping = false;

  constructor(private readonly deps: WebhookDispatcherDeps) {}

  /** Endpoints (merchant ids) this instance already sends as much as each may take at once: a pick passes them over. */
  saturatedEndpoints(): string[] {
    const cap = this.deps.settings.capacity.perEndpoint;
    return [...this.inFlight].filter(([, n]) => n >= cap).map(([merchantId]) => merchantId);
  }

  /**
   * One attempt (`attempt` fences it: a pick of an attempt already made, a resend having overtaken
   * a scheduled retry, does nothing); then, while its endpoint has deliveries
   * waiting for a slot, the next of them, oldest first, on the slot this one frees. A sender that
   * has a slot keeps it busy: the endpoint's waiting deliveries go out at its pace, with no pick per delivery.
   * Says whether it sent the attempt, found no slot for it (`waiting`), or found it not to be made (`gone`: made,
   * failed for good, or held by another sender).
   */
  async deliver(eventId: string, attempt?: number, merchantId?: string): Promise<'sent' | 'waiting' | 'gone'> {
    // This instance alone already has as many attempts in flight to the endpoint as it may ever take: no slot is
    // free, and those attempts carry on with the endpoint's due deliveries, oldest first, so this one goes in its turn.
    if (merchantId !== undefined && (this.inFlight.get(merchantId) ?? 0) >= this.deps.settings.capacity.perEndpoint) return 'waiting';
    let claim = await this.claim(eventId, attempt);
    if (claim.kind === 'endpoint-new') {
      // The endpoint's first delivery (or a raised WEBHOOK_ENDPOINT_CONCURRENCY): its slots are made once, then claimed.
      await this.deps.sql.query('insert into webhook_endpoint_slot (merchant_id, slot) select $1, generate_series(0, $2::int - 1) on conflict do nothing', [
        claim.merchantId,
        this.deps.settings.capacity.perEndpoint,
      ]);
      claim = await this.claim(eventId, attempt);
    }
    // Not claimed: not to be made (delivered, failed for good, fenced off), held by another worker (a test event's
    // attempt made within its request, a resend, an attempt that carried on to it), or no slot free (its endpoint's
    // slots all in flight, or its circuit open). Nothing is written and nothing thrown: a holder carries on with the
    // endpoint's due deliveries; if it died, its claim lapses and a pick finds the delivery again.
    if (claim.kind !== 'claimed') return claim.kind === 'waiting' ? 'waiting' : 'gone';
    const holding = claim.delivery.merchantId;
    // Counted from the first claim to the last attempt: while this sender carries on, this instance's picks pass the
    // endpoint over once it has all its slots.
    this.inFlight.set(holding, (this.inFlight.get(holding) ?? 0) + 1);
    try {
      let current: PendingDelivery | undefined = claim.delivery;
      while (current) current = await this.sendAndFinish(current);
    } finally {
      const left = (this.inFlight.get(holding) ?? 1) - 1;
      if (left > 0) this.inFlight.set(holding, left);
      else this.inFlight.delete(holding);
    }
    return 'sent';
  }

  /**
   * Sends a claimed attempt and records its outcome, and in the same statement claims, on the slot it frees, the
   * endpoint's longest-due delivery that nobody holds: what it returns, for this worker to send next. An endpoint's
   * backlog thus drains at its cap, two statements per delivery, with no pick per delivery.
   */
  private async sendAndFinish(delivery: PendingDelivery): Promise<PendingDelivery | undefined> {
    const eventId = delivery.id;
    const attemptNumber = delivery.attemptCount + 1;

    let result: SendResult;
    if (!delivery.webhookUrl) {
      result = { statusCode: null, latencyMs: 0, error: 'no webhook endpoint is configured', unanswered: false };
    } else {
      const body = webhookBody(delivery, delivery.payload);
      // webhook-timestamp is wall-clock time: receivers check it against their own clocks.
      const headers = webhookHeaders(this.signingSecrets(delivery), delivery.id, systemClock.now(), body);
      result = await postWebhook(delivery.webhookUrl, body, headers, this.deps.settings.env, this.deps.settings.timeoutMs);
    }
    const success = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    const now = this.deps.clock.now();
    const delay = success ? undefined : retryDelay(this.deps.settings.schedule, attemptNumber);
    const status = success ? 'delivered' : delay === undefined ? 'failed' : 'pending';

    const answered = result.unanswered ? false : result.statusCode !== null ? true : null;
    const params = new Params();
    const ctes = [
      `d as (
        update webhook_delivery
        set attempt_count = ${params.p(attemptNumber)}, status = ${params.p(status)}, updated_at = ${params.p(now)}, claimed_until = null,
            delivered_at = ${params.p(success ? now : null)}::timestamptz,
            next_attempt_at = ${delay === undefined ? 'null' : `${serviceNowSql(params.p(now))} + make_interval(secs => ${params.p(delay / 1000)})`}
        where event_id = ${params.p(eventId)} and status = 'pending' and attempt_count = ${params.p(delivery.attemptCount)}
        returning event_id, merchant_id)`,
      // The attempt was sent, whatever became of the delivery meanwhile: its row is finished in any case.
      `a as (
        update webhook_attempt
        set status_code = ${params.p(result.statusCode)}::int, latency_ms = ${params.p(Math.round(result.latencyMs))}::int,
            success = ${params.p(success)}::boolean, error = ${params.p(success ? null : (result.error ?? `HTTP ${result.statusCode}`))}::text,
            finished_at = ${params.p(now)}::timestamptz
        where id = ${params.p(delivery.attemptId)}::bigint)`,
      ...this.endpointAfterAttemptSql(params, delivery, answered, result.latencyMs, now),
    ];
    const [row] = await this.deps.sql.query<{ others: number; next: (Omit<PendingDelivery, 'createdAt'> & { createdAt: string }) | null }>(
      `with ${ctes.join(',\n')}
       select (select count(*) from d) as d, (select count(*) from next_others)::int as others,
              (select row_to_json(x) from (${sendDataSql('next_claimed', 'next_', `${params.p(delivery.slot)}::int`)}) x) as next`,
      params.values,
    );
    // Beyond the one this sender claimed, a closing circuit's other due deliveries: the pump picks them.
    if (row && row.others > 0) this.onDue?.();
    this.deps.observeAttempt?.(status === 'pending' ? 'retry_scheduled' : status, delivery.webhookUrl ? result.latencyMs / 1000 : null);
    if (status === 'failed') this.deps.logger.warn({ eventId, merchantId: delivery.merchantId, attempts: attemptNumber }, 'webhook delivery failed for good');
    if (!row?.next) return undefined;
    // The endpoint as this statement left it, for the next attempt's own finish.
    const circuitFailures = answered === true ? 0 : answered === false ? delivery.circuitFailures + 1 : delivery.circuitFailures;
    const prompt = answered === true && result.latencyMs <= this.deps.settings.capacity.slowMs;
    const promptForS = prompt ? Math.max(delivery.promptForS ?? 0, PROMPT_MEMORY_S / 2) : answered === null ? delivery.promptForS : null;
    return { ...row.next, createdAt: new Date(row.next.createdAt), circuitFailures, promptForS };
  }

  /**
   * Claims the attempt and one of its endpoint's slots, records the attempt as started (before
   * anything is sent: the log never shows fewer sends than the receiver saw), closes an earlier
   * attempt a dead process left unfinished, and reads what the send needs: one statement. With
   * every slot in flight, or the endpoint's circuit open, nothing is written: the delivery stays due.
   *
   * Slots are rows taken with FOR UPDATE SKIP LOCKED, so the cap per endpoint holds across
   * instances; each is a lease as long as the claim, so one held by a killed process frees itself.
   * The attempt is claimed whether or not it is due yet: a test event's attempt is made within its request.
   * The circuit: open (`open_until` ahead) lets nothing through; tripped but past `open_until`
   * (half-open) lets one attempt through, on slot 0 only.
   */
  private async claim(
    eventId: string,
    attempt: number | undefined,
  ): Promise<{ kind: 'claimed'; delivery: PendingDelivery } | { kind: 'waiting' } | { kind: 'endpoint-new'; merchantId: string } | { kind: 'gone' }> {
    const { perEndpoint, slowPerEndpoint, slowMs, circuitFailures } = this.deps.settings.capacity;
    // A slot is held as long as the claim; one held since longer than `slowMs` ago is an attempt in flight that long.
    const leaseS = (this.deps.settings.timeoutMs + CLAIM_MARGIN_MS) / 1000;
    const params = new Params();
    const event = params.p(eventId);
    const lease = `now() + make_interval(secs => ${params.p(leaseS)})`;
    const attemptParam = params.p(attempt ?? null);
    // The attempt asked for fences it: a pick or resend of an attempt already made does nothing.
    const fenced = (count: string) => `(${attemptParam}::int is null or ${count} + 1 = ${attemptParam}::int)`;
    const capped = params.p(perEndpoint);
    const rows = await this.deps.sql.query<PendingDelivery & { targetMerchantId: string; slotRows: number }>(
      `with target as (
         select event_id, merchant_id, attempt_count from webhook_delivery
         where event_id = ${event} and status = 'pending' and (claimed_until is null or claimed_until < now()) and ${fenced('attempt_count')}),
       circuit as (
         select failures, open_until, prompt_until from webhook_endpoint where merchant_id = (select merchant_id from target)),
       slow as (
         select 1 where not exists (select 1 from circuit where prompt_until > now())
           or exists (select 1 from webhook_endpoint_slot where merchant_id = (select merchant_id from target)
                      and held_until > now() and held_until < now() + make_interval(secs => ${params.p(leaseS - slowMs / 1000)}))),
       slot as (
         select s.merchant_id, s.slot from webhook_endpoint_slot s
         where s.merchant_id = (select merchant_id from target) and s.slot < ${capped}
           and (s.held_until is null or s.held_until < now())
           and not exists (select 1 from circuit where open_until > now())
           and (s.slot = 0 or not exists (select 1 from circuit where failures >= ${params.p(circuitFailures)}))
           and (s.slot < ${params.p(slowPerEndpoint)} or not exists (select 1 from slow))
         order by s.slot limit 1 for update skip locked),
       claimed as (
         update webhook_delivery w set claimed_until = ${lease}
         from slot
         where w.event_id = ${event} and w.status = 'pending' and (w.claimed_until is null or w.claimed_until < now()) and ${fenced('w.attempt_count')}
         returning w.event_id, w.merchant_id, w.attempt_count, slot.slot),
       held as (
         update webhook_endpoint_slot s set event_id = c.event_id, held_until = ${lease}
         from claimed c where s.merchant_id = c.merchant_id and s.slot = c.slot),
       ${startAttemptSql(params, 'claimed', '', this.deps.clock.now()).join(',\n')}
       select t.merchant_id as "targetMerchantId",
              (select count(*) from webhook_endpoint_slot where merchant_id = t.merchant_id and slot < ${capped})::int as "slotRows",
              coalesce((select failures from circuit), 0) as "circuitFailures",
              (select extract(epoch from prompt_until - now())::float8 from circuit) as "promptForS", d.*
       from target t left join lateral (${sendDataSql('claimed', '', 'c.slot')}) d on true`,
      params.values,
      'webhook_claim_delivery',
    );
    const row = rows[0];
    if (!row) return { kind: 'gone' };
    if (row.id) return { kind: 'claimed', delivery: row };
    if (row.slotRows < perEndpoint) return { kind: 'endpoint-new', merchantId: row.targetMerchantId };
    return { kind: 'waiting' };
  }

  /**
   * The endpoint's part of the attempt's finishing statement: its circuit told whether the endpoint answered
   * (`answered`; null when nothing was sent: no endpoint, or an address the policy refused), and its slot moved on
   * to the endpoint's longest-due delivery that nobody holds (claimed here, its attempt recorded as started:
   * `next_claimed`, `next_started`), or freed when there is none, or when the slot is no longer the endpoint's to
   * use (its circuit open now; a slot beyond the slow cap of an endpoint no longer prompt; half-open, slot 0 only).
   * An answer that closes a tripped circuit, or the first prompt one of a slow endpoint, also picks the endpoint's
   * other slots' worth of due deliveries (`next_others`), for the pump to pick. While the instance stops, the slot is
   * freed: nothing new is started.
   */
  private endpointAfterAttemptSql(params: Params, delivery: PendingDelivery, answered: boolean | null, latencyMs: number, now: Date): string[] {
    const { perEndpoint, slowPerEndpoint, slowMs, circuitFailures, circuitOpenS, circuitMaxOpenS } = this.deps.settings.capacity;
    const merchant = `${params.p(delivery.merchantId)}::uuid`;
    const eventId = params.p(delivery.id);
    const ctes: string[] = [];
    // Prompt: answered within `slowMs`. Marked for a minute, renewed once half of it has passed (one write per
    // endpoint per half-minute, not per delivery); a slow or missing answer unmarks it at once.
    const prompt = answered === true && latencyMs <= slowMs;
    const promptFor = delivery.promptForS ?? -1;
    const promptUntil = prompt
      ? promptFor < PROMPT_MEMORY_S / 2
        ? `now() + make_interval(secs => ${params.p(PROMPT_MEMORY_S)})`
        : 'webhook_endpoint.prompt_until'
      : 'null';
    const promptChanges = prompt ? promptFor < PROMPT_MEMORY_S / 2 : promptFor > 0;
    if (answered === true && (delivery.circuitFailures > 0 || promptChanges)) {
      // An answer closes the circuit.
      ctes.push(`circuit as (
        insert into webhook_endpoint (merchant_id, failures, openings, open_until, prompt_until, updated_at)
        values (${merchant}, 0, 0, null, ${prompt ? `now() + make_interval(secs => ${params.p(PROMPT_MEMORY_S)})` : 'null'}, now())
        on conflict (merchant_id) do update set failures = 0, openings = 0, open_until = null, prompt_until = ${promptUntil}, updated_at = now()
        returning open_until)`);
    } else if (answered === false) {
      const tripped = `webhook_endpoint.failures + 1 >= ${params.p(circuitFailures)}::int`;
      const first = params.p(circuitFailures <= 1);
      ctes.push(`circuit as (
        insert into webhook_endpoint (merchant_id, failures, openings, open_until, prompt_until, updated_at)
        values (${merchant}, 1, case when ${first}::boolean then 1 else 0 end,
                case when ${first}::boolean then now() + make_interval(secs => ${params.p(circuitOpenS)}) end, null, now())
        on conflict (merchant_id) do update set
          failures = webhook_endpoint.failures + 1,
          openings = case when ${tripped} then webhook_endpoint.openings + 1 else webhook_endpoint.openings end,
          open_until = case when ${tripped}
            then now() + make_interval(secs => least(${params.p(circuitMaxOpenS)}::float8, ${params.p(circuitOpenS)}::float8 * power(2, webhook_endpoint.openings)))
            else webhook_endpoint.open_until end,
          prompt_until = null,
          updated_at = now()
        returning open_until)`);
    }
    const leaseS = (this.deps.settings.timeoutMs + CLAIM_MARGIN_MS) / 1000;
    // Whether the slot stays this endpoint's to use for one more attempt.
    const tripped = delivery.circuitFailures >= circuitFailures;
    const promptAfter = prompt || (answered === null && (delivery.promptForS ?? -1) > 0);
    let keepSlot: string;
    if (this.stopping) keepSlot = 'false';
    else if (tripped && answered !== true && delivery.slot !== 0) keepSlot = 'false';
    else if (delivery.slot < slowPerEndpoint) keepSlot = 'true';
    else if (!promptAfter) keepSlot = 'false';
    else
      keepSlot = `not exists (select 1 from webhook_endpoint_slot where merchant_id = ${merchant} and slot <> ${params.p(delivery.slot)}::smallint
                   and held_until > now() and held_until < now() + make_interval(secs => ${params.p(leaseS - slowMs / 1000)}))`;
    const circuitOpen =
      answered === true
        ? 'false'
        : `(exists (select 1 from webhook_endpoint e where e.merchant_id = ${merchant} and e.open_until > now())${answered === false ? ' or exists (select 1 from circuit where open_until > now())' : ''})`;
    // An answer that closes a tripped circuit, or the first prompt one (slow start over: all the endpoint's slots are
    // now offered), also finds the endpoint's other due deliveries, which the pump picks for the slots this sender cannot fill.
    const becamePrompt = prompt && promptFor <= 0;
    const count = answered === true && (tripped || becamePrompt) ? perEndpoint : 1;
    const lease = `now() + make_interval(secs => ${params.p(leaseS)})`;
    ctes.push(
      `next as (
        select event_id, merchant_id, attempt_count, next_attempt_at from webhook_delivery
        where merchant_id = ${merchant} and status = 'pending' and next_attempt_at <= ${serviceNowSql(params.p(now))} and event_id <> ${eventId}
          and (claimed_until is null or claimed_until < now())
          and not ${circuitOpen} and ${keepSlot}
        order by next_attempt_at, event_id limit ${params.p(count)}::int for update skip locked)`,
      // The slot is carried on only while it is still this attempt's: one whose lease ran out during a slow finish may
      // have been taken by another claim, and carrying on then would send beyond the endpoint's cap. Locked, so the check
      // reads the row's latest version (the delivery is then left to the pump, in next_others).
      `slot_held as (
        select 1 from webhook_endpoint_slot
        where merchant_id = ${merchant} and slot = ${params.p(delivery.slot)}::smallint and event_id = ${eventId}
        for update)`,
      `next_claimed as (
        update webhook_delivery w set claimed_until = ${lease}
        from (select event_id from next order by next_attempt_at, event_id limit 1) n
        where w.event_id = n.event_id and exists (select 1 from slot_held)
        returning w.event_id, w.merchant_id, w.attempt_count)`,
      `next_others as (select * from next where event_id not in (select event_id from next_claimed))`,
      `next_slot as (
        update webhook_endpoint_slot
        set event_id = (select event_id from next_claimed), held_until = case when exists (select 1 from next_claimed) then ${lease} end
        where merchant_id = ${merchant} and slot = ${params.p(delivery.slot)}::smallint and event_id = ${eventId})`,
      ...startAttemptSql(params, 'next_claimed', 'next_', now),
    );
    return ctes;
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
