import type { PaymentsEnv } from '../config';
import type { Sql } from './sql';

/**
 * The environment a database belongs to (issue 34): the one-row `deployment` table, stamped by
 * its migration with the PAYMENTS_ENV of the process that applied it. Null when the table is not
 * there yet (a database made before it, not yet migrated) or holds no row.
 */
export async function readDeploymentStamp(sql: Sql): Promise<PaymentsEnv | null> {
  try {
    const [row] = await sql.query<{ environment: PaymentsEnv }>('select environment from deployment');
    return row?.environment ?? null;
  } catch (err) {
    // 42P01 undefined_table: the stamp's migration has not run on this database yet.
    if ((err as { code?: string }).code === '42P01') return null;
    throw err;
  }
}

/** Whether any migration has run here: a database in use (not a new, empty one). */
export async function hasMigrated(sql: Sql): Promise<boolean> {
  const [row] = await sql.query<{ exists: boolean }>(`select to_regclass('mikro_orm_migrations') is not null as exists`);
  return row?.exists === true;
}

/** The refusal when the process's environment is not the database's. */
export class EnvironmentMismatchError extends Error {
  override readonly name = 'EnvironmentMismatchError';
  readonly database: PaymentsEnv;
  readonly process: PaymentsEnv;

  constructor({ message, database, process }: { message: string; database: PaymentsEnv; process: PaymentsEnv }) {
    super(message);
    this.database = database;
    this.process = process;
  }
}

/** The refusal when the process's environment is not the database's: says both, and what to do. */
export function environmentMismatch(database: PaymentsEnv, process: PaymentsEnv, explicit: boolean): EnvironmentMismatchError {
  const said = explicit ? `PAYMENTS_ENV is ${process}` : `PAYMENTS_ENV is unset, which means ${process}`;
  return new EnvironmentMismatchError({
    message:
      `This database belongs to ${database} (its deployment stamp) but ${said}: refusing to work on it, nothing was read or changed. ` +
      `Set PAYMENTS_ENV=${database} to work on this ${database} database, or point DATABASE_URL (or DATA_DIR) at a ${process} one`,
    database,
    process,
  });
}

/** The refusal of an operator tool on a database this version has not stamped yet (it must not stamp it with a guess). */
export function unstampedDatabase(): Error {
  return new Error(
    'This database has no environment stamp yet (it was made before the stamp existed): an operator tool does not stamp it. ' +
      'Start the service on it, or run `npm run migrate` with PAYMENTS_ENV set to the environment it belongs to, then run this again',
  );
}
