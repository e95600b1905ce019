import type { RecordOf } from '../../shared/records';
import { CustomerRest } from './customer.definition';
import type { Customer } from './customer.entity';

/** The customer as REST answers it: a view of its definition (customer.definition.ts). */
export const CustomerRecord = CustomerRest.registered();

export const serializeCustomer: (customer: Customer) => RecordOf<typeof CustomerRecord> = CustomerRest.serialize;
