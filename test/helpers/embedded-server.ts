/**
 * Runs the embedded database alone (node dist/test/helpers/embedded-server.js <dataDir>): PGlite cannot start
 * inside jest's module sandbox, so a test starts it in a child process and connects to the URL it prints.
 */
import { startEmbeddedDatabase } from '../../src/db/embedded';
import { createLogger } from '../../src/shared/logger';

async function main(): Promise<void> {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error('usage: embedded-server <dataDir>');
  const db = await startEmbeddedDatabase(dataDir, 0, 10, createLogger('silent'));
  process.stdout.write(`${JSON.stringify({ url: db.url })}\n`);
  const stop = () => void db.stop().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err: Error) => {
  process.stderr.write(`${err.stack ?? err.message}\n`);
  process.exit(1);
});
