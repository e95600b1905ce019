import { ListenerPresence, ListenerPresenceTopic } from '../../events/listener-presence';
import type { KycService } from '../kyc/kyc.service';
import type { LedgerService } from '../ledger/ledger.service';
import type { EventFeed } from '../webhooks/event-feed';
import { defineModule, type ModuleInfra } from '../module';
import { SubscriptionService } from './subscription.service';

/**
 * What GraphQL subscriptions stream, and which merchants have transaction subscribers on some
 * instance (`listeners`: the transactions module publishes a creation only when someone listens).
 */
export const subscriptionsModule = defineModule({
  name: 'subscriptions',
  topics: [ListenerPresenceTopic],
  create: ({ pubsub }: Pick<ModuleInfra, 'pubsub'>, { kyc, ledger, eventFeed }: { kyc: KycService; ledger: LedgerService; eventFeed: EventFeed }) => {
    const listeners = new ListenerPresence({ pubsub });
    return {
      services: { subscriptions: new SubscriptionService({ pubsub, kyc, ledger, presence: listeners, eventFeed }), listeners },
      start: () => listeners.start(),
      stop: () => listeners.stop(),
    };
  },
});
