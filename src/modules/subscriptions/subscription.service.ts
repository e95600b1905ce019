import type { KycRecord, KycService } from '../kyc/kyc.service';
import type { Balance, LedgerService } from '../ledger/ledger.service';
import { fromWire, type Transaction } from '../transactions/transaction.record';
import type { TransactionStatus } from '../transactions/transaction.state';
import { mapAsyncIterator } from '../../shared/async-iterator';
import { merchantEvents } from '../../events/merchant-events';
import type { ListenerPresence } from '../../events/listener-presence';
import type { PubSub } from '../../events/pubsub';
import { KycTopic } from '../kyc/kyc.topics';
import { LedgerTopic } from '../ledger/ledger.topics';
import { TransactionTopic } from '../transactions/transaction.topics';
import { DisputeTopic } from '../disputes/dispute.topics';
import { disputeFromWire, type Dispute } from '../disputes/dispute.record';
import type { EventFeed, RecordedEvent } from '../webhooks/event-feed';
import { EVENT_TYPES } from '../outbox/event-types';
import { AppError } from '../../shared/errors';

/** What SubscriptionService is built with (its module's factory passes it). */
export interface SubscriptionServiceDeps {
  pubsub: PubSub;
  kyc: KycService;
  ledger: LedgerService;
  /** Told of each transaction stream, so that creations are published only when someone listens. */
  presence: ListenerPresence;
  /** The merchant's events as recorded (the outbox's log), for `eventRecorded`. */
  eventFeed: EventFeed;
}

/**
 * `fn` of each event once, however many of this process's streams receive it (the fan-out hands every listener
 * the same message object): one record (or one read) per event, not per subscriber, and every subscriber of it
 * then holds the same record, so that the WebSocket door can execute its operation once for all (ws-server.ts).
 */
function oncePerEvent<E extends object, R>(fn: (event: E) => Promise<R>): (event: E) => Promise<R> {
  const made = new WeakMap<E, Promise<R>>();
  return (event) => {
    let record = made.get(event);
    if (!record) {
      record = fn(event);
      made.set(event, record);
    }
    return record;
  };
}

/**
 * What GraphQL subscriptions stream: a merchant's own status changes, each as
 * the record the status endpoints return. A transaction's record travels in the
 * event itself (as committed); a KYC record or a balance is read after the commit that published it, once per
 * event for every stream that receives it.
 */
export class SubscriptionService {
  private readonly transactionOf = oncePerEvent(async (e: { transaction: Parameters<typeof fromWire>[0] }) => fromWire(e.transaction));
  private readonly disputeOf = oncePerEvent(async (e: { dispute: Parameters<typeof disputeFromWire>[0] }) => disputeFromWire(e.dispute));
  private readonly balanceOf = oncePerEvent((e: { merchantId: string; currency: string }) => this.deps.ledger.balance(e.merchantId, e.currency));
  private readonly kycOf = oncePerEvent((e: { merchantId: string; customerUuid: string }) => this.deps.kyc.getKycDetached(e.merchantId, e.customerUuid));

  constructor(private readonly deps: SubscriptionServiceDeps) {}

  /** The merchant's balance in a currency (one, or every one when omitted), read after each change commits. */
  async balanceChanges(merchantId: string, currency?: string | null): Promise<AsyncIterableIterator<Balance>> {
    const events = await merchantEvents(this.deps.pubsub, LedgerTopic.BalanceChanged, merchantId, (e) => !currency || e.currency === currency);
    return mapAsyncIterator(events, this.balanceOf);
  }

  /**
   * All of the merchant's transactions, or one (by the service's reference or the merchant's); every
   * status each reaches (its creation's `processing` or `requires_action` too), or only `statuses`.
   */
  async transactionChanges(
    merchantId: string,
    reference?: string | null,
    statuses?: readonly TransactionStatus[] | null,
  ): Promise<AsyncIterableIterator<Transaction>> {
    const events = await merchantEvents(
      this.deps.pubsub,
      TransactionTopic.StatusChanged,
      merchantId,
      (e) => (!reference || e.reference === reference || e.externalReference === reference) && (!statuses || statuses.includes(e.transaction.status)),
      this.deps.presence,
    );
    return mapAsyncIterator(events, this.transactionOf);
  }

  /** The merchant's disputes as they change (issue 39), each as committed (the record travels in the message). */
  async disputeChanges(merchantId: string): Promise<AsyncIterableIterator<Dispute>> {
    const events = await merchantEvents(this.deps.pubsub, DisputeTopic.Changed, merchantId, () => true);
    return mapAsyncIterator(events, this.disputeOf);
  }

  /**
   * The merchant's events as they are recorded (of `types` only, when given), each with the webhook body a delivery
   * of it carries: what `payments-gateway listen` signs and forwards. Unknown types are refused (INVALID_REQUEST).
   */
  async recordedEvents(merchantId: string, types?: readonly string[] | null): Promise<AsyncIterableIterator<RecordedEvent>> {
    const unknown = (types ?? []).filter((t) => !(EVENT_TYPES as readonly string[]).includes(t));
    if (unknown.length > 0) {
      const issue = `has ${unknown.map((t) => JSON.stringify(t)).join(', ')}, not an event type (see webhookEventTypes)`;
      throw AppError.invalidRequest(`types ${issue}`, [{ field: 'types', issue }]);
    }
    return this.deps.eventFeed.stream(merchantId, types);
  }

  async kycChanges(merchantId: string, customerUuid?: string | null): Promise<AsyncIterableIterator<KycRecord>> {
    const events = await merchantEvents(this.deps.pubsub, KycTopic.StatusChanged, merchantId, (e) => !customerUuid || e.customerUuid === customerUuid);
    return mapAsyncIterator(events, this.kycOf);
  }
}
