import 'reflect-metadata';
import Redis from 'ioredis';
import { instanceDeadAfterMs } from '../bootstrap';
import type { Config } from '../config';
import { withoutPassword } from '../db/database';
import { AUTOVACUUM_OFF, readDatabaseStatus, type DatabaseStatus } from '../db/database-status';
import { environmentMismatch } from '../db/deployment';
import { Sql } from '../db/sql';
import { checkCredentials } from '../providers/registry';
import { systemClock } from '../shared/clock';
import { DOCS, describeFix, type ConfigProblem } from '../shared/config-problems';
import { createLogger } from '../shared/logger';
import { checkServiceConfiguration } from '../startup-checks';
import { exitWith } from './operator-cli';

/**
 * npm run preflight (issue 41): what a production start would refuse, and what it would meet, checked without
 * starting anything or changing anything. Every check is printed, ok or FAIL with its fix and the doc's section;
 * it exits 0 only when none fails (a warning does not). The checks:
 * - the configuration: the very rules the service applies at start (startup-checks.ts), every problem listed;
 * - each configured provider's credentials: provider:check's token calls;
 * - the database: reachable, its environment stamp, migrations applied or pending, the role's rights, autovacuum;
 * - Redis: PING when REDIS_URL is set; unset, whether instances already run on the database (a second needs it).
 */
type Status = 'ok' | 'warn' | 'FAIL' | 'skip';

interface Check {
  status: Status;
  name: string;
  detail: string;
  /** With a FAIL or a warning: what to do, and where the docs say more. */
  fix?: { fix: string; doc: string };
}

const ok = (name: string, detail: string): Check => ({ status: 'ok', name, detail });
const skip = (name: string, detail: string): Check => ({ status: 'skip', name, detail });
const fail = (name: string, detail: string, fix: string, doc: string): Check => ({ status: 'FAIL', name, detail, fix: { fix, doc } });
const warn = (name: string, detail: string, fix: string, doc: string): Check => ({ status: 'warn', name, detail, fix: { fix, doc } });

/** How long the database and Redis may take to answer. */
const CONNECT_TIMEOUT_MS = 5000;

function configurationChecks(config: Config, problems: readonly ConfigProblem[]): Check[] {
  const environment =
    config.env === 'production'
      ? ok('environment', 'PAYMENTS_ENV=production')
      : warn(
          'environment',
          'PAYMENTS_ENV is sandbox: these are the sandbox’s checks, not production’s',
          'run it as the service will run: PAYMENTS_ENV=production npm run preflight',
          DOCS.environment,
        );
  if (problems.length === 0) return [environment, ok('configuration', 'every variable the service reads is set and valid')];
  return [environment, ...problems.map((p) => fail('configuration', p.problem, p.fix, p.doc))];
}

async function providerChecks(config: Config): Promise<Check[]> {
  const checks = await checkCredentials(config.connectors, { timeoutMs: config.connectors.timeoutMs, now: () => systemClock.now() });
  if (checks.length === 0) {
    return [
      config.env === 'production'
        ? fail(
            'providers',
            'no provider connector is configured: no route can move money',
            'set the variables of at least one provider (MTN MoMo, M-Pesa, Flutterwave)',
            DOCS.providers,
          )
        : ok('providers', 'none configured: the sandbox connector serves every route'),
    ];
  }
  return checks.map((c) =>
    c.ok
      ? ok(`provider ${c.name}`, `${(c.lines ?? []).join('; ')} (${c.baseUrl})`)
      : fail(
          `provider ${c.name}`,
          `${c.error} (${c.baseUrl})`,
          `check ${c.name}'s credentials and base URL with the provider (npm run provider:check makes the same calls)`,
          DOCS.providers,
        ),
  );
}

async function databaseChecks(config: Config): Promise<{ checks: Check[]; status?: DatabaseStatus }> {
  if (config.databaseUrl === undefined) {
    return {
      checks: [
        config.env === 'production' && !config.allowEmbeddedDatabase
          ? skip('database', 'DATABASE_URL is unset (see configuration)')
          : skip('database', `the embedded database under ${config.dataDir}: not checked (the service starts it)`),
      ],
    };
  }
  const shown = withoutPassword(config.databaseUrl);
  const sql = new Sql({ url: config.databaseUrl, max: 1, embedded: false, logger: createLogger('silent'), connectTimeoutMs: CONNECT_TIMEOUT_MS });
  let status: DatabaseStatus;
  try {
    status = await readDatabaseStatus(sql, instanceDeadAfterMs(config));
  } catch (err) {
    return {
      checks: [
        fail(
          'database',
          `${shown} does not answer: ${(err as Error).message}`,
          'check DATABASE_URL (host, port, user, password, database) and that the server accepts connections from here',
          DOCS.database,
        ),
      ],
    };
  } finally {
    await sql.close();
  }
  const checks = [ok('database', `${shown} answers: PostgreSQL ${status.version}`), migrationCheck(config, status)];
  if (!status.autovacuum) checks.push(warn('autovacuum', AUTOVACUUM_OFF, 'set autovacuum = on in postgresql.conf (PostgreSQL’s default)', DOCS.database));
  // Each instance holds two pools of DB_POOL_MAX and the job queue's listener.
  const perInstance = 2 * config.dbPoolMax + 1;
  if (status.maxConnections < perInstance) {
    checks.push(
      warn(
        'connections',
        `max_connections is ${status.maxConnections}, below the ${perInstance} one instance may hold (2 × DB_POOL_MAX + 1)`,
        'raise max_connections to cover every instance and the operator tools, or lower DB_POOL_MAX',
        DOCS.database,
      ),
    );
  }
  return { checks, status };
}

function migrationCheck(config: Config, status: DatabaseStatus): Check {
  if (status.stamp && status.stamp !== config.env) {
    const refusal = environmentMismatch(status.stamp, config.env, config.envExplicit);
    return fail('migrations', refusal.message, `set PAYMENTS_ENV=${status.stamp}, or point DATABASE_URL at a ${config.env} database`, DOCS.database);
  }
  if (status.unknown.length > 0) {
    return fail(
      'migrations',
      `${status.unknown.length} migration(s) applied here are unknown to this version (${status.unknown.at(-1)}): a newer version migrated this database`,
      'deploy that version or a newer one; an older version must not run on this database',
      DOCS.database,
    );
  }
  if (status.pending.length > 0 && !status.mayCreate) {
    return fail(
      'migrations',
      `${status.pending.length} migration(s) pending, and this role may not create tables (CREATE on schema public and on the database)`,
      'run the service (or npm run migrate) as the database’s owner, or grant its role CREATE on the database and on schema public',
      DOCS.database,
    );
  }
  const stamp = status.stamp ? `stamped ${status.stamp}` : `not stamped yet (the first start stamps it ${config.env})`;
  if (status.pending.length === 0) return ok('migrations', `${status.applied} applied, none pending; ${stamp}`);
  return ok(
    'migrations',
    `${status.applied} applied, ${status.pending.length} pending (the service applies them at start; or now: PAYMENTS_ENV=${config.env} npm run migrate); ${stamp}`,
  );
}

async function redisCheck(config: Config, database: DatabaseStatus | undefined): Promise<Check> {
  if (config.redisUrl === undefined) {
    const running = database?.liveInstances ?? 0;
    if (running > 0) {
      return warn(
        'redis',
        `REDIS_URL is unset and ${running} instance(s) already run on this database: another one would not share their rate limits, subscriptions or revocations`,
        'set REDIS_URL=redis://… on every instance before running more than one',
        DOCS.redis,
      );
    }
    return ok('redis', 'REDIS_URL is unset: fine for one instance (set it before running a second)');
  }
  const shown = withoutPassword(config.redisUrl, 'REDIS_URL');
  // One attempt, no retries or queued commands: an answer or an error within the timeout.
  const redis = new Redis(config.redisUrl, {
    lazyConnect: true,
    connectTimeout: CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  // The connection's own error (ECONNREFUSED, a refused password) says more than the rejection ("Connection is closed").
  let cause: Error | undefined;
  redis.on('error', (err: Error) => (cause ??= err));
  try {
    await redis.connect();
    await redis.ping();
    return ok('redis', `${shown} answers`);
  } catch (err) {
    return fail(
      'redis',
      `${shown} does not answer: ${(cause ?? (err as Error)).message}`,
      'check REDIS_URL (host, port, password) and that Redis accepts connections from here',
      DOCS.redis,
    );
  } finally {
    redis.disconnect();
  }
}

function print(check: Check): string {
  const line = `${check.status.padEnd(4)}  ${check.name}: ${check.detail}`;
  return check.fix ? `${line}\n${describeFix(check.fix, ' '.repeat(6))}` : line;
}

async function preflight(): Promise<number> {
  const { config, problems } = checkServiceConfiguration(process.env);
  process.stdout.write(`preflight: PAYMENTS_ENV=${config.env}; nothing is started or changed\n`);
  const checks = configurationChecks(config, problems);
  checks.push(...(await providerChecks(config)));
  const database = await databaseChecks(config);
  checks.push(...database.checks, await redisCheck(config, database.status));
  process.stdout.write(`${checks.map(print).join('\n')}\n`);
  const failed = checks.filter((c) => c.status === 'FAIL').length;
  const warned = checks.filter((c) => c.status === 'warn').length;
  const warnings = warned > 0 ? ` (${warned} warning${warned > 1 ? 's' : ''})` : '';
  process.stdout.write(
    failed === 0
      ? `preflight: every check passed${warnings}\n`
      : `preflight: ${failed} of ${checks.length} checks failed${warnings}: fix them and run it again (${DOCS.checklist})\n`,
  );
  return failed === 0 ? 0 : 1;
}

exitWith('preflight', preflight());
