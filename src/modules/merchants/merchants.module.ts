import { DomainEvent } from '../../events/domain-event';
import type { PublicAddress } from '../../shared/public-address';
import type { AuditLog } from '../audit/audit-log';
import { defineModule, type ModuleInfra } from '../module';
import { MerchantService } from './merchant.service';

/**
 * Merchants and their credentials. `merchantCreated` is how other modules act on a new merchant
 * (the ledger's opening balance) without the merchants module knowing them.
 */
export const merchantsModule = defineModule({
  name: 'merchants',
  create: (
    { orm, clock, secretBox, logger }: Pick<ModuleInfra, 'orm' | 'clock' | 'secretBox' | 'logger'>,
    { audit, publicAddress }: { audit: AuditLog; publicAddress: PublicAddress },
  ) => {
    const merchantCreated = new DomainEvent<{ merchantId: string }>('merchant.created');
    return { services: { merchants: new MerchantService({ orm, clock, secretBox, logger, audit, publicAddress, created: merchantCreated }), merchantCreated } };
  },
});
