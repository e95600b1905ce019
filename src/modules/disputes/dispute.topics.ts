import { defineTopic } from '../../events/pubsub';
import type { DisputeWire } from './dispute.record';

/** The disputes module's pub/sub topics. */
export const DisputeTopic = {
  /** A merchant's dispute changed (published after the commit): GraphQL's disputeChanged. */
  Changed: defineTopic<{ merchantId: string; dispute: DisputeWire }>('disputes.changed'),
};
