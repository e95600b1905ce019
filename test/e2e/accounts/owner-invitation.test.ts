import { request } from '../../helpers/http';
import { assertBuilt, runCli, serviceEnv } from '../../helpers/process';
import { linkIn, startSmtpServer, type TestSmtpServer } from '../../helpers/smtp';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { dbQuery } from '../../helpers/webhooks';

/**
 * In production merchants do not sign up: an operator creates the merchant and invites its owner
 * (issue 36, point 3): `npm run merchant:create -- --name … --owner-email …` emails a link over SMTP;
 * accepting it makes the owner, who then runs the team. The operator's invitation is in the audit log.
 */
describe('merchant:create --owner-email', () => {
  let app: TestApp;
  let smtp: TestSmtpServer;

  beforeAll(async () => {
    assertBuilt();
    app = await createTestApp();
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.close();
  });

  it('creates the merchant, emails its owner a 7-day link, and the link makes them its owner', async () => {
    const env = serviceEnv(app.db.url, { PAYMENTS_ENV: 'sandbox', SMTP_URL: smtp.url(), PUBLIC_BASE_URL: 'https://pay.example.com' });
    const cli = await runCli('merchant-create', ['--name', 'Acme Ltd', '--owner-email', 'Owner@Acme.example'], env);
    expect(cli.stderr).not.toMatch(/failed/);
    expect(cli.code).toBe(0);
    const out = JSON.parse(cli.stdout);
    expect(out).toMatchObject({ name: 'Acme Ltd', client_id: expect.any(String), client_secret: expect.any(String) });
    expect(out.owner_invitation).toMatchObject({ email: 'owner@acme.example', role: 'owner' });

    const mail = await smtp.waitForMessage((m) => m.to.includes('owner@acme.example'), 10_000);
    const link = linkIn(mail, '/dashboard/accept-invitation');
    expect(link.startsWith('https://pay.example.com/')).toBe(true);
    const token = new URL(link).searchParams.get('token')!;
    const headers = { 'x-requested-with': 'XMLHttpRequest' };
    const preview = await request(app.url, 'GET', `/dashboard/invitations/preview?token=${encodeURIComponent(token)}`, { headers });
    expect(preview.body.data).toMatchObject({ merchant_name: 'Acme Ltd', email: 'owner@acme.example', role: 'owner', existing_user: false });
    const accepted = await request(app.url, 'POST', '/dashboard/invitations/accept', {
      headers,
      body: { token, name: 'Ada Owner', password: 'a long passphrase' },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data).toMatchObject({ merchant_id: out.merchant_id, role: 'owner' });

    const [entry] = await dbQuery(
      app.db.url,
      `select actor_type, actor_label, action, after from audit_log where merchant_id = $1 and action = 'invitation.created'`,
      [out.merchant_id],
    );
    expect(entry).toMatchObject({ actor_type: 'operator', actor_label: 'merchant:create', after: expect.objectContaining({ role: 'owner' }) });
    const members = await dbQuery(app.db.url, 'select m.role, u.email from membership m join app_user u on u.id = m.user_id where m.merchant_id = $1', [
      out.merchant_id,
    ]);
    expect(members).toEqual([{ role: 'owner', email: 'owner@acme.example' }]);
  });

  it('refuses an address that is not one, and creates nothing then', async () => {
    const env = serviceEnv(app.db.url, { PAYMENTS_ENV: 'sandbox', SMTP_URL: smtp.url() });
    const before = (await dbQuery(app.db.url, 'select count(*)::int as n from merchant'))[0].n;
    const cli = await runCli('merchant-create', ['--name', 'Bad Invite Ltd', '--owner-email', 'not an address'], env);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(/email/);
    expect((await dbQuery(app.db.url, 'select count(*)::int as n from merchant'))[0].n).toBe(before);
  });
});
