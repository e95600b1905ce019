import { dbQuery } from '../../helpers/webhooks';
import { MtnMomoFake } from '../../fakes/mtn-momo.fake';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { request } from '../../helpers/http';
import { assertBuilt, cleanEnv, runCli, serviceEnv, startServiceProcess } from '../../helpers/process';
import { awaitStatus, ghMtnCollection, railsApp, railsMerchant } from '../../helpers/rails';
import { createTestApp, type TestApp } from '../../helpers/test-app';

/**
 * Issue 34, L2 and L3: the database says which environment it belongs to (table `deployment`,
 * stamped by the migration that creates it), and the service and every operator CLI refuse a
 * database of another environment, before anything is read or written. ledger:verify takes the
 * environment from the database.
 */

const query = dbQuery;

/** A CLI's environment on `url`: the service's keys (createTestApp's), and PAYMENTS_ENV only when given. */
function cliEnv(url: string, paymentsEnv?: 'sandbox' | 'production'): NodeJS.ProcessEnv {
  const env = cleanEnv({
    DATABASE_URL: url,
    LOG_LEVEL: 'error',
    TOKEN_SIGNING_KEY: 'test-signing-key-0123456789abcdefghijklmnopqrstuvwxyz',
    ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
  });
  delete env.PAYMENTS_ENV;
  if (paymentsEnv) env.PAYMENTS_ENV = paymentsEnv;
  return env;
}

const tokenWith = (url: string, clientId: string, clientSecret: string) =>
  request(url, 'POST', '/v1/oauth/token', { body: { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret } });

const MISMATCH = (database: string, shell: string) =>
  new RegExp(`This database belongs to ${database} \\(its deployment stamp\\) but PAYMENTS_ENV is (unset, which means )?${shell}: refusing to work on it`);

beforeAll(() => assertBuilt());

describe('a production database whose first merchant is named "Demo Merchant"', () => {
  let app: TestApp;
  let demo: Awaited<ReturnType<TestApp['createMerchant']>>;

  beforeAll(async () => {
    app = await createTestApp({ env: { PAYMENTS_ENV: 'production' } });
    demo = await app.createMerchant('Demo Merchant');
  });
  afterAll(async () => {
    await app?.close();
  });

  it('is stamped production at its first migration', async () => {
    expect(await query(app.db.url, 'select environment from deployment')).toEqual([{ environment: 'production' }]);
  });

  it('demo:credentials from a shell without PAYMENTS_ENV prints no secret and rotates nothing: it exits 1 saying why', async () => {
    for (const args of [[], ['--rotate-secret']]) {
      const run = await runCli('demo-credentials', args, cliEnv(app.db.url));
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(MISMATCH('production', 'sandbox'));
      expect(run.stderr).not.toContain(demo.webhookSecret);
    }
    // The client secret still works: nothing was rotated.
    expect((await tokenWith(app.url, demo.merchant.clientId, demo.clientSecret)).status).toBe(200);
  });

  it('every operator CLI from a sandbox shell (unset or said) is refused with a non-zero exit, and writes nothing', async () => {
    const merchantsBefore = await query(app.db.url, 'select count(*)::int as n from merchant');
    const runsBefore = await query(app.db.url, 'select count(*)::int as n from reconciliation_run');
    const runs: Array<[string, string[]]> = [
      ['merchant-create', ['--name', 'Wrong shell']],
      ['merchant-access', ['disable', demo.merchant.id]],
      ['kyc-review', ['list']],
      ['ledger-adjust', [demo.merchant.id, '--currency', 'NGN', '--amount', '5', '--reason', 'x', '--reference', 'ADJ-WRONG-ENV']],
      ['migrate', []],
    ];
    for (const paymentsEnv of [undefined, 'sandbox'] as const) {
      for (const [name, args] of runs) {
        const run = await runCli(name, args, cliEnv(app.db.url, paymentsEnv));
        expect({ name, paymentsEnv, code: run.code }).toEqual({ name, paymentsEnv, code: 1 });
        expect(run.stderr).toMatch(MISMATCH('production', 'sandbox'));
      }
    }
    // recon, like ledger:verify, takes the environment from the stamp when PAYMENTS_ENV is unset (and says so); a shell
    // saying sandbox is refused. (No connector is configured here, so the unset run stops at its --connector.)
    const reconSandbox = await runCli('reconcile', ['--connector', 'flutterwave'], cliEnv(app.db.url, 'sandbox'));
    expect(reconSandbox.code).toBe(1);
    expect(reconSandbox.stderr).toMatch(MISMATCH('production', 'sandbox'));
    const reconUnset = await runCli('reconcile', ['--connector', 'flutterwave'], cliEnv(app.db.url));
    expect(reconUnset.stderr).toContain('environment: production (the database’s stamp; PAYMENTS_ENV is unset)');
    expect(await query(app.db.url, 'select count(*)::int as n from merchant')).toEqual(merchantsBefore);
    expect(await query(app.db.url, `select count(*)::int as n from ledger_entry where key like 'adjustment:%'`)).toEqual([{ n: 0 }]);
    expect(await query(app.db.url, 'select count(*)::int as n from reconciliation_run')).toEqual(runsBefore);
    expect((await tokenWith(app.url, demo.merchant.clientId, demo.clientSecret)).status).toBe(200);
  }, 180_000); // twelve CLI processes, one after another

  it('the same CLIs with PAYMENTS_ENV=production work on it', async () => {
    const listed = await runCli('kyc-review', ['list'], cliEnv(app.db.url, 'production'));
    expect(listed.code).toBe(0);
    const migrated = await runCli('migrate', [], cliEnv(app.db.url, 'production'));
    expect(migrated.code).toBe(0);
  });
});

describe('a sandbox database', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('is stamped sandbox; a production shell’s CLIs are refused', async () => {
    expect(await query(app.db.url, 'select environment from deployment')).toEqual([{ environment: 'sandbox' }]);
    const run = await runCli('kyc-review', ['list'], cliEnv(app.db.url, 'production'));
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(MISMATCH('sandbox', 'production'));
    expect((await runCli('kyc-review', ['list'], cliEnv(app.db.url))).code).toBe(0);
  });

  it('a production server refuses to start on it, with one plain log line, and a sandbox one on a production database', async () => {
    const wrong = await startServiceProcess(serviceEnv(app.db.url, { PAYMENTS_ENV: 'production', LOG_LEVEL: 'info' })).then(
      async (proc) => {
        await proc.stop('SIGKILL');
        return null;
      },
      (err: Error) => err.message,
    );
    expect(wrong).toMatch(/service exited with 1 before listening/);
    expect(wrong).toMatch(/"level":60.*refusing to start: This database belongs to sandbox \(its deployment stamp\) but PAYMENTS_ENV is production/);

    const production = await createTestDatabase();
    try {
      const first = await startServiceProcess(serviceEnv(production.url, { PAYMENTS_ENV: 'production' }));
      await first.stop();
      const sandbox = await startServiceProcess(serviceEnv(production.url, { PAYMENTS_ENV: 'sandbox' })).then(
        async (proc) => {
          await proc.stop('SIGKILL');
          return null;
        },
        (err: Error) => err.message,
      );
      expect(sandbox).toMatch(/refusing to start: This database belongs to production \(its deployment stamp\) but PAYMENTS_ENV is sandbox/);
      // No demo merchant was made on the production database by the sandbox start.
      expect(await query(production.url, 'select count(*)::int as n from merchant')).toEqual([{ n: 0 }]);
    } finally {
      await production.drop();
    }
  });
});

describe('a database made before the stamp existed', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
    const app = await createTestApp({ database: db, env: { PAYMENTS_ENV: 'production' } });
    await app.close();
    // As it was before this version: no stamp, and its migration not applied.
    await query(db.url, 'drop table deployment');
    await query(db.url, `delete from mikro_orm_migrations where name = 'Migration20261202010000_deployment_stamp'`);
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('an operator tool does not stamp it (it would guess from the shell); npm run migrate with PAYMENTS_ENV stamps it', async () => {
    const refused = await runCli('kyc-review', ['list'], cliEnv(db.url));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('This database has no environment stamp yet');
    expect(await query(db.url, `select to_regclass('deployment') is null as absent`)).toEqual([{ absent: true }]);

    const migrated = await runCli('migrate', [], cliEnv(db.url, 'production'));
    expect(migrated.code).toBe(0);
    expect(await query(db.url, 'select environment from deployment')).toEqual([{ environment: 'production' }]);
    expect((await runCli('kyc-review', ['list'], cliEnv(db.url, 'production'))).code).toBe(0);
  });
});

describe('ledger:verify takes the environment from the database (L3)', () => {
  let fake: MtnMomoFake;
  let app: TestApp;

  beforeAll(async () => {
    fake = await MtnMomoFake.start({ decisionDelayMs: 30, targetEnvironment: 'mtnghana', currency: 'GHS' });
    // Production's own settlement delay (a day): a settled collection's net waits in pending, not yet released.
    app = await railsApp({ ...fake.env(), SETTLEMENT_DELAY_S: '' });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await fake?.close();
  });

  it('clean production books verify clean from a shell without PAYMENTS_ENV; a shell saying sandbox is refused', async () => {
    const m = await railsMerchant(app);
    const body = ghMtnCollection(m.customerUuid);
    expect((await request(app.url, 'POST', '/v1/crossborder/global-collection', { token: m.token, body })).status).toBe(200);
    expect((await awaitStatus(app, body.reference, 'successful'))?.status).toBe('successful');
    // The service's own verification agrees the books are clean.
    const own = await app.service.app.services.ledger.verify(app.service.app.services.transactions.expectedLegs());
    expect(own.problems).toEqual([]);

    const unset = await runCli('ledger-verify', [], cliEnv(app.db.url));
    expect(JSON.parse(unset.stdout)).toMatchObject({ ok: true, problems: [] });
    expect(unset.code).toBe(0);
    expect(unset.stderr).toContain('environment: production (the database’s stamp; PAYMENTS_ENV is unset)');

    const said = await runCli('ledger-verify', [], cliEnv(app.db.url, 'production'));
    expect(said.code).toBe(0);
    expect(JSON.parse(said.stdout)).toMatchObject({ ok: true, problems: [] });

    const wrong = await runCli('ledger-verify', [], cliEnv(app.db.url, 'sandbox'));
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toBe('');
    expect(wrong.stderr).toMatch(MISMATCH('production', 'sandbox'));
  });
});
