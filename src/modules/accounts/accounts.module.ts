import type { PublicAddress } from '../../shared/public-address';
import type { AuditLog } from '../audit/audit-log';
import type { MerchantAccess } from '../auth/merchant-access';
import type { OAuthService } from '../auth/oauth.service';
import type { TokenRevocations } from '../auth/token-revocations';
import type { Mailer } from '../mail/mailer';
import type { MerchantService } from '../merchants/merchant.service';
import { defineModule, type ModuleInfra } from '../module';
import { AccountService } from './account.service';
import { DemoOwnerService } from './demo-owner.service';
import { PasswordService } from './password.service';
import { warmPasswordDecoy } from './passwords';
import { SessionService } from './sessions.service';
import { SignInService } from './sign-in.service';
import { twoFactorRequired } from './two-factor-policy';

interface AccountsDeps {
  merchants: MerchantService;
  oauth: OAuthService;
  revocations: TokenRevocations;
  merchantAccess: MerchantAccess;
  audit: AuditLog;
  mailer: Mailer;
  publicAddress: PublicAddress;
}

/** People signing in as themselves (docs/access.md): sign-up, sign-in, sessions, email verification, passwords. */
export const accountsModule = defineModule({
  name: 'accounts',
  create: (infra: Pick<ModuleInfra, 'config' | 'sql' | 'clock' | 'secretBox' | 'logger'>, deps: AccountsDeps) => {
    const { config, sql, clock, secretBox, logger } = infra;
    const { merchants, oauth, revocations, merchantAccess, audit, mailer, publicAddress } = deps;
    const sessions = new SessionService({
      sql,
      clock,
      oauth,
      revocations,
      access: merchantAccess,
      logger,
      twoFactorRequired: (role, merchantRequires) => twoFactorRequired(role, merchantRequires, config.env),
    });
    const signIn = new SignInService({ sql, clock, secretBox, audit, sessions, environment: config.env });
    const accounts = new AccountService({ sql, clock, merchants, sessions, audit, mailer, publicAddress, logger, signupEnabled: config.signupEnabled });
    const passwords = new PasswordService({ sql, clock, sessions, audit, mailer, publicAddress, logger });
    const demoOwner = new DemoOwnerService({ sql, clock, sessions, audit });
    return {
      services: { accounts, signIn, passwords, sessions, demoOwner },
      // The decoy hash an unknown email is checked against is made before the doors open: the first unknown email must not pay for it.
      start: () => warmPasswordDecoy(),
    };
  },
});
