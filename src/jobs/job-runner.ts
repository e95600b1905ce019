import type { EntityManager } from '@mikro-orm/postgresql';
import PgBoss from 'pg-boss';
import type { Logger } from '../shared/logger';

/** How many due jobs of one kind a worker takes at once (and runs concurrently). */
const JOB_BATCH_SIZE = 20;

/** Every kind of durable background work, with its payload. */
export enum JobName {
  KycReview = 'kyc-review',
  /** Ask the provider for a processing transaction's outcome (mobile money collections, transfers). */
  SettleTransaction = 'settle-transaction',
  /** A bank collection nobody paid into: expire it. */
  ExpireCollection = 'expire-collection',
  /** One webhook delivery attempt for an outbox event. */
  DeliverWebhook = 'deliver-webhook',
}

export interface JobPayloads {
  [JobName.KycReview]: { submissionId: string };
  [JobName.SettleTransaction]: { transactionId: string };
  [JobName.ExpireCollection]: { transactionId: string };
  [JobName.DeliverWebhook]: { eventId: string };
}

export interface EnqueueOptions {
  /** Not before this many milliseconds from now. */
  delayMs?: number;
  /** At most one queued job per key (a repeated enqueue is dropped). */
  singletonKey?: string;
}

/**
 * pg-boss over the same PostgreSQL: jobs are rows, claimed with SKIP LOCKED (safe
 * with several instances), retried with exponential backoff, and re-run when a
 * worker dies mid-job (its claim expires). `enqueue` writes the job through the
 * caller's transaction, so a state change and the work it schedules commit together.
 */
export class JobRunner {
  private readonly boss: PgBoss;

  constructor(
    connectionString: string,
    private readonly logger: Logger,
    private readonly pollIntervalMs: number,
    maintenanceIntervalS: number,
    /** Per-queue claim expiry: after this a job whose worker died is run again. */
    private readonly expireInSeconds: Partial<Record<JobName, number>> = {},
  ) {
    this.boss = new PgBoss({
      connectionString,
      schema: 'pgboss',
      max: 4,
      schedule: false,
      maintenanceIntervalSeconds: maintenanceIntervalS,
      retryLimit: 10,
      retryDelay: 1,
      retryBackoff: true,
      expireInSeconds: 120,
    });
    this.boss.on('error', (err) => this.logger.error({ err: err.message }, 'job runner error'));
  }

  async start(): Promise<void> {
    await this.boss.start();
    for (const name of Object.values(JobName)) {
      const expireInSeconds = this.expireInSeconds[name];
      await this.boss.createQueue(name, { name, ...(expireInSeconds ? { expireInSeconds } : {}) });
      if (expireInSeconds) await this.boss.updateQueue(name, { name, expireInSeconds });
    }
  }

  async stop(): Promise<void> {
    await this.boss.stop({ graceful: true, wait: true, timeout: 10_000 });
  }

  async enqueue<T extends JobName>(em: EntityManager, name: T, data: JobPayloads[T], opts: EnqueueOptions = {}): Promise<void> {
    await this.boss.send(name, data, {
      db: transactionExecutor(em),
      ...(opts.delayMs ? { startAfter: new Date(Date.now() + opts.delayMs) } : {}),
      ...(opts.singletonKey ? { singletonKey: opts.singletonKey } : {}),
    });
  }

  /**
   * Runs `handler` for each job of `name`. Jobs are fetched in batches and run
   * concurrently (pg-boss waits a polling interval after every fetch, so one job
   * per fetch would drain a backlog at two jobs a second). A job whose handler
   * throws is failed on its own, and pg-boss retries it with backoff; the rest of
   * the batch completes.
   */
  async work<T extends JobName>(name: T, handler: (data: JobPayloads[T]) => Promise<void>): Promise<void> {
    await this.boss.work<JobPayloads[T]>(name, { batchSize: JOB_BATCH_SIZE, pollingIntervalSeconds: this.pollIntervalMs / 1000 }, async (batch) => {
      await Promise.all(
        batch.map(async (job) => {
          try {
            await handler(job.data);
          } catch (err) {
            this.logger.warn({ job: name, jobId: job.id, err: (err as Error).message }, 'job failed; it will be retried');
            await this.boss.fail(name, job.id, { message: (err as Error).message });
          }
        }),
      );
    });
  }
}

/**
 * pg-boss's statements use $n placeholders; MikroORM's raw queries take `?`.
 * This runs them on the EntityManager's connection, inside its transaction.
 */
function transactionExecutor(em: EntityManager) {
  return {
    async executeSql(text: string, values: unknown[]) {
      const bindings: unknown[] = [];
      const sql = text.replace(/\$(\d+)/g, (_m, n: string) => {
        bindings.push(values[Number(n) - 1]);
        return '?';
      });
      const rows = await em.execute(sql, bindings as never[]);
      return { rows: rows as unknown[] as any[] };
    },
  };
}
