import type { PublicAddress } from '../../../shared/public-address';
import type { AuditLog } from '../../audit/audit-log';
import type { Mailer } from '../../mail/mailer';
import { defineModule, type ModuleInfra } from '../../module';
import type { PayeesService } from '../../payees/payees.service';
import type { ReferenceService } from '../../reference/reference.service';
import { PayoutDestinationService } from './destination.service';

/** Where payouts go (issue 38, point 2): name-checked destinations per currency, changed by maker-checker (docs/payouts.md). */
export const payoutDestinationsModule = defineModule({
  name: 'payout-destinations',
  create: (
    { orm, sql, clock, logger }: Pick<ModuleInfra, 'orm' | 'sql' | 'clock' | 'logger'>,
    deps: { audit: AuditLog; mailer: Mailer; publicAddress: PublicAddress; payees: PayeesService; reference: ReferenceService },
  ) => ({ services: { payoutDestinations: new PayoutDestinationService({ orm, sql, clock, logger, ...deps }) } }),
});
