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

/** What SubscriptionService is built with (its module's factory passes it). */
export interface SubscriptionServiceDeps {
  pubsub: PubSub;
  kyc: KycService;
  ledger: LedgerService;
  /** Told of each transaction stream, so that creations are published only when someone listens. */
  presence: ListenerPresence;
}

/**
 * What GraphQL subscriptions stream: a merchant's own status changes, each as
 * the record the status endpoints return. A transaction's record travels in the
 * event itself (as committed); a KYC record is read after the commit that published it.
 */
export class SubscriptionService {
  constructor(private readonly deps: SubscriptionServiceDeps) {}

  /** The merchant's balance in a currency (one, or every one when omitted), read after each change commits. */
  async balanceChanges(merchantId: string, currency?: string | null): Promise<AsyncIterableIterator<Balance>> {
    const events = await merchantEvents(this.deps.pubsub, LedgerTopic.BalanceChanged, merchantId, (e) => !currency || e.currency === currency);
    return mapAsyncIterator(events, (e) => this.deps.ledger.balance(merchantId, e.currency));
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
    return mapAsyncIterator(events, async (e) => fromWire(e.transaction));
  }

  async kycChanges(merchantId: string, customerUuid?: string | null): Promise<AsyncIterableIterator<KycRecord>> {
    const events = await merchantEvents(this.deps.pubsub, KycTopic.StatusChanged, merchantId, (e) => !customerUuid || e.customerUuid === customerUuid);
    return mapAsyncIterator(events, (e) => this.deps.kyc.getKycDetached(merchantId, e.customerUuid));
  }
}
