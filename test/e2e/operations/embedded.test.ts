import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { graphql, request } from '../../helpers/http';
import { DIST_CLI, DIST_MAIN, assertBuilt, cleanEnv, startServiceProcess } from '../../helpers/process';

const run = promisify(execFile);

function demoCredentials(stdout: string): { client_id: string; client_secret: string } {
  const start = stdout.indexOf('{\n');
  const end = stdout.indexOf('\n}', start);
  if (start < 0 || end < 0) throw new Error(`no demo merchant banner in:\n${stdout}`);
  return JSON.parse(stdout.slice(start, end + 2));
}

/** The quick start's promise: with DATABASE_URL unset the service runs on an embedded PostgreSQL. */
describe('embedded default (DATABASE_URL unset)', () => {
  let dataDir: string;
  beforeAll(() => {
    assertBuilt();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payments-embedded-'));
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('starts, prints a demo merchant once, keeps data across restarts, and serves the CLI', async () => {
    const env = cleanEnv({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info' });
    const first = await startServiceProcess(env);
    let creds: { client_id: string; client_secret: string };
    try {
      expect(first.stdout()).toContain('started embedded PostgreSQL (PGlite)');
      // A default start warns only that it generated keys (graphile-worker's pool-size heuristic does not apply: job-runner.ts).
      const warnings = first
        .stdout()
        .split('\n')
        .filter((line) => /^\{"level":(40|50),/.test(line))
        .map((line) => JSON.parse(line).msg);
      expect(warnings).toEqual(['TOKEN_SIGNING_KEY/ENCRYPTION_KEY unset: generated sandbox keys and stored them locally']);
      creds = demoCredentials(first.stdout());
      const token = await request(first.url, 'POST', '/v1/oauth/token', { body: { grant_type: 'client_credentials', ...creds } });
      expect(token.status).toBe(200);
      const me = await graphql(first.url, '{ merchant { name clientId } }', { token: token.body.data.access_token });
      expect(me.body.data).toEqual({ merchant: { name: 'Demo Merchant', clientId: creds.client_id } });

      // The merchant CLI talks to the running service's embedded database instead of opening its files.
      const cli = await run(process.execPath, [DIST_CLI('merchant-create'), '--name', 'Acme Ltd'], { env });
      const created = JSON.parse(cli.stdout);
      expect(created).toMatchObject({ name: 'Acme Ltd', client_secret: expect.stringMatching(/^sk_/), webhook_secret: expect.stringMatching(/^whsec_/) });
      expect(cli.stderr).not.toContain(created.client_secret);
      // It says which database it opened.
      expect(cli.stderr).toContain(`database: the embedded database a running service serves from ${dataDir}`);
      const acme = await request(first.url, 'POST', '/v1/oauth/token', {
        body: { grant_type: 'client_credentials', client_id: created.client_id, client_secret: created.client_secret },
      });
      expect(acme.status).toBe(200);
      // --help says what it does, and creates nothing.
      const help = await run(process.execPath, [DIST_CLI('merchant-create'), '--help'], { env });
      expect(help.stdout).toMatch(/^usage: npm run merchant:create -- --name "Acme Ltd" \[--owner-email owner@acme.example\]\n/);
      expect(help.stdout).toContain('shown this once');
    } finally {
      expect(await first.stop()).toBe(0);
    }
    expect(fs.existsSync(path.join(dataDir, 'pglite.lock'))).toBe(false);

    const second = await startServiceProcess(env);
    try {
      expect(second.stdout()).not.toContain('demo merchant created');
      const token = await request(second.url, 'POST', '/v1/oauth/token', { body: { grant_type: 'client_credentials', ...creds! } });
      expect(token.status).toBe(200);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  });

  it('a tool refuses to guess: with DATABASE_URL unset and no embedded database in DATA_DIR, it opens nothing and writes nothing', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'payments-no-database-'));
    try {
      const env = cleanEnv({ DATA_DIR: empty });
      const failed = await run(process.execPath, [DIST_CLI('merchant-create'), '--name', 'Nowhere Ltd'], { env }).then(
        () => null,
        (err: { code: number; stdout: string; stderr: string }) => err,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stdout).toBe('');
      expect(failed?.stderr).toContain(`No database to open: DATABASE_URL is unset and ${empty} holds no embedded database`);
      expect(fs.readdirSync(empty)).toEqual([]);
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });

  it('a busy port stops the start before anything is created, and says so plainly', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'payments-busy-port-'));
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as net.AddressInfo).port;
    try {
      const failed = await run(process.execPath, [DIST_MAIN], {
        env: cleanEnv({ DATA_DIR: empty, PORT: String(port), LOG_LEVEL: 'info' }),
      }).then(
        () => null,
        (err: { code: number; stdout: string; stderr: string }) => err,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stderr).toBe(
        `payments gateway failed to start: port ${port} on 127.0.0.1 is in use (another instance of the service?): stop it, or set PORT\n`,
      );
      expect(failed?.stdout).not.toContain('demo merchant');
      expect(fs.readdirSync(empty)).toEqual([]);
    } finally {
      holder.close();
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
