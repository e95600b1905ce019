import type { Role } from '../access/permissions';
import type { MerchantService } from '../merchants/merchant.service';
import { defineModule, type ModuleInfra } from '../module';
import { AccessTokens } from './access-tokens';
import { AuthTopic } from './auth.topics';
import { MerchantAccess } from './merchant-access';
import { OAuthService } from './oauth.service';
import { TokenRevocations } from './token-revocations';
import { ApiKeys } from './api-keys';
import type { AuditLog } from '../audit/audit-log';
import { twoFactorRequiredFor } from '../team/team.rules';

/** OAuth: tokens, their revocation (heard by every instance), and whether a token's merchant may still act. */
export const authModule = defineModule({
  name: 'auth',
  topics: Object.values(AuthTopic),
  create: (
    infra: Pick<ModuleInfra, 'config' | 'orm' | 'sql' | 'clock' | 'pubsub' | 'keys' | 'logger'>,
    { merchants, audit }: { merchants: MerchantService; audit: AuditLog },
  ) => {
    const { config, orm, sql, clock, pubsub, keys, logger } = infra;
    const revocations = new TokenRevocations({ orm, pubsub, pollMs: config.tokenRevocationPollMs, logger });
    const accessTokens = new AccessTokens({ signingKey: keys.tokenSigningKey, clock });
    const merchantAccess = new MerchantAccess({ sql, pubsub, logger });
    // A person's refreshed token may only enrol while their merchant (or production, for their role) requires 2FA they lack.
    const production = config.env === 'production';
    const twoFactorRequired = (role: Role, merchantRequires: boolean) => twoFactorRequiredFor(production, role, merchantRequires);
    const oauth = new OAuthService({ orm, sql, clock, merchants, accessTokens, revocations, access: merchantAccess, logger, twoFactorRequired, audit });
    return {
      services: { oauth, revocations, merchantAccess, apiKeys: new ApiKeys({ sql, clock, revocations, audit }) },
      start: async () => {
        await revocations.start();
        await merchantAccess.start();
      },
      stop: async () => {
        await revocations.stop();
        await merchantAccess.stop();
      },
    };
  },
});
