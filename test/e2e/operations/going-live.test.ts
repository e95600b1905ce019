import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FlutterwaveFake } from '../../fakes/flutterwave.fake';
import { MpesaFake } from '../../fakes/mpesa.fake';
import { MtnMomoFake } from '../../fakes/mtn-momo.fake';
import { TEST_SERVICE_KEYS, createTestDatabase, type TestDatabase } from '../../helpers/database';
import { DIST_MAIN, assertBuilt, runCli } from '../../helpers/process';
import { dbQuery } from '../../helpers/webhooks';

/**
 * Issue 41, going live: a production start names every missing or invalid variable at once, each with its fix,
 * and exits 1 having started nothing; `npm run preflight` runs the same checks, the providers' token calls, and the
 * database's and Redis's, without starting the service, and exits 0 only when none fails.
 */

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A controlled environment: only what is given, and PATH (nothing of this shell's DATABASE_URL, keys, …). */
const only = (env: Record<string, string>): NodeJS.ProcessEnv => ({ PATH: process.env.PATH ?? '', ...env });

/** Runs the built service; resolves when the process exits, with its exit code and output. */
function runService(env: NodeJS.ProcessEnv, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [DIST_MAIN], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A check's line of preflight's report: its status, name and detail, with its fix and doc lines when it has them. */
const line = (status: string, name: string, detail: RegExp | string = '') =>
  new RegExp(`^${status.padEnd(4)} {2}${name}: ${typeof detail === 'string' ? detail : detail.source}`, 'm');

/**
 * The warnings about the PostgreSQL server's own settings (autovacuum, max_connections), which depend on the machine
 * the tests run on, not on the deployment's variables; any other warning line is not among them.
 */
const serverWarnings = (stdout: string) => (stdout.match(/^warn {2}[^:]+/gm) ?? []).filter((w) => /^warn {2}(autovacuum|connections)$/.test(w));

beforeAll(() => assertBuilt());

describe('a production start with variables missing', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pgw-going-live-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('names all six missing variables at once, each with its fix and doc, and exits 1 having started nothing', async () => {
    const dataDir = path.join(dir, 'data');
    // A provider configured: its callbacks need PUBLIC_BASE_URL. Missing: the keys, the database, mail and the public address.
    const run = await runService(
      only({
        PAYMENTS_ENV: 'production',
        PORT: '0',
        DATA_DIR: dataDir,
        MTN_MOMO_TARGET_ENVIRONMENT: 'mtnghana',
        MTN_MOMO_COLLECTION_PRIMARY_KEY: 'pk',
        MTN_MOMO_COLLECTION_USER_ID: '3f1c5a0e-0000-4000-8000-000000000001',
        MTN_MOMO_COLLECTION_API_KEY: 'ak',
      }),
      dir,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Invalid configuration, the service cannot start (6 to fix):');
    for (const [variable, doc] of [
      ['TOKEN_SIGNING_KEY', 'keys-and-secrets'],
      ['ENCRYPTION_KEY', 'keys-and-secrets'],
      ['DATABASE_URL', 'database'],
      ['SMTP_URL', 'keys-and-secrets'],
      ['MAIL_FROM', 'keys-and-secrets'],
      ['PUBLIC_BASE_URL', 'public-address-proxy-probes'],
    ]) {
      expect(run.stderr).toMatch(
        new RegExp(`\\n {2}- ${variable} is required in production[^\\n]*\\n {6}fix: set ${variable} to [^\\n]+\\n {6}see: docs/going-live\\.md#${doc}\\n`),
      );
    }
    // Nothing was started or written: no log line, no generated keys, no embedded database.
    expect(run.stdout).toBe('');
    expect(fs.existsSync(dataDir)).toBe(false);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('lists invalid values beside missing ones, without quoting a secret', async () => {
    const run = await runService(
      only({
        PAYMENTS_ENV: 'production',
        PORT: 'eighty',
        DATA_DIR: path.join(dir, 'data'),
        DATABASE_URL: 'postgresql://127.0.0.1:1/never_opened',
        ENCRYPTION_KEY: 'not-32-bytes-secret-value',
        SMTP_URL: 'https://mailer:hunter2-secret@smtp.example.com',
        ADMIN_API_KEY: 'short-secret',
        FEE_DEFAULTS: 'payment:lots',
        PROVIDER_ROUTES: 'GH/momo/MTN/*=mtn_momo',
      }),
      dir,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('the service cannot start (8 to fix)');
    for (const problem of [
      /- PORT: Invalid input/,
      /- SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/,
      /- ADMIN_API_KEY must be at least 16 characters in production/,
      /- TOKEN_SIGNING_KEY is required in production/,
      /- ENCRYPTION_KEY must be 32 bytes/,
      /- MAIL_FROM is required in production/,
      /- FEE_DEFAULTS: "payment:lots" is not kind:percent/,
      /- PROVIDER_ROUTES names mtn_momo, which is not configured/,
    ]) {
      expect(run.stderr).toMatch(problem);
    }
    expect(run.stderr).not.toMatch(/hunter2|not-32-bytes|short-secret/);
    expect(run.stdout).toBe('');
  });
});

describe('npm run preflight', () => {
  let mtn: MtnMomoFake;
  let mpesa: MpesaFake;
  let flw: FlutterwaveFake;
  const databases: TestDatabase[] = [];

  beforeAll(async () => {
    [mtn, mpesa, flw] = await Promise.all([MtnMomoFake.start({ targetEnvironment: 'mtnghana', currency: 'GHS' }), MpesaFake.start(), FlutterwaveFake.start()]);
  });
  afterAll(async () => {
    await Promise.all([mtn?.close(), mpesa?.close(), flw?.close(), ...databases.map((db) => db.drop())]);
  });

  const database = async (migrated?: 'sandbox' | 'production') => {
    const db = await createTestDatabase(migrated ? { migrated } : {});
    databases.push(db);
    return db;
  };

  /** A production deployment's variables, all set and valid, on `databaseUrl`, with the three providers' fakes. */
  const production = (databaseUrl: string): Record<string, string> => ({
    PAYMENTS_ENV: 'production',
    DATABASE_URL: databaseUrl,
    ...TEST_SERVICE_KEYS,
    // Not contacted by preflight (the service tries it in the background at start).
    SMTP_URL: 'smtp://127.0.0.1:9',
    MAIL_FROM: 'Payments Gateway <no-reply@pay.example.com>',
    PUBLIC_BASE_URL: 'https://pay.example.com',
    REDIS_URL,
    ...mtn.env(),
    ...mpesa.env(),
    ...flw.env(),
  });

  it('everything in order against the local PostgreSQL, Redis and the providers’ fakes: every check ok, exit 0, nothing changed', async () => {
    const db = await database('production');
    const before = { mtn: mtn.tokensIssued.collection, mpesa: mpesa.tokensIssued };
    const migrations = await dbQuery(db.url, 'select count(*)::int as n from mikro_orm_migrations');

    const run = await runCli('preflight', [], only(production(db.url)));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(line('ok', 'environment', 'PAYMENTS_ENV=production'));
    expect(run.stdout).toMatch(line('ok', 'configuration', 'every variable the service reads is set and valid'));
    expect(run.stdout).toMatch(line('ok', 'provider mtn_momo', /collection: token issued.*disbursement: token issued/));
    expect(run.stdout).toMatch(line('ok', 'provider mpesa', /oauth: token issued/));
    expect(run.stdout).toMatch(line('ok', 'provider flutterwave', /secret key accepted/));
    expect(run.stdout).toMatch(line('ok', 'database', /postgresql:\/\/postgres@127\.0\.0\.1:5432\/pg_test_\w+ answers: PostgreSQL \d+/));
    expect(run.stdout).toMatch(line('ok', 'migrations', /\d+ applied, none pending; stamped production/));
    expect(run.stdout).toMatch(line('ok', 'redis', 'redis://127\\.0\\.0\\.1:6379 answers'));
    expect(run.stdout).not.toMatch(/^FAIL/m);
    // Warnings only about the server's own settings, which depend on the machine the tests run on.
    expect(run.stdout.match(/^warn {2}[^:]+/gm) ?? []).toEqual(serverWarnings(run.stdout));
    expect(run.stdout).toMatch(/^preflight: every check passed( \(\d+ warnings?\))?$/m);
    // provider:check's token calls were made; the database was read, not written (no instance, no migration).
    expect(mtn.tokensIssued.collection).toBe(before.mtn + 1);
    expect(mpesa.tokensIssued).toBe(before.mpesa + 1);
    expect(await dbQuery(db.url, 'select count(*)::int as n from mikro_orm_migrations')).toEqual(migrations);
    expect(await dbQuery(db.url, 'select count(*)::int as n from job_worker_instance')).toEqual([{ n: 0 }]);

    // A new, empty database passes too: its migrations are pending, the first start applies them (and stamps it).
    const empty = await database();
    const fresh = await runCli('preflight', [], only(production(empty.url)));
    expect(fresh.code).toBe(0);
    expect(fresh.stdout).toMatch(line('ok', 'migrations', /0 applied, \d+ pending \(the service applies them at start.*not stamped yet/));
    expect(await dbQuery(empty.url, `select to_regclass('mikro_orm_migrations') as t`)).toEqual([{ t: null }]);

    // Without REDIS_URL while an instance runs on the database: a warning (a second instance would need Redis), still 0.
    await dbQuery(db.url, `insert into job_worker_instance (pool_id, heartbeat_at) values ('preflight-test', now())`);
    const { REDIS_URL: _redis, ...noRedis } = production(db.url);
    const single = await runCli('preflight', [], only(noRedis));
    expect(single.code).toBe(0);
    expect(single.stdout).toMatch(line('warn', 'redis', 'REDIS_URL is unset and 1 instance\\(s\\) already run on this database'));
    expect(single.stdout).toMatch(/^ {6}fix: set REDIS_URL=redis:\/\/… on every instance before running more than one\n {6}see: docs\/going-live\.md#redis$/m);
    expect(single.stdout).toMatch(new RegExp(`^preflight: every check passed \\(${1 + serverWarnings(single.stdout).length} warnings?\\)$`, 'm'));
  });

  it('with problems, lists each with its fix and exits 1', async () => {
    // A sandbox database, two variables missing, a provider refusing its credentials, Redis where nothing listens.
    const db = await database('sandbox');
    const { TOKEN_SIGNING_KEY: _key, MAIL_FROM: _from, ...env } = production(db.url);
    const run = await runCli('preflight', [], only({ ...env, MTN_MOMO_COLLECTION_API_KEY: 'wrong-key', REDIS_URL: 'redis://127.0.0.1:1' }));
    expect(run.code).toBe(1);
    const fixed = (status: string, name: string, detail: RegExp | string, doc: string) =>
      new RegExp(`${line(status, name, detail).source}[^\\n]*\\n {6}fix: [^\\n]+\\n {6}see: docs/going-live\\.md#${doc}$`, 'm');
    expect(run.stdout).toMatch(fixed('FAIL', 'configuration', 'TOKEN_SIGNING_KEY is required in production', 'keys-and-secrets'));
    expect(run.stdout).toMatch(fixed('FAIL', 'configuration', 'MAIL_FROM is required in production', 'keys-and-secrets'));
    expect(run.stdout).toMatch(fixed('FAIL', 'provider mtn_momo', /.*refused our collection credentials/, 'providers-credentials'));
    expect(run.stdout).toMatch(line('ok', 'provider mpesa'));
    expect(run.stdout).toMatch(line('ok', 'database'));
    expect(run.stdout).toMatch(
      fixed('FAIL', 'migrations', /This database belongs to sandbox \(its deployment stamp\) but PAYMENTS_ENV is production/, 'database'),
    );
    expect(run.stdout).toMatch(fixed('FAIL', 'redis', 'redis://127\\.0\\.0\\.1:1 does not answer', 'redis'));
    expect(run.stdout).toMatch(/^preflight: 5 of \d+ checks failed( \(\d+ warnings?\))?: fix them and run it again \(docs\/going-live\.md#checklist\)$/m);

    // A database that does not answer.
    const unreachable = await runCli('preflight', [], only({ ...production('postgresql://postgres@127.0.0.1:1/none'), REDIS_URL }));
    expect(unreachable.code).toBe(1);
    expect(unreachable.stdout).toMatch(fixed('FAIL', 'database', 'postgresql://postgres@127\\.0\\.0\\.1:1/none does not answer', 'database'));
    expect(unreachable.stdout).toMatch(/^preflight: 1 of \d+ checks failed/m);
  });
});
