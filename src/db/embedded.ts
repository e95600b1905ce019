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
  keepBatchesWhole(server);
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

/** The message-queue internals of pglite-socket 0.2.17 (pinned in package.json) that keepBatchesWhole replaces. */
interface QueuedMessage {
  handlerId: number;
  message: Uint8Array;
  resolve(bytes: number): void;
  reject(err: unknown): void;
  onData(data: Uint8Array): void;
}
interface QueryQueue {
  queue: QueuedMessage[];
  processing: boolean;
  lastHandlerId: number | null;
  db: PGlite;
  processQueue(): Promise<void>;
  clearQueueForHandler(handlerId: number): void;
}

/** The extended protocol's messages that leave a batch open until its Sync: Parse, Bind, Describe, Execute, Close, Flush. */
const BATCH_OPENING = new Set(['P', 'B', 'D', 'E', 'C', 'H'].map((c) => c.charCodeAt(0)));

/**
 * pglite-socket serves every connection from one PGlite session, one protocol message at a time, and keeps a
 * connection's messages together only inside an SQL transaction. An extended-protocol batch (Parse, Bind,
 * Execute, Sync) is not one, so two connections' batches interleave: one's Parse replaces the other's unnamed
 * statement before its Bind ("bind message supplies 7 parameters, but prepared statement "" requires 4", or,
 * when the shapes agree, another statement's rows). And a message that throws leaves the queue stuck for good.
 * Known upstream (electric-sql/pglite issues 1046 and 977, open). Here the queue serves one connection from a
 * batch's first message to its Sync, as well as through a transaction, and a failed message fails alone.
 * test/unit/embedded-database.test.ts runs concurrent batches of different shapes on several connections.
 */
function keepBatchesWhole(server: PGLiteSocketServer): void {
  const q = (server as unknown as { queryQueue: QueryQueue }).queryQueue;
  if (!q || !Array.isArray(q.queue) || typeof q.processQueue !== 'function') {
    throw new Error('pglite-socket changed: its query queue is not the one keepBatchesWhole knows (src/db/embedded.ts)');
  }
  let batchOwner: number | null = null;
  const clearQueueForHandler = q.clearQueueForHandler.bind(q);
  q.clearQueueForHandler = (handlerId) => {
    if (batchOwner === handlerId) batchOwner = null;
    clearQueueForHandler(handlerId);
    if (!q.processing) void q.processQueue();
  };
  q.processQueue = async function processQueue(this: QueryQueue) {
    if (this.processing) return;
    this.processing = true;
    try {
      while (this.queue.length > 0) {
        // The connection whose batch or transaction is open goes on alone; until its next message arrives, nobody does.
        const owner = batchOwner ?? (this.db.isInTransaction() ? this.lastHandlerId : null);
        const at = owner === null ? 0 : this.queue.findIndex((m) => m.handlerId === owner);
        if (at === -1) break;
        const [next] = this.queue.splice(at, 1);
        let bytes = 0;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(next!.message, {
              onRawData: (data: Uint8Array) => {
                bytes += data.length;
                next!.onData(data);
              },
            }),
          );
        } catch (err) {
          batchOwner = null;
          next!.reject(err);
          continue;
        }
        batchOwner = BATCH_OPENING.has(next!.message[0]!) ? next!.handlerId : null;
        this.lastHandlerId = next!.handlerId;
        next!.resolve(bytes);
      }
    } finally {
      this.processing = false;
    }
  };
}
