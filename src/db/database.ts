import type { Config } from '../config';
import type { Logger } from '../shared/logger';
import { findRunningEmbedded, startEmbeddedDatabase } from './embedded';

export interface DatabaseHandle {
  url: string;
  embedded: boolean;
  close(): Promise<void>;
}

/**
 * DATABASE_URL when set; otherwise the embedded PGlite under DATA_DIR. A
 * short-lived tool (`reuseRunning`) connects to the embedded database a running
 * service already serves instead of failing on its lock.
 */
export async function openDatabase(config: Config, logger: Logger, opts: { reuseRunning?: boolean } = {}): Promise<DatabaseHandle> {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: false, close: async () => {} };
  if (config.env === 'production' && !config.allowEmbeddedDatabase) {
    throw new Error(
      'Invalid configuration: production needs DATABASE_URL. The embedded PGlite serves one process, with no replica or backup of its own; set ALLOW_EMBEDDED_DATABASE=1 to run on it anyway',
    );
  }
  const running = opts.reuseRunning ? findRunningEmbedded(config.dataDir) : undefined;
  if (running) return { url: running, embedded: true, close: async () => {} };
  // Two pools per instance (the ORM's and the direct statements'), the job queue's listener, and CLIs.
  const embedded = await startEmbeddedDatabase(config.dataDir, config.embeddedDbPort, config.dbPoolMax * 2 + 8, logger);
  return { url: embedded.url, embedded: true, close: () => embedded.stop() };
}
