import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import type { Logger } from '../shared/logger';

/**
 * The embedded default: PGlite (PostgreSQL compiled to WebAssembly) keeping its
 * files under DATA_DIR, served on a loopback port by pglite-socket so that the
 * ordinary pg driver and MikroORM talk to it like any PostgreSQL.
 *
 * PGlite has no lock of its own and must never be opened by two processes, so a
 * lock file records the owner's pid and port; other local processes (the
 * merchant CLI) connect to that port instead of opening the files.
 */
export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

interface LockFile {
  pid: number;
  port: number;
}

const lockPath = (dataDir: string) => path.join(dataDir, 'pglite.lock');
const urlFor = (port: number) => `postgresql://postgres@127.0.0.1:${port}/postgres`;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The URL of an embedded database another live process on this machine is serving from dataDir, if any. */
export function findRunningEmbedded(dataDir: string): string | undefined {
  try {
    const lock = JSON.parse(fs.readFileSync(lockPath(dataDir), 'utf8')) as LockFile;
    return lock.pid !== process.pid && isAlive(lock.pid) ? urlFor(lock.port) : undefined;
  } catch {
    return undefined;
  }
}

export async function startEmbeddedDatabase(dataDir: string, port: number, maxConnections: number, logger: Logger): Promise<EmbeddedDatabase> {
  const running = findRunningEmbedded(dataDir);
  if (running) {
    throw new Error(`The embedded database in ${dataDir} is in use by another process (${running}); stop it or set DATABASE_URL`);
  }
  const pgdata = path.join(dataDir, 'pgdata');
  fs.mkdirSync(pgdata, { recursive: true });
  const db = await PGlite.create(pgdata);
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port, maxConnections });
  await server.start();
  const actualPort = Number(server.getServerConn().split(':').pop());
  fs.writeFileSync(lockPath(dataDir), JSON.stringify({ pid: process.pid, port: actualPort } satisfies LockFile));
  const url = urlFor(actualPort);
  logger.info({ dataDir, port: actualPort }, 'DATABASE_URL unset: started embedded PostgreSQL (PGlite) on loopback');
  return {
    url,
    async stop() {
      await server.stop();
      await db.close();
      fs.rmSync(lockPath(dataDir), { force: true });
    },
  };
}
