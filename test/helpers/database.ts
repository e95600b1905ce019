import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { openStorage } from '../../src/bootstrap';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/shared/logger';

/** The server tests create their databases on. CI and the README use the local PostgreSQL. */
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

type Environment = 'sandbox' | 'production';

/** The keys every test service starts with (createTestApp's), and the template's migration with them. */
export const TEST_SERVICE_KEYS = {
  TOKEN_SIGNING_KEY: 'test-signing-key-0123456789abcdefghijklmnopqrstuvwxyz',
  ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
};

/** The environment a test service's variables ask for (sandbox unless PAYMENTS_ENV says production). */
export const environmentOf = (env: Record<string, string> = {}): Environment => (env.PAYMENTS_ENV === 'production' ? 'production' : 'sandbox');

export interface TestDatabaseOptions {
  /**
   * A database already migrated for this environment (stamped with it), copied from a template
   * (`CREATE DATABASE … TEMPLATE`) instead of migrated afresh: the service's start then finds
   * nothing to apply. Without it the database is empty, for the tests of migrations and stamps.
   */
  migrated?: Environment;
}

function urlOf(name: string): string {
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A brand-new database on the real server: empty (the app under test migrates it), or a migrated template's copy. */
export async function createTestDatabase(opts: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const name = `pg_test_${randomBytes(6).toString('hex')}`;
  const template = opts.migrated ? await migratedTemplate(opts.migrated) : undefined;
  await admin((client) => client.query(`create database ${name}${template ? ` template ${template}` : ''}`));
  return {
    url: urlOf(name),
    async drop() {
      // KEEP_TEST_DATABASES=1 keeps them, to inspect afterwards (npm run ledger:verify with DATABASE_URL on one).
      if (process.env.KEEP_TEST_DATABASES === '1') return;
      await admin((client) => client.query(`drop database if exists ${name} with (force)`));
    },
  };
}

/**
 * What a template is built from: the service's migrations and the job queue's version. A change to
 * either names a new template; older ones are dropped when the next one is built.
 */
function migrationsHash(): string {
  const hash = createHash('sha256');
  const dir = join(__dirname, '../../src/db/migrations');
  for (const file of readdirSync(dir).sort()) hash.update(file).update(readFileSync(join(dir, file)));
  hash.update(readFileSync(require.resolve('graphile-worker/package.json')));
  return hash.digest('hex').slice(0, 12);
}

let hash: string | undefined;
const built = new Map<Environment, Promise<string>>();

/** The template's name, built by the first worker that asks (under an advisory lock: the others wait and reuse it). */
function migratedTemplate(environment: Environment): Promise<string> {
  let template = built.get(environment);
  if (!template) {
    template = buildTemplate(environment);
    built.set(environment, template);
    template.catch(() => built.delete(environment));
  }
  return template;
}

/** Other migrations' templates kept (two per migration set: sandbox and production). */
const KEPT_TEMPLATES = 8;

async function buildTemplate(environment: Environment): Promise<string> {
  hash ??= migrationsHash();
  const name = `pg_tpl_${hash}_${environment}`;
  return admin(async (client) => {
    await client.query(`select pg_advisory_lock(hashtext('pg_test_templates'))`);
    try {
      const exists = await client.query(`select 1 from pg_database where datname = $1`, [name]);
      if (exists.rowCount) return name;
      // Templates of other migrations (an older checkout's, or another worktree's running now): the newest few are
      // kept, so that runs of different branches side by side do not drop each other's; older ones are dropped
      // unless a run is copying one now. Database oids grow with creation, so the newest have the largest.
      const stale = await client.query<{ datname: string }>(
        `select datname from pg_database where datname like 'pg\\_tpl\\_%' and datname <> all($1) order by oid desc offset ${KEPT_TEMPLATES}`,
        [[`pg_tpl_${hash}_sandbox`, `pg_tpl_${hash}_production`]],
      );
      for (const { datname } of stale.rows) await client.query(`drop database if exists ${datname}`).catch(() => undefined);
      // Built under another name and renamed once whole: a build that dies half-way leaves no template.
      const building = `pg_tplb_${randomBytes(6).toString('hex')}`;
      await client.query(`create database ${building}`);
      try {
        await migrate(urlOf(building), environment);
        await client.query(`alter database ${building} rename to ${name}`);
      } catch (err) {
        await client.query(`drop database if exists ${building} with (force)`);
        throw err;
      }
      return name;
    } finally {
      await client.query(`select pg_advisory_unlock(hashtext('pg_test_templates'))`);
    }
  });
}

/** The service's own storage start (job schema, migrations, stamp, reference data) on `url`, then every connection closed. */
async function migrate(url: string, environment: Environment): Promise<void> {
  const config = loadConfig({
    PAYMENTS_ENV: environment,
    DATABASE_URL: url,
    ...TEST_SERVICE_KEYS,
    DB_POOL_MAX: '2',
  });
  const { database, orm, sql } = await openStorage(config, createLogger('silent'));
  await sql.close();
  await orm.close();
  await database.close();
}
