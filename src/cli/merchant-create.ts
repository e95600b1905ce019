import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { RequestContext } from '@mikro-orm/core';
import { openStorage } from '../bootstrap';
import { loadConfig } from '../config';
import { AuditLog, type AuditActor } from '../modules/audit/audit-log';
import { MerchantService } from '../modules/merchants/merchant.service';
import { systemClock } from '../shared/clock';
import { SecretBox } from '../shared/crypto';
import { resolveKeys } from '../shared/keys';
import { createLogger } from '../shared/logger';
import { serializeCredentials } from '../modules/merchants/merchant.serializer';

/**
 * npm run merchant:create -- --name "Acme"
 * Prints the new merchant's credentials as JSON on stdout (logs go to stderr).
 */
const USAGE = `usage: npm run merchant:create -- --name "Acme Ltd"

Creates a merchant in the database the service uses (DATABASE_URL, or the embedded one under
DATA_DIR, shared with a running service) and prints its credentials as JSON on stdout:
client_id, client_secret and webhook_secret. The secrets are shown this once; keep them.
`;

/** Who the audit log says created it. */
const OPERATOR: AuditActor = { type: 'operator', label: 'merchant:create' };

async function main() {
  const { values } = parseArgs({ options: { name: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const config = loadConfig();
  const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel, process.stderr);
  // The shell's PAYMENTS_ENV must be the database's (issue 34); a tool never stamps a database itself.
  const { database, orm, sql } = await openStorage(config, logger, { reuseRunning: true, mustExist: true, mayStamp: false });
  process.stderr.write(`database: ${database.description}\n`);
  // After the database: a tool refused for want of one writes nothing, generated keys included.
  const keys = resolveKeys(config, logger);
  try {
    const audit = new AuditLog({ sql, clock: systemClock });
    const merchants = new MerchantService({ orm, clock: systemClock, secretBox: new SecretBox(keys.encryptionKey), logger, audit });
    const created = await RequestContext.create(orm.em, () => merchants.createMerchant({ name: values.name ?? '' }, { actor: OPERATOR }));
    process.stdout.write(`${JSON.stringify(serializeCredentials(created), null, 2)}\n`);
  } finally {
    await sql.close();
    await orm.close();
    await database.close();
  }
}

main().catch((err) => {
  process.stderr.write(`merchant:create failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
