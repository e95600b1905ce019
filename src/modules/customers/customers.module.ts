import { defineModule, type ModuleInfra } from '../module';
import type { ReferenceService } from '../reference/reference.service';
import { CustomerService } from './customer.service';

/** A merchant's customers (KYC is its own module). */
export const customersModule = defineModule({
  name: 'customers',
  create: ({ orm, sql, clock }: Pick<ModuleInfra, 'orm' | 'sql' | 'clock'>, { reference }: { reference: ReferenceService }) => ({
    services: { customers: new CustomerService({ orm, sql, clock, reference }) },
  }),
});
