import { MikroORM, ReflectMetadataProvider } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import type { Logger } from '../shared/logger';
import { entities } from './entities';
import type { PaymentsEnv } from '../config';
import { migrationsFor } from './migrations';

export type Orm = MikroORM<PostgreSqlDriver>;

/** `environment`: the process's PAYMENTS_ENV, stamped on the database by the migration that creates `deployment`. */
export async function createOrm(clientUrl: string, poolMax: number, logger: Logger, environment: PaymentsEnv): Promise<Orm> {
  return MikroORM.init<PostgreSqlDriver>({
    driver: PostgreSqlDriver,
    clientUrl,
    entities,
    metadataProvider: ReflectMetadataProvider,
    discovery: { disableDynamicFileAccess: true },
    extensions: [Migrator],
    migrations: { migrationsList: migrationsFor(environment), tableName: 'mikro_orm_migrations', transactional: true, allOrNothing: true },
    pool: { min: 0, max: poolMax },
    forceUtcTimezone: true,
    // A request must work on its own fork (RequestContext); touching the global
    // EntityManager is a bug, and this makes it fail loudly.
    allowGlobalContext: false,
    debug: false,
    logger: (message) => logger.debug({ orm: true }, message),
  });
}

/**
 * Runs fn while holding a PostgreSQL session advisory lock, so that several
 * instances starting together against one database run migrations and first-start
 * seeding one at a time.
 */
export async function withAdvisoryLock<T>(orm: Orm, key: number, fn: () => Promise<T>): Promise<T> {
  const knex = orm.em.getConnection().getKnex();
  const conn = await knex.client.acquireConnection();
  try {
    await conn.query('select pg_advisory_lock($1)', [key]);
    try {
      return await fn();
    } finally {
      await conn.query('select pg_advisory_unlock($1)', [key]);
    }
  } finally {
    await knex.client.releaseConnection(conn);
  }
}

export const LOCK_KEYS = { migrate: 7_310_001, seed: 7_310_002, reference: 7_310_003, jobs: 7_310_004 } as const;

export async function migrate(orm: Orm): Promise<string[]> {
  return withAdvisoryLock(orm, LOCK_KEYS.migrate, async () => {
    const applied = await orm.getMigrator().up();
    return applied.map((m) => m.name);
  });
}
