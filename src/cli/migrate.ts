import 'reflect-metadata';
import { openStorage } from '../bootstrap';
import { loadConfig } from '../config';
import { createLogger } from '../shared/logger';

/**
 * npm run migrate: applies pending migrations (the service also does this at start). On a database
 * without an environment stamp it stamps PAYMENTS_ENV (issue 34): run it with the database's own.
 * On a stamped database of another environment it is refused, like every tool.
 */
async function main() {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, process.stderr);
  const { database, orm, sql } = await openStorage(config, logger, { reuseRunning: true });
  await sql.close();
  await orm.close();
  await database.close();
  logger.info('database is up to date');
}

main().catch((err) => {
  process.stderr.write(`migrate failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
