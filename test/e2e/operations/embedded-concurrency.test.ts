/**
 * The embedded default (PGlite behind pglite-socket) under concurrent connections: every extended-protocol
 * batch is served whole, so statements of different shapes on several connections at once each get their
 * own rows (src/db/embedded.ts, keepBatchesWhole; without it, this file's first test fails with "bind message supplies
 * 2 parameters, but prepared statement \"\" requires 1" and the like).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { assertBuilt } from '../../helpers/process';

let dir: string;
let server: ChildProcess;
let pool: pg.Pool;

beforeAll(async () => {
  assertBuilt();
  dir = mkdtempSync(path.join(tmpdir(), 'embedded-db-'));
  // PGlite does not start inside jest's module sandbox: it runs in a child process (test/helpers/embedded-server.ts).
  server = spawn(process.execPath, [path.resolve(__dirname, '../../../dist/test/helpers/embedded-server.js'), dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = (await once(createInterface({ input: server.stdout! }), 'line')) as [string];
  pool = new pg.Pool({ connectionString: (JSON.parse(line) as { url: string }).url, max: 6 });
}, 120_000);

afterAll(async () => {
  await pool?.end();
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await once(server, 'exit');
  }
  rmSync(dir, { recursive: true, force: true });
});

const LARGE = 'x'.repeat(200_000);

/** Three statement shapes with 1, 2 and 4 parameters, and the answer each must give. */
function statement(i: number): { text: string; values: unknown[]; expected: string } {
  switch (i % 3) {
    case 0:
      return { text: 'select ($1::int * 7)::text as v', values: [i], expected: String(i * 7) };
    case 1:
      // A large parameter arrives in several reads of the socket: the batch's messages are queued one by one.
      return { text: 'select length($1::text)::text || $2::text as v', values: [LARGE, i], expected: `${LARGE.length}${i}` };
    default:
      return { text: 'select $1::text || $2::text || $3::text || $4::text as v', values: ['a', i, 'b', i], expected: `a${i}b${i}` };
  }
}

test('statements of different shapes on six connections at once each get their own answer', async () => {
  const answers = await Promise.allSettled(
    Array.from({ length: 600 }, async (_, i) => {
      const s = statement(i);
      const { rows } = await pool.query<{ v: string }>(s.text, s.values);
      return { got: rows[0]?.v, expected: s.expected };
    }),
  );
  const failed = answers.filter((a) => a.status === 'rejected').map((a) => String((a as PromiseRejectedResult).reason));
  expect(failed).toEqual([]);
  const wrong = answers.flatMap((a) => (a.status === 'fulfilled' && a.value.got !== a.value.expected ? [a.value] : []));
  expect(wrong).toEqual([]);
}, 60_000);

test('a statement that fails fails alone: the others, and later ones, are answered', async () => {
  const answers = await Promise.allSettled(
    Array.from({ length: 60 }, async (_, i) => {
      if (i % 10 === 0) return pool.query('select 1 / ($1::int - $1::int) as v', [i]);
      const s = statement(i);
      const { rows } = await pool.query<{ v: string }>(s.text, s.values);
      expect(rows[0]?.v).toBe(s.expected);
      return undefined;
    }),
  );
  const reasons = answers.flatMap((a, i) => (a.status === 'rejected' ? [[i, (a.reason as Error).message]] : []));
  expect(reasons).toEqual([0, 10, 20, 30, 40, 50].map((i) => [i, 'division by zero']));
  const { rows } = await pool.query<{ v: string }>('select $1::text as v', ['after']);
  expect(rows[0]?.v).toBe('after');
}, 60_000);

test('transactions on several connections at once keep to themselves', async () => {
  await pool.query('create table if not exists counted (owner int not null, n int not null)');
  await Promise.all(
    Array.from({ length: 6 }, async (_, owner) => {
      const client = await pool.connect();
      try {
        await client.query('begin');
        for (let n = 0; n < 10; n++) await client.query('insert into counted (owner, n) values ($1, $2)', [owner, n]);
        if (owner % 2 === 0) await client.query('commit');
        else await client.query('rollback');
      } finally {
        client.release();
      }
    }),
  );
  const { rows } = await pool.query<{ owner: number; count: number }>('select owner, count(*)::int as count from counted group by owner order by owner');
  expect(rows).toEqual([0, 2, 4].map((owner) => ({ owner, count: 10 })));
}, 60_000);
