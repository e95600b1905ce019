import type { Config } from './config';
import type { Orm } from './db/orm';
import type { PubSub } from './events/pubsub';
import { AccessTokens } from './modules/auth/access-tokens';
import { OAuthService } from './modules/auth/oauth.service';
import { TokenRevocations } from './modules/auth/token-revocations';
import { MerchantService } from './modules/merchants/merchant.service';
import type { Clock } from './shared/clock';
import { SecretBox } from './shared/crypto';
import type { KeyMaterial } from './shared/keys';
import type { Logger } from './shared/logger';

/** What the service layer needs from the outside world; tests pass their own clock. */
export interface Infrastructure {
  config: Config;
  logger: Logger;
  clock: Clock;
  orm: Orm;
  pubsub: PubSub;
  keys: KeyMaterial;
}

/** The service layer: the only code that changes state. Every door calls these. */
export interface Services {
  merchants: MerchantService;
  oauth: OAuthService;
  revocations: TokenRevocations;
}

export function createServices(infra: Infrastructure): Services {
  const { config, logger, clock, orm, pubsub, keys } = infra;
  const merchants = new MerchantService(orm, clock, new SecretBox(keys.encryptionKey), logger);
  const revocations = new TokenRevocations(orm, pubsub, config.tokenRevocationPollMs, logger);
  const accessTokens = new AccessTokens(keys.tokenSigningKey, clock);
  const oauth = new OAuthService(orm, clock, merchants, accessTokens, revocations, logger);
  return { merchants, oauth, revocations };
}
