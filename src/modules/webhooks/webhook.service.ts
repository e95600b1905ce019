import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import type { PaymentsEnv } from '../../config';
import type { Orm } from '../../db/orm';
import type { Clock } from '../../shared/clock';
import type { SecretBox } from '../../shared/crypto';
import { AppError } from '../../shared/errors';
import { withoutCardNumberIn } from '../../shared/fields';
import { EVENT_ID, afterCursor, pageRequestSchema, toPage, type Page } from '../../shared/pagination';
import { parseInput, type Command } from '../../shared/validation';
import { urlForAudit, type AuditContext, type AuditLog } from '../audit/audit-log';
import { Merchant } from '../merchants/merchant.entity';
import { newWebhookSecret } from '../merchants/merchant.service';
import { EVENT_TYPES, SELECTABLE_EVENT_TYPES, TEST_EVENT_TYPE } from '../outbox/event-types';
import type { EventChoices } from '../outbox/event-choices';
import type { Outbox } from '../outbox/outbox';
import { testEventData } from './webhook.serializer';
import { OutboxEvent } from '../outbox/outbox-event.entity';
import { assertWebhookUrlAllowed } from './url-policy';
import { WebhookAttempt, WebhookDelivery } from './webhook-delivery.entity';
import type { WebhookDispatcher } from './webhook-dispatcher';

/** The window of the test-event limit. */
const TEST_EVENT_WINDOW_MS = 60_000;
/** How long the old secret keeps signing after a rotation. */
const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;
/** Rotated-out secrets that may sign at once (each delivery carries one signature per secret). */
const MAX_OVERLAPPING_SECRETS = 10;

export const endpointSchema = z.object({
  url: z.union([withoutCardNumberIn(z.string()), z.null()], { error: 'is required (a URL, or null to remove)' }),
  eventTypes: z
    .array(z.enum(SELECTABLE_EVENT_TYPES, { error: 'is not an event type you can choose' }), { error: 'must be a list of event types, or null' })
    .min(1, 'must name at least one event type (null: the default)')
    .nullish()
    .describe(
      'The event types recorded and sent to you. Omitted: unchanged. Null: the default, final statuses and KYC decisions. Add `*.processing` and `payment.requires_action` to hear of each transaction as it is created.',
    ),
});
export type EndpointCommand = Command<typeof endpointSchema>;
export const eventListSchema = pageRequestSchema.extend({ type: z.enum(EVENT_TYPES, { error: 'is not an event type' }).nullish() });
export type EventListQuery = Command<typeof eventListSchema>;

export interface EventWithDelivery {
  event: OutboxEvent;
  delivery: WebhookDelivery | null;
}

/** What WebhookService is built with (the composition root passes it). */
export interface WebhookServiceDeps {
  orm: Orm;
  clock: Clock;
  /** Wakes this instance's webhook pump: a delivery was made due (a resend). */
  wakeDeliveries: () => void;
  outbox: Outbox;
  /** Told when a merchant's choice of event types changes. */
  eventChoices: EventChoices;
  secretBox: SecretBox;
  env: PaymentsEnv;
  /** `webhook.test` events one merchant may send per minute (each is a POST, and its retries, to a URL the merchant chose). */
  testEventsPerMinute: number;
  /** The audit log's writer (endpoint changes, secret rotations). */
  audit: AuditLog;
  /** Makes a test event's first attempt within its request, unless its endpoint has no free slot (built first, in the same module). */
  dispatcher: Pick<WebhookDispatcher, 'deliver'>;
}

const sameList = (a: readonly string[] | null, b: readonly string[] | null) =>
  a === null || b === null ? a === b : a.length === b.length && a.every((v, i) => v === b[i]);

/** The merchant's webhook settings (endpoint, secret rotation) and its event log. */
export class WebhookService {
  constructor(private readonly deps: WebhookServiceDeps) {}

  /** `audit`: who asks, and from where; a change (and only a change) writes one `webhook.endpoint_changed` entry with it. */
  async setEndpoint(merchantId: string, command: EndpointCommand, audit?: AuditContext): Promise<Merchant> {
    const { url, eventTypes } = parseInput(endpointSchema, command);
    const checked = url === null ? null : (await assertWebhookUrlAllowed(url, this.deps.env)).toString();
    const merchant = await this.deps.orm.em.fork().transactional(async (em) => {
      const merchant = await em.findOneOrFail(Merchant, { id: merchantId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      const before = { url: merchant.webhookUrl, eventTypes: merchant.webhookEventTypes };
      // A new address starts with a closed circuit: the old one's silences say nothing of it.
      if (merchant.webhookUrl !== checked) await em.execute('delete from webhook_endpoint where merchant_id = ?', [merchantId]);
      merchant.webhookUrl = checked;
      // In the service's order, each once.
      if (eventTypes !== undefined) merchant.webhookEventTypes = eventTypes === null ? null : SELECTABLE_EVENT_TYPES.filter((t) => eventTypes.includes(t));
      merchant.updatedAt = this.deps.clock.now();
      await em.flush();
      const changed = before.url !== merchant.webhookUrl || !sameList(before.eventTypes, merchant.webhookEventTypes);
      if (audit && changed) {
        await this.deps.audit.recordOn(em, {
          merchantId,
          ...audit,
          action: 'webhook.endpoint_changed',
          target: { type: 'webhook_endpoint', id: merchantId },
          before: { url: urlForAudit(before.url), event_types: before.eventTypes },
          after: { url: urlForAudit(merchant.webhookUrl), event_types: merchant.webhookEventTypes },
        });
      }
      return merchant;
    });
    if (eventTypes !== undefined) await this.deps.eventChoices.changed(merchantId);
    return merchant;
  }

  /**
   * A new secret, shown once. The one it replaces keeps signing for 24 h, and so does every
   * secret rotated out before it, each until its own expiry (a later rotation shortens none).
   * At most MAX_OVERLAPPING_SECRETS may be in their overlap at once: one more is INVALID_STATE,
   * naming when the oldest expires.
   */
  async rotateSecret(merchantId: string, audit?: AuditContext): Promise<{ webhookSecret: string; previousSecretExpiresAt: Date }> {
    const webhookSecret = newWebhookSecret();
    const now = this.deps.clock.now();
    const previousSecretExpiresAt = new Date(now.getTime() + SECRET_OVERLAP_MS);
    await this.deps.orm.em.fork().transactional(async (em) => {
      const merchant = await em.findOneOrFail(Merchant, { id: merchantId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      const live = merchant.previousWebhookSecrets.filter((p) => new Date(p.expiresAt) > now);
      if (live.length >= MAX_OVERLAPPING_SECRETS) {
        const oldest = live.map((p) => p.expiresAt).sort()[0];
        throw new AppError('INVALID_STATE', `${MAX_OVERLAPPING_SECRETS} rotated-out secrets are still within their 24 h overlap; rotate again after ${oldest}`);
      }
      merchant.previousWebhookSecrets = [...live, { sealed: merchant.webhookSecretSealed, expiresAt: previousSecretExpiresAt.toISOString() }];
      merchant.webhookSecretSealed = this.deps.secretBox.seal(webhookSecret);
      merchant.updatedAt = now;
      // No secret, old or new, enters the log: only when the old one stops signing.
      if (audit) {
        await this.deps.audit.recordOn(em, {
          merchantId,
          ...audit,
          action: 'webhook.secret_rotated',
          target: { type: 'webhook_endpoint', id: merchantId },
          after: { previous_signs_until: previousSecretExpiresAt.toISOString() },
        });
      }
    });
    return { webhookSecret, previousSecretExpiresAt };
  }

  async listEvents(merchantId: string, query: EventListQuery): Promise<Page<EventWithDelivery>> {
    const { limit, after, type } = parseInput(eventListSchema, query, 'query');
    const where: Record<string, unknown> = { merchantId };
    if (type) where.type = type;
    Object.assign(where, afterCursor(after, EVENT_ID));
    const page = toPage(await this.deps.orm.em.find(OutboxEvent, where, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: limit + 1 }), limit);
    const deliveries = await this.deps.orm.em.find(WebhookDelivery, { eventId: { $in: page.items.map((i) => i.node.id) } });
    const byEvent = new Map(deliveries.map((d) => [d.eventId, d]));
    return {
      items: page.items.map(({ node: event, cursor }) => ({ node: { event, delivery: byEvent.get(event.id) ?? null }, cursor })),
      hasMore: page.hasMore,
    };
  }

  async getEvent(merchantId: string, eventId: string, em: EntityManager = this.deps.orm.em): Promise<EventWithDelivery & { attempts: WebhookAttempt[] }> {
    const event = await em.findOne(OutboxEvent, { id: eventId, merchantId });
    if (!event) throw AppError.notFound('Event');
    const delivery = await em.findOne(WebhookDelivery, { eventId });
    const attempts = await em.find(WebhookAttempt, { eventId }, { orderBy: { id: 'asc' } });
    return { event, delivery, attempts };
  }

  /**
   * A `webhook.test` event, recorded and sent now, so that an integrator can check a receiver without
   * making a transaction. It goes the way of every event (signed with each live secret, in the
   * attempt log, retried on the schedule when it fails); its first attempt is made within this
   * request, so the answer shows how the endpoint answered. Its delivery falls due for the pumps only once that
   * attempt could be over (webhook-delivery.sql.ts), so that they find it made, unless this process died first.
   */
  async sendTestEvent(merchantId: string): Promise<EventWithDelivery & { attempts: WebhookAttempt[] }> {
    const eventId = await this.deps.orm.em.fork().transactional(async (em) => {
      // Locked: concurrent test events of one merchant are counted one after another, so the limit is exact.
      const merchant = await em.findOneOrFail(Merchant, { id: merchantId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!merchant.webhookUrl) throw new AppError('INVALID_STATE', 'No webhook endpoint is configured; set one, then send a test event');
      const now = this.deps.clock.now();
      await this.assertTestEventAllowed(em, merchantId, now);
      return this.deps.outbox.record(em, { merchantId, type: TEST_EVENT_TYPE, subjectId: merchantId, payload: testEventData(merchantId, now) });
    });
    // Asked for by the merchant, typically to check a receiver it just mended: an open circuit lets this one through.
    await this.letOneThrough(merchantId);
    // The endpoint's slots may all be in flight, or its circuit open again: the delivery then joins the endpoint's queue
    // (due now, where senders carry on to it, oldest first), and the answer shows no attempt yet.
    if ((await this.deps.dispatcher.deliver(eventId, 1)) === 'waiting') {
      await this.deps.orm.em
        .getConnection()
        .execute(`update webhook_delivery set next_attempt_at = created_at where event_id = ? and status = 'pending' and attempt_count = 0`, [eventId]);
      this.deps.wakeDeliveries();
    }
    return this.getEvent(merchantId, eventId, this.deps.orm.em.fork());
  }

  /**
   * Ends the open period of the endpoint's circuit, if any: it lets one attempt through (half-open), and
   * an answer closes it. For the merchant's own requests (a test event, a resend), which say that the
   * receiver may be back; one attempt each, as before the circuit existed.
   */
  private async letOneThrough(merchantId: string): Promise<void> {
    await this.deps.orm.em.getConnection().execute('update webhook_endpoint set open_until = null where merchant_id = ? and open_until > now()', [merchantId]);
  }

  /** At most `testEventsPerMinute` test events in any minute: each one is POSTs to a URL the merchant chose. */
  private async assertTestEventAllowed(em: EntityManager, merchantId: string, now: Date): Promise<void> {
    const windowStart = new Date(now.getTime() - TEST_EVENT_WINDOW_MS);
    const [row] = await em.getConnection().execute<{ count: number; oldest: Date | null }[]>(
      `select count(*)::int as count, min(created_at) as oldest from outbox_event
       where subject_id = ? and merchant_id = ? and type = ? and created_at > ?`,
      [merchantId, merchantId, TEST_EVENT_TYPE, windowStart],
      'all',
      em.getTransactionContext(),
    );
    const limit = this.deps.testEventsPerMinute;
    if (row.count < limit) return;
    const retryAfterS = Math.max(1, Math.ceil((new Date(row.oldest!).getTime() + TEST_EVENT_WINDOW_MS - now.getTime()) / 1000));
    throw AppError.rateLimited(`At most ${limit} test events a minute; send the next one in ${retryAfterS} s`, retryAfterS);
  }

  /**
   * Sends the event again now (same webhook-id), whatever its delivery state. An
   * event recorded while the merchant had no endpoint was never attempted; this
   * is how it is delivered once an endpoint is set. A retry already scheduled for
   * the same attempt finds it made (or claimed) and sends nothing.
   */
  async resend(merchantId: string, eventId: string): Promise<EventWithDelivery & { attempts: WebhookAttempt[] }> {
    await this.getEvent(merchantId, eventId);
    await this.letOneThrough(merchantId);
    await this.deps.orm.em.fork().transactional(async (em) => {
      const merchant = await em.findOneOrFail(Merchant, { id: merchantId });
      if (!merchant.webhookUrl) throw new AppError('INVALID_STATE', 'No webhook endpoint is configured; set one, then resend');
      const now = this.deps.clock.now();
      // A never-attempted event has no delivery yet; two resends at once must not both create it.
      await em.execute(
        `insert into webhook_delivery (event_id, merchant_id, status, attempt_count, next_attempt_at, created_at, updated_at)
         values (?, ?, 'pending', 0, ?, ?, ?) on conflict (event_id) do nothing`,
        [eventId, merchantId, now, now, now],
      );
      const delivery = await em.findOneOrFail(WebhookDelivery, { eventId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      // Due now: the pump picks it (the delivery row is the queue item). An attempt in flight keeps its claim, and the
      // resend is the attempt after it.
      delivery.status = 'pending';
      delivery.nextAttemptAt = now;
      delivery.updatedAt = now;
      await em.flush();
    });
    this.deps.wakeDeliveries();
    // Read afresh: the request's EntityManager still holds the delivery as it was before the resend.
    return this.getEvent(merchantId, eventId, this.deps.orm.em.fork());
  }
}
