import type { PaymentsEnv } from '../config';
import { hasMigrated, readDeploymentStamp } from './deployment';
import { migrationsFor } from './migrations';
import type { Sql } from './sql';

/** What a PostgreSQL database says of itself, read without changing anything (npm run preflight). */
export interface DatabaseStatus {
  /** server_version. */
  version: string;
  /** Whether autovacuum is on (AUTOVACUUM_OFF). */
  autovacuum: boolean;
  maxConnections: number;
  /** The environment it is stamped with; null before the first start (or `npm run migrate`) stamps it. */
  stamp: PaymentsEnv | null;
  /** How many of this version's migrations have been applied. */
  applied: number;
  /** This version's migrations not applied yet: the service applies them at start. */
  pending: string[];
  /** Migrations applied here that this version does not know: a newer version migrated it. */
  unknown: string[];
  /** Whether this role may create what the pending migrations (and the job queue's schema) create. */
  mayCreate: boolean;
  /** Job worker pools whose heartbeat is fresh: the instances of the service running on it now. */
  liveInstances: number;
}

/** Why autovacuum matters: what the service logs at start and preflight warns when it is off. */
export const AUTOVACUUM_OFF =
  "PostgreSQL's autovacuum is off: the job queue's dead rows are never reclaimed, and latency grows with the database's age; turn it on";

/** The migrations' names are the same in either environment (only the stamp's content differs). */
const MIGRATIONS = migrationsFor('sandbox').map((m) => m.name);

/** Reads the status; `liveWithinMs`: how recent a heartbeat must be for its instance to count as running. */
export async function readDatabaseStatus(sql: Sql, liveWithinMs: number): Promise<DatabaseStatus> {
  const [server] = await sql.query<{ version: string; autovacuum: string; max_connections: string; may_create: boolean; has_instances: boolean }>(
    `select current_setting('server_version') as version, current_setting('autovacuum') as autovacuum,
            current_setting('max_connections') as max_connections,
            has_schema_privilege('public', 'CREATE')
              and (to_regnamespace('graphile_worker') is not null or has_database_privilege(current_database(), 'CREATE')) as may_create,
            to_regclass('job_worker_instance') is not null as has_instances`,
  );
  const stamp = await readDeploymentStamp(sql);
  const applied = (await hasMigrated(sql)) ? (await sql.query<{ name: string }>('select name from mikro_orm_migrations')).map((r) => r.name) : [];
  const done = new Set(applied);
  const known = new Set(MIGRATIONS);
  const [instances] = server!.has_instances
    ? await sql.query<{ count: number }>('select count(*)::int as count from job_worker_instance where heartbeat_at >= now() - make_interval(secs => $1)', [
        liveWithinMs / 1000,
      ])
    : [{ count: 0 }];
  return {
    version: server!.version,
    autovacuum: server!.autovacuum === 'on',
    maxConnections: Number(server!.max_connections),
    stamp,
    applied: MIGRATIONS.filter((name) => done.has(name)).length,
    pending: MIGRATIONS.filter((name) => !done.has(name)),
    unknown: applied.filter((name) => !known.has(name)),
    mayCreate: server!.may_create,
    liveInstances: instances?.count ?? 0,
  };
}
