import type { FeeSchedule } from '../ledger/fee-schedule';
import { defineModule, type ModuleInfra } from '../module';
import type { ReferenceService } from '../reference/reference.service';
import { readRateTable } from './rate-table';
import { RatesService } from './rates.service';

/** FX quotes from the rate table (data/rates.json), priced with the merchant's fees. */
export const ratesModule = defineModule({
  name: 'rates',
  create: ({ orm, clock }: Pick<ModuleInfra, 'orm' | 'clock'>, { reference, fees }: { reference: ReferenceService; fees: FeeSchedule }) => ({
    services: { rates: new RatesService({ orm, clock, reference, table: readRateTable(), fees }) },
  }),
});
