import net from 'node:net';
import { RequestContext } from '@mikro-orm/core';
import type { DestinationStream } from 'pino';
import { createApp, type App } from './app';
import type { Config } from './config';
import { openDatabase } from './db/database';
import { AUTOVACUUM_OFF } from './db/database-status';
import { EnvironmentMismatchError, environmentMismatch, hasMigrated, readDeploymentStamp, unstampedDatabase } from './db/deployment';
import { LOCK_KEYS, createOrm, migrate, withAdvisoryLock, type Orm } from './db/orm';
import { createPubSub, type PubSub } from './events/pubsub';
import { Sql } from './db/sql';
import { JOB_CATALOGUE } from './job-catalogue';
import { JobRunner, migrateJobSchema } from './jobs/job-runner';
import { Metrics } from './observability/metrics';
import type { MerchantCredentials } from './modules/merchants/merchant.service';
import type { DemoOwner } from './modules/accounts/demo-owner.service';
import { seedReferenceData } from './modules/reference/reference.seed';
import { assertServiceStartable } from './startup-checks';
import { systemClock, type Clock } from './shared/clock';
import { Faults } from './shared/faults';
import { resolveKeys } from './shared/keys';
import { createLogger, type Logger } from './shared/logger';
import { serializeCredentials } from './modules/merchants/merchant.serializer';
import { jobHandlers, startSweeps } from './workers';

/** How openStorage holds the process to the database's environment stamp (issue 34, src/db/deployment.ts). */
export interface StorageOptions {
  reuseRunning?: boolean;
  mustExist?: boolean;
  /**
   * `config` (default): the process's PAYMENTS_ENV must be the database's, or nothing is done.
   * `database`: the database decides (ledger:verify); only an explicitly set PAYMENTS_ENV that disagrees is refused.
   */
  environment?: 'config' | 'database';
  /** False for operator tools: a database in use that has no stamp yet is refused, not stamped with the shell's guess. */
  mayStamp?: boolean;
}

/**
 * Database, ORM, migrations and reference data: what the service and every CLI need first. Before
 * anything is migrated or read, the database's environment stamp is compared with the process's;
 * `environment` is the database's (the one just stamped, on a database this process migrated first).
 */
export async function openStorage(config: Config, logger: Logger, opts: StorageOptions = {}) {
  const database = await openDatabase(config, logger, opts);
  let orm: Orm | undefined;
  let sql: Sql | undefined;
  try {
    const direct = new Sql({ url: database.url, max: config.dbPoolMax, embedded: database.embedded, logger });
    sql = direct;
    const stamped = await readDeploymentStamp(direct);
    if (stamped && stamped !== config.env && (opts.environment !== 'database' || config.envExplicit)) {
      throw environmentMismatch(stamped, config.env, config.envExplicit);
    }
    if (!stamped && opts.mayStamp === false && (await hasMigrated(direct))) throw unstampedDatabase();
    const environment = stamped ?? config.env;
    orm = await createOrm(database.url, config.dbPoolMax, logger, environment);
    // The job queue's schema first: the service's own migrations may add jobs.
    await withAdvisoryLock(orm, LOCK_KEYS.jobs, () => migrateJobSchema(direct, logger));
    const applied = await migrate(orm);
    if (applied.length > 0) logger.info({ applied }, 'migrations applied');
    // Stamped just now by this process, or by another that migrated it at the same time: compared again.
    const now = stamped ?? (await readDeploymentStamp(direct));
    if (!now) throw new Error('the database has no environment stamp after its migrations (the deployment table is empty)');
    if (now !== environment) throw environmentMismatch(now, config.env, config.envExplicit);
    await seedReferenceData(orm, logger);
    return { database, orm, sql, environment: now };
  } catch (err) {
    await sql?.close();
    await orm?.close();
    await database.close();
    throw err;
  }
}

export interface RunningService {
  url: string;
  app: App;
  orm: Orm;
  close(): Promise<void>;
}

/** The whole service: storage, keys, pub/sub, the app, and the sandbox's first-start demo merchant. */
export async function startService(
  config: Config,
  opts: { clock?: Clock; logDestination?: DestinationStream; print?: (text: string) => void } = {},
): Promise<RunningService> {
  // Every variable the service needs and lacks, named at once, before anything is opened or written.
  assertServiceStartable(config);
  const logger = createLogger(config.logLevel, opts.logDestination);
  // Before anything is written (keys, the database, the demo merchant whose client secret is shown once).
  await assertPortFree(config.port, config.host);
  const keys = resolveKeys(config, logger);
  const { database, orm, sql } = await openStorage(config, logger).catch((err: unknown) => {
    // A production server on a sandbox database (or the reverse) never starts: one plain line, then the exit.
    if (err instanceof EnvironmentMismatchError) logger.fatal({ database: err.database, env: err.process }, `refusing to start: ${err.message}`);
    throw err;
  });
  if (!database.embedded) await warnOnServerSettings(sql, logger);
  const pubsub: PubSub = createPubSub(config.redisUrl, logger);
  const jobs = new JobRunner({
    catalogue: JOB_CATALOGUE,
    sql,
    logger,
    settings: {
      concurrency: config.jobConcurrency,
      pollIntervalMs: config.jobPollIntervalMs,
      heartbeatMs: config.jobHeartbeatMs,
      deadAfterMs: instanceDeadAfterMs(config),
      // A job in flight at shutdown may finish, as long as a webhook attempt may (WebhookPump), within the shutdown's deadline.
      drainMs: Math.min(config.webhookTimeoutMs + 1000, config.shutdownTimeoutMs),
    },
    embedded: database.embedded,
  });
  const faults = new Faults(config.faultInject);
  const metrics = new Metrics({ sql, orm, jobs, logger, poolMax: config.dbPoolMax });
  const app = await createApp({ config, logger, clock: opts.clock ?? systemClock, orm, sql, pubsub, keys, jobs, faults, metrics });
  await jobs.prepare();
  await jobs.start(jobHandlers(app.services, orm));
  // Webhook deliveries and settlements are queues of their own rows (issue 40), each with its own workers beside the jobs'.
  await app.services.webhookPump.start({ embedded: database.embedded });
  app.services.settlementPump.start({ inContext: (fn) => RequestContext.create(orm.em, fn) });
  const sweeps = startSweeps(
    app.services,
    Math.max(100, Math.floor(config.reconcileAfterMs / 2)),
    (err) => logger.warn({ err: err.message }, 'sweep failed; the next one tries again'),
    config.ledgerVerifyIntervalS * 1000,
  );

  if (config.env === 'sandbox') {
    // Merchants made before the books existed, or whose opening balance a crash cut short, get it now.
    await app.services.ledger.openUnopenedMerchants();
    const { merchants, demoOwner } = app.services;
    // Its owner, who signs in to the dashboard: made with the merchant (or, on a database from before people existed, now).
    const { made: demo, then: owner } = await RequestContext.create(orm.em, () => merchants.ensureDemoMerchant((merchantId) => demoOwner.ensure(merchantId)));
    if (demo || owner) (opts.print ?? ((t) => process.stdout.write(t)))(demoBanner(demo, owner));
  }

  const url = await app.listen(config.port, config.host);
  logger.info({ url, env: config.env, database: database.embedded ? 'embedded' : 'external' }, 'payments gateway listening');
  return {
    url,
    app,
    orm,
    async close() {
      // Graceful: not ready (load balancers stop sending), no new sweeps; then at once the doors (sockets
      // closed with 1001, in-flight requests finished) and the jobs (running ones finish, the rest released).
      app.observability.markNotReady();
      sweeps.stop();
      // The instance stays listed until the doors are closed: an Idempotency-Key claimed by a request still
      // finishing is held by a live instance until then (idempotency.store.ts).
      await Promise.all([app.close(), jobs.stop({ keepInstance: true }), app.services.webhookPump.stop(), app.services.settlementPump.stop()]);
      await jobs.retire();
      await pubsub.close();
      await sql.close();
      await orm.close();
      await database.close();
    },
  };
}

/** How long an instance may be silent before it counts as gone (its jobs released; preflight's count of running instances). */
export function instanceDeadAfterMs(config: Pick<Config, 'jobHeartbeatMs' | 'webhookTimeoutMs'>): number {
  // A job runs at most the webhook timeout; an instance silent for much longer than a heartbeat is gone.
  return Math.max(config.jobHeartbeatMs * 4, config.webhookTimeoutMs + config.jobHeartbeatMs);
}

/** Refuses to start, plainly, when another process listens on the port (PORT=0 takes any free one). */
async function assertPortFree(port: number, host: string): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'EADDRINUSE'
          ? new Error(`port ${port} on ${host} is in use (another instance of the service?): stop it, or set PORT`)
          : new Error(`cannot listen on ${host}:${port}: ${err.message}`),
      ),
    );
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/**
 * Server settings the service depends on and cannot set itself. Without autovacuum, the tables written
 * and deleted all the time (the job queue, the reconciliation markers, webhook deliveries) keep every
 * dead row, and each job fetch reads them all: latency grows with the database's age (BENCHMARKS.md,
 * *Soak*). It is a warning, not a refusal: a test server may run without it on purpose.
 */
export async function warnOnServerSettings(sql: Sql, logger: Logger): Promise<void> {
  const [row] = await sql.query<{ autovacuum: string }>('select current_setting($1) as autovacuum', ['autovacuum']);
  if (row?.autovacuum !== 'on') {
    logger.warn({ setting: 'autovacuum', value: row?.autovacuum }, AUTOVACUUM_OFF);
  }
}

function demoBanner(demo: MerchantCredentials | null, owner: DemoOwner | null): string {
  // One JSON document: the merchant's API credentials and, under dashboard_owner, how its owner signs in to the dashboard.
  const shown = { ...(demo ? serializeCredentials(demo) : {}), ...(owner ? { dashboard_owner: { email: owner.email, password: owner.password } } : {}) };
  return [
    '',
    demo
      ? '=== Sandbox demo merchant created (its client secret and its owner’s password are shown only this once) ==='
      : '=== Sandbox demo merchant: its owner created (the password is shown only this once) ===',
    JSON.stringify(shown, null, 2),
    ...(demo
      ? [
          'Shown again by `npm run demo:credentials`, all but the client secret (only a hash of it is kept);',
          'with `-- --rotate-secret` it issues a new client secret, and the one above stops working.',
        ]
      : []),
    ...(owner
      ? [
          `Sign in to the dashboard (/dashboard/) as ${owner.email} with the password above;`,
          '`npm run demo:credentials -- --reset-owner-password` sets a new one.',
        ]
      : []),
    '================================================================================',
    '',
  ].join('\n');
}
