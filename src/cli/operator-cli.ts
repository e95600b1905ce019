import { RequestContext } from '@mikro-orm/core';
import { openStorage } from '../bootstrap';
import { loadConfig, loadConfigFor } from '../config';
import { createServices, type Services } from '../container';
import { createPubSub, InProcessPubSub } from '../events/pubsub';
import { JOB_CATALOGUE } from '../job-catalogue';
import { JobRunner } from '../jobs/job-runner';
import { systemClock } from '../shared/clock';
import { AppError } from '../shared/errors';
import { Faults } from '../shared/faults';
import { resolveKeys } from '../shared/keys';
import { createLogger } from '../shared/logger';

/**
 * The operator CLIs' common harness: the service layer on the configured database
 * (the service may be running or not), one request context, JSON on stdout, logs on
 * stderr. Jobs are only added here; a running service runs them. `broadcast`: publish
 * through the configured pub/sub (Redis when REDIS_URL is set), so running instances
 * hear of the change at once; without it they learn it from the database.
 * Refused, before anything is read or written, on a database of another environment (issue 34).
 */
export async function runWithServices(
  broadcast: boolean,
  work: (services: Services) => Promise<unknown>,
  opts: { environment?: 'config' | 'database' } = {},
): Promise<number> {
  let config = loadConfig();
  const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel, process.stderr);
  // The shell's PAYMENTS_ENV must be the database's (its deployment stamp), or the tool stops here; a tool
  // never stamps a database itself. With `environment: 'database'`, the stamp decides and PAYMENTS_ENV may be left unset.
  const { database, orm, sql, environment } = await openStorage(config, logger, {
    reuseRunning: true,
    mustExist: true,
    mayStamp: false,
    environment: opts.environment ?? 'config',
  });
  process.stderr.write(`database: ${database.description}\n`);
  if (environment !== config.env) {
    config = loadConfigFor(environment);
    process.stderr.write(`environment: ${environment} (the database’s stamp; PAYMENTS_ENV is unset)\n`);
  }
  // After the database: a tool refused for want of one writes nothing, generated keys included.
  const keys = resolveKeys(config, logger);
  const pubsub = broadcast ? createPubSub(config.redisUrl, logger) : new InProcessPubSub();
  try {
    // prepare() learns the task ids the outbox's statement needs.
    const jobs = new JobRunner({
      catalogue: JOB_CATALOGUE,
      sql,
      logger,
      settings: { concurrency: 1, pollIntervalMs: config.jobPollIntervalMs, heartbeatMs: config.jobHeartbeatMs, deadAfterMs: config.jobHeartbeatMs * 4 },
      embedded: database.embedded,
    });
    await jobs.prepare();
    const services = createServices({ config, logger, clock: systemClock, orm, sql, pubsub, keys, jobs, faults: new Faults(undefined) });
    const output = await RequestContext.create(orm.em, () => work(services));
    process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
    return 0;
  } finally {
    await pubsub.close();
    await sql.close();
    await orm.close();
    await database.close();
  }
}

/** Exits with the CLI's code; an error is one line on stderr (its code and details when it is an AppError). */
export function exitWith(name: string, result: Promise<number>): void {
  result.then(
    (code) => process.exit(code),
    (err) => {
      if (err instanceof AppError) {
        const details = err.details ? ` (${err.details.map((d) => `${d.field} ${d.issue}`).join('; ')})` : '';
        process.stderr.write(`${name} failed: ${err.code}: ${err.message}${details}\n`);
      } else {
        process.stderr.write(`${name} failed: ${err instanceof Error ? err.message : String(err)}\n`);
      }
      process.exit(1);
    },
  );
}
