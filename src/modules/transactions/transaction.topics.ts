import { defineTopic } from '../../events/pubsub';
import type { TransactionWire } from './transaction.record';

/** The transactions module's pub/sub topics. */
export const TransactionTopic = {
  /** A transaction's status changed (published after the commit). Carries the record itself, so no subscriber reads it again from the database. */
  StatusChanged: defineTopic<{ merchantId: string; reference: string; externalReference: string; transaction: TransactionWire }>('transaction.status_changed'),
};
