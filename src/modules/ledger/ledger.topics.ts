import { defineTopic } from '../../events/pubsub';

/** The ledger module's pub/sub topics. */
export const LedgerTopic = {
  /** A merchant's balance in a currency changed (published after the commit). */
  BalanceChanged: defineTopic<{ merchantId: string; currency: string }>('ledger.balance_changed'),
  /** An operator changed a merchant's fees: every instance forgets what it cached of them. */
  FeeScheduleChanged: defineTopic<{ merchantId: string }>('ledger.fee_schedule_changed'),
};
