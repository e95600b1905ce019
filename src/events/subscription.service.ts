import type { KycRecord, KycService } from '../modules/kyc/kyc.service';
import type { Transaction } from '../modules/transactions/transaction.entity';
import type { TransactionService } from '../modules/transactions/transaction.service';
import { merchantEvents } from './merchant-events';
import { Topic, type PubSub } from './pubsub';

/** Maps each item of an async iterator (in order), passing completion through. */
function mapAsync<A, B>(source: AsyncIterableIterator<A>, fn: (a: A) => Promise<B>): AsyncIterableIterator<B> {
  const iterator: AsyncIterableIterator<B> = {
    next: async () => {
      const item = await source.next();
      return item.done ? { value: undefined, done: true } : { value: await fn(item.value), done: false };
    },
    return: async () => {
      await source.return?.();
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}

/**
 * What GraphQL subscriptions stream: a merchant's own status changes, each as
 * the current record (the same one the status endpoints return), loaded fresh
 * after the commit that published it.
 */
export class SubscriptionService {
  constructor(
    private readonly pubsub: PubSub,
    private readonly transactions: TransactionService,
    private readonly kyc: KycService,
  ) {}

  /** All of the merchant's transactions, or one (by the service's reference or the merchant's). */
  async transactionChanges(merchantId: string, reference?: string | null): Promise<AsyncIterableIterator<Transaction>> {
    const events = await merchantEvents(this.pubsub, Topic.TransactionStatusChanged, merchantId, (e) =>
      !reference || e.reference === reference || e.externalReference === reference,
    );
    return mapAsync(events, (e) => this.transactions.getTransactionDetached(merchantId, e.reference));
  }

  async kycChanges(merchantId: string, customerUuid?: string | null): Promise<AsyncIterableIterator<KycRecord>> {
    const events = await merchantEvents(this.pubsub, Topic.KycStatusChanged, merchantId, (e) => !customerUuid || e.customerUuid === customerUuid);
    return mapAsync(events, (e) => this.kyc.getKycDetached(merchantId, e.customerUuid));
  }
}
