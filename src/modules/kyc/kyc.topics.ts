import { defineTopic } from '../../events/pubsub';

/** The KYC module's pub/sub topics. */
export const KycTopic = {
  /** A customer's KYC status changed (published after the commit). */
  StatusChanged: defineTopic<{ merchantId: string; customerUuid: string }>('kyc.status_changed'),
};
