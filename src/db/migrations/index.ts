import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122000000_foundation } from './Migration20261122000000_foundation';

/** Every migration, in order. Listed explicitly so the same list runs from TypeScript (tests) and compiled JS. */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261122000000_foundation', class: Migration20261122000000_foundation },
];
