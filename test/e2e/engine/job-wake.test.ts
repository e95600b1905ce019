import { Client, type Notification } from 'pg';
import pino from 'pino';
import type { DestinationStream } from 'pino';
import { warnOnServerSettings } from '../../../src/bootstrap';
import { JOB_CATALOGUE, type JobPayloads } from '../../../src/job-catalogue';
import { runSelects } from '../../../src/jobs/job-queue';
import { JobRunner } from '../../../src/jobs/job-runner';
import { Params, Sql } from '../../../src/db/sql';
import { TransactionJob } from '../../../src/modules/transactions/transaction.jobs';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { createTestApp } from '../../helpers/test-app';
import { eventually } from '../../helpers/wait';

/**
 * Workers are woken after a commit, never by the writing statement itself: a NOTIFY inside a
 * writing transaction holds PostgreSQL's one notification lock through the commit's WAL flush,
 * so every such writer would commit one after another.
 */
describe('job wake-ups', () => {
  let db: TestDatabase;
  let sql: Sql;
  let jobs: JobRunner<JobPayloads>;
  let listener: Client;
  const heard: Array<{ count?: number; marker?: number }> = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    // The service's migrations and the queue's schema, then no running workers: nothing takes the jobs added below.
    const app = await createTestApp({ database: db });
    await app.service.close();
    const logger = pino({ level: 'silent' });
    sql = new Sql({ url: db.url, max: 4, embedded: false, logger });
    jobs = new JobRunner({
      catalogue: JOB_CATALOGUE,
      sql,
      logger,
      settings: { concurrency: 1, pollIntervalMs: 60_000, heartbeatMs: 60_000, deadAfterMs: 240_000 },
      embedded: false,
    });
    await jobs.prepare();
    listener = new Client({ connectionString: db.url });
    await listener.connect();
    listener.on('notification', (n: Notification) => heard.push(JSON.parse(n.payload ?? '{}')));
    await listener.query('listen "jobs:insert"');
  });

  afterAll(async () => {
    await listener?.end();
    await sql?.close();
    await db?.drop();
  });

  beforeEach(() => {
    heard.length = 0;
  });

  /** Runs a statement that adds `delayMs` jobs through jobsSql; then a marker notification, heard after anything it sent. */
  async function addThroughStatement(delayMs: number | undefined): Promise<Record<string, unknown>> {
    const params = new Params();
    const added = jobs.jobsSql(
      params,
      [{ name: TransactionJob.CheckTransaction, payload: { transactionId: '00000000-0000-4000-8000-000000000000' }, delayMs }],
      'g',
      't',
    );
    expect(added.ctes.join('\n')).not.toContain('notify');
    const [row] = await sql.query<Record<string, unknown>>(`with g as (select 1), ${added.ctes.join(', ')} select ${runSelects(added.selects)}`, params.values);
    await sql.query(`select pg_notify('jobs:insert', '{"marker":1}')`);
    expect(await eventually(async () => heard.some((h) => h.marker === 1))).toBe(true);
    return row!;
  }

  it('a statement that adds a due job notifies nothing itself, says so, and wakeIfDue notifies after it', async () => {
    const row = await addThroughStatement(undefined);
    expect(Number(row.t_wake)).toBe(1);
    // The marker, sent after the statement committed, is the first thing heard: the statement sent nothing.
    expect(heard[0]).toEqual({ marker: 1 });

    jobs.wakeIfDue(row, ['t_wake']);
    expect(await eventually(async () => heard.some((h) => h.count !== undefined))).toBe(true);
    expect(heard.filter((h) => h.count !== undefined)).toEqual([{ count: 1 }]);
  });

  it('a statement that adds only a delayed job does not wake anyone', async () => {
    const row = await addThroughStatement(3_600_000);
    expect(Number(row.t_wake)).toBe(0);
    jobs.wakeIfDue(row, ['t_wake']);
    // A wake-up sent now would be heard before a second marker sent after it.
    await sql.query(`select pg_notify('jobs:insert', '{"marker":2}')`);
    expect(await eventually(async () => heard.some((h) => h.marker === 2))).toBe(true);
    expect(heard.filter((h) => h.count !== undefined)).toEqual([]);
  });

  it('wakes asked for in one turn of the event loop are one notification carrying their count', async () => {
    for (let i = 0; i < 5; i++) jobs.wake();
    await new Promise((resolve) => setImmediate(resolve));
    for (let i = 0; i < 3; i++) jobs.wake();
    expect(await eventually(async () => heard.filter((h) => h.count !== undefined).length >= 2)).toBe(true);
    const counts = heard.map((h) => h.count).filter((c) => c !== undefined);
    // Sent on two pool connections, they may arrive in either order; one per wake would have been eight 1s.
    expect([...counts].sort()).toEqual([3, 5]);
  });
});

describe('server settings at start', () => {
  it("warns when PostgreSQL's autovacuum is off, and only then", async () => {
    const db = await createTestDatabase();
    const lines: string[] = [];
    const capture: DestinationStream = { write: (chunk: string) => void lines.push(chunk) };
    const logger = pino({ level: 'warn' }, capture);
    const sql = new Sql({ url: db.url, max: 1, embedded: false, logger });
    try {
      const [setting] = await sql.query<{ autovacuum: string }>('show autovacuum');
      await warnOnServerSettings(sql, logger);
      const warned = lines.some((l) => l.includes('"setting":"autovacuum"'));
      expect(warned).toBe(setting!.autovacuum === 'off');
    } finally {
      await sql.close();
      await db.drop();
    }
  });
});
