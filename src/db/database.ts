import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config';
import type { Logger } from '../shared/logger';
import { findRunningEmbedded, startEmbeddedDatabase } from './embedded';

export interface DatabaseHandle {
  url: string;
  embedded: boolean;
  /** Which database this is, for a tool to say (a URL without its password). */
  description: string;
  close(): Promise<void>;
}

/** A connection URL as it may be shown: without its password. */
export function withoutPassword(url: string, variable = 'DATABASE_URL'): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return `an unparseable ${variable}`;
  }
}

/**
 * DATABASE_URL when set; otherwise the embedded PGlite under DATA_DIR. A
 * short-lived tool (`reuseRunning`) connects to the embedded database a running
 * service already serves instead of failing on its lock.
 */
export async function openDatabase(config: Config, logger: Logger, opts: { reuseRunning?: boolean; mustExist?: boolean } = {}): Promise<DatabaseHandle> {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: false, description: withoutPassword(config.databaseUrl), close: async () => {} };
  if (config.env === 'production' && !config.allowEmbeddedDatabase) {
    throw new Error(
      'Invalid configuration: production needs DATABASE_URL. The embedded PGlite serves one process, with no replica or backup of its own; set ALLOW_EMBEDDED_DATABASE=1 to run on it anyway',
    );
  }
  const running = opts.reuseRunning ? findRunningEmbedded(config.dataDir) : undefined;
  if (running)
    return { url: running, embedded: true, description: `the embedded database a running service serves from ${config.dataDir}`, close: async () => {} };
  // A tool that would open an empty embedded database is not looking where the service keeps its data: say so, create nothing.
  if (opts.mustExist && !fs.existsSync(path.join(config.dataDir, 'pgdata'))) {
    throw new Error(
      `No database to open: DATABASE_URL is unset and ${config.dataDir} holds no embedded database. If the service runs with DATABASE_URL, set the same here; if it runs on the embedded default, run this from its directory (or with its DATA_DIR)`,
    );
  }
  // Two pools per instance (the ORM's and the direct statements'), the job queue's listener, and CLIs.
  const embedded = await startEmbeddedDatabase(config.dataDir, config.embeddedDbPort, config.dbPoolMax * 2 + 8, logger);
  return {
    url: embedded.url,
    embedded: true,
    description: `the embedded database in ${config.dataDir} (no service is running on it)`,
    close: () => embedded.stop(),
  };
}
