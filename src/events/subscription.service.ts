import type { KycRecord, KycService } from '../modules/kyc/kyc.service';
import { fromWire, type Transaction } from '../modules/transactions/transaction.record';
import { mapAsyncIterator } from '../shared/async-iterator';
import { merchantEvents } from './merchant-events';
import { Topic, type PubSub } from './pubsub';

/**
 * What GraphQL subscriptions stream: a merchant's own status changes, each as
 * the record the status endpoints return. A transaction's record travels in the
 * event itself (as committed); a KYC record is read after the commit that published it.
 */
export class SubscriptionService {
  constructor(
    private readonly pubsub: PubSub,
    private readonly kyc: KycService,
  ) {}

  /** All of the merchant's transactions, or one (by the service's reference or the merchant's). */
  async transactionChanges(merchantId: string, reference?: string | null): Promise<AsyncIterableIterator<Transaction>> {
    const events = await merchantEvents(
      this.pubsub,
      Topic.TransactionStatusChanged,
      merchantId,
      (e) => !reference || e.reference === reference || e.externalReference === reference,
    );
    return mapAsyncIterator(events, async (e) => fromWire(e.transaction));
  }

  async kycChanges(merchantId: string, customerUuid?: string | null): Promise<AsyncIterableIterator<KycRecord>> {
    const events = await merchantEvents(this.pubsub, Topic.KycStatusChanged, merchantId, (e) => !customerUuid || e.customerUuid === customerUuid);
    return mapAsyncIterator(events, (e) => this.kyc.getKycDetached(merchantId, e.customerUuid));
  }
}
