import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { signInDashboard } from '../../helpers/accounts';
import { request } from '../../helpers/http';
import { eventually } from '../../helpers/wait';
import { DIST_CLI, assertBuilt, runCli, cleanEnv, serviceEnv, startServiceProcess, type ServiceProcess } from '../../helpers/process';
import { DEFAULT_EVENT_TYPES } from '../../../src/modules/outbox/event-types';

interface Banner {
  merchant_id: string;
  client_id: string;
  client_secret: string;
  webhook_secret: string;
  /** How the demo merchant's owner signs in to the dashboard (issue 36). */
  dashboard_owner: { email: string; password: string };
}

/** The credentials the first start printed (the JSON between the banner's lines). */
function bannerOf(stdout: string): Banner {
  const start = stdout.indexOf('{\n');
  const end = stdout.indexOf('\n}', start);
  if (start < 0 || end < 0) throw new Error(`no demo merchant banner in:\n${stdout}`);
  return JSON.parse(stdout.slice(start, end + 2));
}

/** Runs the built demo:credentials CLI. */
const demoCredentials = (args: string[], env: NodeJS.ProcessEnv) => runCli('demo-credentials', args, env);

const tokenWith = (url: string, clientId: string, clientSecret: string) =>
  request(url, 'POST', '/v1/oauth/token', { body: { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret } });

/** Issue 24: the first start's demo credentials, shown again on purpose (the client secret only by replacing it). */
describe('demo:credentials CLI (sandbox, against a running service)', () => {
  let db: TestDatabase;
  let env: NodeJS.ProcessEnv;
  let proc: ServiceProcess;
  let banner: Banner;

  beforeAll(async () => {
    assertBuilt();
    if (!fs.existsSync(DIST_CLI('demo-credentials'))) throw new Error('dist/src/cli/demo-credentials.js is missing: run `npm run build`');
    db = await createTestDatabase();
    env = serviceEnv(db.url);
    proc = await startServiceProcess(env);
    banner = bannerOf(proc.stdout());
    expect(proc.stdout()).toContain('npm run demo:credentials');
  });
  afterAll(async () => {
    await proc?.stop();
    await db?.drop();
  });

  it('--help says what it shows, that the client secret cannot be shown, and that rotating invalidates the old one', async () => {
    const help = await demoCredentials(['--help'], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: npm run demo:credentials \[-- --rotate-secret\] \[-- --reset-owner-password\]\n/);
    expect(help.stdout).toContain('Sandbox only');
    expect(help.stdout).toContain('The client secret cannot be shown again');
    expect(help.stdout).toContain('old client secret stops working at once');
    expect(help.stderr).toBe('');
  });

  it('without --rotate-secret: the ids and the webhook secret, no client secret, and nothing changed', async () => {
    const shown = await demoCredentials([], env);
    expect(shown.code).toBe(0);
    const out = JSON.parse(shown.stdout);
    expect(out).toEqual({
      merchant_id: banner.merchant_id,
      name: 'Demo Merchant',
      client_id: banner.client_id,
      webhook_url: null,
      webhook_event_types: [...DEFAULT_EVENT_TYPES],
      webhook_secret_overlap_until: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      webhook_secret: banner.webhook_secret,
      owner_email: 'owner@demo.example',
    });
    expect(shown.stderr).toContain(`database: ${db.url}`);
    expect(shown.stderr).toContain('client_secret is not shown: only its hash is stored, so it cannot be shown again.');
    expect(shown.stderr).toContain('--rotate-secret');
    expect(shown.stderr).not.toContain(banner.webhook_secret);
    // The first start's secret still works.
    expect((await tokenWith(proc.url, banner.client_id, banner.client_secret)).status).toBe(200);
  });

  it('--rotate-secret: a new client secret that works; the old one and the tokens issued with it refused; one audit entry by the operator', async () => {
    const before = await tokenWith(proc.url, banner.client_id, banner.client_secret);
    expect(before.status).toBe(200);
    const { access_token: accessToken, refresh_token: refreshToken } = before.body.data;
    expect((await request(proc.url, 'GET', '/v1/merchant', { token: accessToken })).status).toBe(200);

    const rotated = await demoCredentials(['--rotate-secret'], env);
    expect(rotated.code).toBe(0);
    const out = JSON.parse(rotated.stdout);
    expect(out).toMatchObject({
      merchant_id: banner.merchant_id,
      name: 'Demo Merchant',
      client_id: banner.client_id,
      client_secret: expect.stringMatching(/^sk_/),
      webhook_secret: banner.webhook_secret,
    });
    expect(out.client_secret).not.toBe(banner.client_secret);
    expect(rotated.stderr).toContain('client_secret is NEW: the old one was replaced and stops working now (401 INVALID_CLIENT)');
    expect(rotated.stderr).toContain('Tokens issued with the key before are ended too');
    // Never in the logs: the CLI's (stderr) nor the service's.
    for (const secret of [out.client_secret, banner.client_secret, banner.webhook_secret]) expect(rotated.stderr).not.toContain(secret);

    const fresh = await tokenWith(proc.url, banner.client_id, out.client_secret);
    expect(fresh.status).toBe(200);
    const old = await tokenWith(proc.url, banner.client_id, banner.client_secret);
    expect(old.status).toBe(401);
    expect(old.body).toEqual({ status: 'error', code: 'INVALID_CLIENT', message: 'Client authentication failed' });

    // As the dashboard's rotation: the tokens issued with the old secret end, on the running service too.
    expect(await eventually(async () => (await request(proc.url, 'GET', '/v1/merchant', { token: accessToken })).status === 401)).toBe(true);
    const refreshed = await request(proc.url, 'POST', '/v1/oauth/token', { body: { grant_type: 'refresh_token', refresh_token: refreshToken } });
    expect(refreshed.status).toBe(401);
    // A token issued after the rotation works.
    expect((await request(proc.url, 'GET', '/v1/merchant', { token: fresh.body.data.access_token })).status).toBe(200);

    // One audit entry, the same the dashboard's rotation writes, by the operator's CLI: what the owner reads; no secret in it.
    const owner = await signInDashboard({ url: proc.url }, banner.dashboard_owner);
    const audit = await request(proc.url, 'GET', '/v1/audit-logs?action=api_key.rotated', { token: owner.accessToken });
    expect(audit.status).toBe(200);
    expect(audit.body.data).toEqual([
      expect.objectContaining({
        actor_type: 'operator',
        actor_label: 'demo:credentials',
        role: null,
        target_type: 'api_key',
        ip: null,
        after: { client_id: banner.client_id },
      }),
    ]);
    expect(audit.text).not.toContain(out.client_secret);

    // Shown again later: the ids, not the secret just issued.
    const again = await demoCredentials([], env);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).client_secret).toBeUndefined();
    banner = { ...banner, client_secret: out.client_secret };
    expect(proc.stdout() + proc.stderr()).not.toContain(out.client_secret);
  });

  it('the first start made the owner (printed once with the credentials); --reset-owner-password sets a new password, the old one refused', async () => {
    const signIn = (password: string) =>
      request(proc.url, 'POST', '/dashboard/session', { headers: { 'x-requested-with': 'fetch' }, body: { email: banner.dashboard_owner.email, password } });
    expect(banner.dashboard_owner).toEqual({ email: 'owner@demo.example', password: expect.stringMatching(/^demo_/) });
    const first = await signIn(banner.dashboard_owner.password);
    expect([first.status, first.body.data?.role, first.body.data?.merchant_id]).toEqual([200, 'owner', banner.merchant_id]);

    const reset = await demoCredentials(['--reset-owner-password'], env);
    expect(reset.code).toBe(0);
    const out = JSON.parse(reset.stdout);
    expect(out).toMatchObject({ owner_email: 'owner@demo.example', owner_password: expect.stringMatching(/^demo_/) });
    expect(reset.stderr).toContain('owner_password is NEW');
    expect(reset.stderr).not.toContain(out.owner_password);
    expect((await signIn(banner.dashboard_owner.password)).status).toBe(401);
    expect((await signIn(out.owner_password)).status).toBe(200);
    // The session signed in before the reset ends (within the revocation poll, on the running service).
    const [setCookie] = first.headers.getSetCookie();
    const cookie = /^dashboard_session=([^;]*)/.exec(setCookie ?? '')?.[1];
    const refreshed = await request(proc.url, 'POST', '/dashboard/session/refresh', {
      headers: { 'x-requested-with': 'fetch', cookie: `dashboard_session=${cookie}` },
    });
    expect(refreshed.status).toBe(401);
    banner = { ...banner, dashboard_owner: { email: 'owner@demo.example', password: out.owner_password } };
  });

  it('refuses outside the sandbox, before opening anything, and changes nothing', async () => {
    for (const args of [[], ['--rotate-secret']]) {
      const refused = await demoCredentials(args, { ...env, PAYMENTS_ENV: 'production' });
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toMatch(/^demo:credentials failed: only the sandbox \(PAYMENTS_ENV=sandbox\) has a demo merchant; /);
      expect(refused.stderr).not.toContain('database:');
    }
    expect((await tokenWith(proc.url, banner.client_id, banner.client_secret)).status).toBe(200);
  });

  it('a database whose first merchant is not the demo merchant has none to show', async () => {
    const other = await createTestDatabase();
    try {
      const otherEnv = serviceEnv(other.url);
      const created = await new Promise<number | null>((resolve, reject) => {
        const child = spawn(process.execPath, [DIST_CLI('merchant-create'), '--name', 'Acme Ltd'], { env: otherEnv, stdio: 'ignore' });
        child.on('error', reject);
        child.on('exit', resolve);
      });
      expect(created).toBe(0);
      const none = await demoCredentials(['--rotate-secret'], otherEnv);
      expect(none.code).toBe(1);
      expect(none.stdout).toBe('');
      expect(none.stderr).toContain('demo:credentials failed: This database has no demo merchant');
    } finally {
      await other.drop();
    }
  });
});

describe('demo:credentials CLI without a database', () => {
  it('refuses with DATABASE_URL unset and no embedded database in DATA_DIR, and writes nothing', async () => {
    assertBuilt();
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'payments-no-demo-'));
    try {
      const failed = await demoCredentials(['--rotate-secret'], cleanEnv({ DATA_DIR: empty }));
      expect(failed.code).toBe(1);
      expect(failed.stdout).toBe('');
      expect(failed.stderr).toContain(`No database to open: DATABASE_URL is unset and ${empty} holds no embedded database`);
      expect(fs.readdirSync(empty)).toEqual([]);
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
