import { defineModule } from '../module';
import type { Rails } from '../rails/rails';
import type { ReferenceService } from '../reference/reference.service';
import { PayeesService } from './payees.service';

/** Banks by their local codes, account holders' names and the transfers' name check (CONTRACT §6b). */
export const payeesModule = defineModule({
  name: 'payees',
  create: (_infra: object, { reference, rails }: { reference: ReferenceService; rails: Rails }) => {
    return { services: { payees: new PayeesService({ reference, rails }) } };
  },
});
