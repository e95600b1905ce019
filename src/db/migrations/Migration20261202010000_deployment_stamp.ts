import { Migration } from '@mikro-orm/migrations';
import type { PaymentsEnv } from '../../config';

/**
 * Issue 34: the database says which environment it belongs to. One row, `deployment`, stamped with
 * the environment (PAYMENTS_ENV) of the process that applies this migration: on a new database, the
 * process that migrates it first; on a database made before this migration, the first process of
 * this version to start on it (docs/operations.md, "Environment stamp"). The service and every
 * operator tool compare it with their own environment before anything else (src/db/deployment.ts).
 * The class is made per environment (migrationsFor): a migration has no other way to learn it.
 */
export function deploymentStampMigration(environment: PaymentsEnv) {
  // An enum value, checked again by the table's constraint: safe to write into the statement.
  if (environment !== 'sandbox' && environment !== 'production') throw new Error(`not an environment: ${String(environment)}`);
  return class Migration20261202010000_deployment_stamp extends Migration {
    override async up(): Promise<void> {
      this.addSql(`
        create table deployment (
          singleton boolean primary key default true check (singleton),
          environment text not null check (environment in ('sandbox', 'production')),
          stamped_at timestamptz not null default now()
        );`);
      this.addSql(`insert into deployment (environment) values ('${environment}');`);
    }

    override async down(): Promise<void> {
      this.addSql('drop table if exists deployment;');
    }
  };
}
