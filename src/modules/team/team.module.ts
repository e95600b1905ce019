import type { PublicAddress } from '../../shared/public-address';
import type { AuditLog } from '../audit/audit-log';
import type { TokenRevocations } from '../auth/token-revocations';
import type { Mailer } from '../mail/mailer';
import { defineModule, type ModuleInfra } from '../module';
import { InvitationService } from './invitation.service';
import { TeamService } from './team.service';
import { TwoFactorService } from './two-factor.service';

/** The team (members, roles, ownership, the 2FA requirement), invitations, and each person's own 2FA enrolment (docs/access.md). */
export const teamModule = defineModule({
  name: 'team',
  create: (
    { config, orm, sql, clock, secretBox }: Pick<ModuleInfra, 'config' | 'orm' | 'sql' | 'clock' | 'secretBox'>,
    { audit, mailer, revocations, publicAddress }: { audit: AuditLog; mailer: Mailer; revocations: TokenRevocations; publicAddress: PublicAddress },
  ) => ({
    services: {
      team: new TeamService({ orm, sql, clock, audit, revocations }),
      invitations: new InvitationService({ orm, sql, clock, audit, mailer, publicAddress }),
      twoFactor: new TwoFactorService({ orm, clock, secretBox, audit, production: config.env === 'production' }),
    },
  }),
});
