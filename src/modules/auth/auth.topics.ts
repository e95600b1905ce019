import { defineTopic } from '../../events/pubsub';

/** The auth module's pub/sub topics: what every instance must forget at once. */
export const AuthTopic = {
  TokenFamilyRevoked: defineTopic<{ familyId: string }>('auth.token_family_revoked'),
  /** A merchant was disabled or enabled: every instance forgets what it cached of its status. */
  MerchantAccessChanged: defineTopic<{ merchantId: string }>('auth.merchant_access_changed'),
};
