import { defineModule, type ModuleInfra } from '../module';
import { ReferenceService } from './reference.service';

/** Countries, currencies, channels, networks: read into memory once at start. */
export const referenceModule = defineModule({
  name: 'reference',
  create: ({ orm }: Pick<ModuleInfra, 'orm'>, _deps: object) => {
    const reference = new ReferenceService({ orm });
    return { services: { reference }, start: () => reference.load() };
  },
});
