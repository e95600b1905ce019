import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { totpCodeAt } from '../../../src/modules/accounts/totp';
import { DASHBOARD_DIST } from '../../../src/transport/dashboard/dashboard.routes';
import { DASHBOARD_HEADERS, signInDashboard, signInDashboardUser } from '../../helpers/accounts';
import { expectNothingKept, launchBrowser, openScreen, screenshots, type TestBrowser } from '../../helpers/browser';
import { graphql, request } from '../../helpers/http';
import { linkIn, startSmtpServer, type ReceivedMail, type TestSmtpServer } from '../../helpers/smtp';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { eventually } from '../../helpers/wait';
import { signInWith, type DashboardLogin } from './sign-in';

/**
 * Team accounts (issue 36) in headless Chromium against the real service, with its mail going to a
 * real SMTP server started here: sign up (the secrets shown once), the verification email arrives
 * and its link confirms the address, sign in, enrol in 2FA (this test computes the TOTP from the
 * secret the page shows, at the service's clock), sign in again with a code, invite a finance
 * member, who accepts in a second browser (its own profile: no shared cookie), downloads a
 * statement and can neither see nor create API keys (the service refuses it too). The owner then
 * sees the member and the audit log's entries, and makes an API key whose secret is shown once.
 * Then each control of the Team, Profile and API keys pages and the merchant switcher, driven in the page
 * and checked at the service: last sign-in times, a password change (another session of the owner ends,
 * this one stays), switching merchant, resending and revoking an invitation, rotating and revoking a key,
 * and requiring 2FA (the member without it is signed out at once and can then only enrol).
 * With SCREENSHOTS=1 it writes docs/dashboard/ (sign-up, profile, team, api-keys, audit-log).
 */

const SHOTS = process.env.SCREENSHOTS === '1' ? path.resolve(__dirname, '../../../docs/dashboard') : null;
const shot = (page: Page, name: string) => screenshots(page, SHOTS, name);

const OWNER: DashboardLogin = { email: 'ada@lagos-foods.test', password: 'correct horse battery staple' };
const FINANCE: DashboardLogin = { email: 'femi@lagos-foods.test', password: 'ledger lines and totals' };
const BUSINESS = 'Lagos Foods';

/** The first message to `to` (by its SMTP envelope) whose subject matches. */
const mailTo = (smtp: TestSmtpServer, to: string, subject: RegExp) => smtp.waitForMessage((m) => m.envelope.to.includes(to) && subject.test(m.subject), 10_000);

/** What the dashboard shows for a time (ui.tsx `when`): the browser's own locale and time zone, computed in the page. */
const shownAt = (page: Page, iso: string) =>
  page.evaluate(`new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(${JSON.stringify(iso)}))`);

/** Accepts the next confirm() the page asks (Playwright dismisses a dialog nobody handles). */
const acceptNextDialog = (page: Page) => page.once('dialog', (dialog) => void dialog.accept());

/** An emailed link's path and query, on this test's service (the link's host is the service's public address). */
const onService = (app: TestApp, link: string) => {
  const url = new URL(link);
  return `${app.url}${url.pathname}${url.search}`;
};

/** The invitation's link (the accept page's path, whichever spelling the service writes). */
function invitationLink(message: ReceivedMail): string {
  try {
    return linkIn(message, '/dashboard/accept-invitation');
  } catch {
    return linkIn(message, '/dashboard/invitations/accept');
  }
}

describe('team accounts in the dashboard', () => {
  let smtp: TestSmtpServer;
  let app: TestApp;
  let owners: TestBrowser;
  let members: TestBrowser;
  let page: Page;
  let member: Page;
  let totpSecret: string;
  /** A second session of the owner's, signed in through the service (not this browser). */
  let ownerElsewhere: Awaited<ReturnType<typeof signInDashboard>>;

  beforeAll(async () => {
    if (!existsSync(path.join(DASHBOARD_DIST, 'index.html'))) throw new Error('dist/dashboard is missing: run `npm run build:dashboard`');
    smtp = await startSmtpServer();
    app = await createTestApp({ env: { SMTP_URL: smtp.url(), MAIL_FROM: 'Payments Gateway <no-reply@pay.example.com>', SANDBOX_SETTLE_MS: '600000' } });
    owners = await launchBrowser();
    page = await owners.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
  });
  afterAll(async () => {
    await members?.close();
    await owners?.close();
    await app?.close();
    await smtp?.close();
  });

  it('1. signs up: the client secret and the webhook secret shown once, then the dashboard with a banner to confirm the email', async () => {
    await page.goto(`${app.url}/dashboard`);
    await page.getByRole('link', { name: 'Create an account' }).click();
    const form = page.getByRole('form', { name: 'Sign up' });
    await form.getByLabel('Email', { exact: true }).fill(OWNER.email);
    await form.getByLabel('Your name').fill('Ada Obi');
    await form.getByLabel('Business name').fill(BUSINESS);
    await form.getByLabel('Country').fill('NG');
    await form.getByLabel(/^Password/).fill(OWNER.password);
    await form.getByRole('button', { name: 'Create account' }).click();

    const secrets = page.getByRole('region', { name: 'Your API secrets' });
    const clientSecret = (await secrets.getByTestId('client-secret').textContent())!;
    const webhookSecret = (await secrets.getByTestId('webhook-secret').textContent())!;
    expect(clientSecret.length).toBeGreaterThan(20);
    expect(webhookSecret).toMatch(/^whsec_/);
    await shot(page, 'sign-up-secrets');
    await secrets.getByRole('button', { name: 'I have saved them' }).click();

    await page.getByRole('heading', { name: 'Overview', level: 2 }).waitFor();
    expect(await page.getByTestId('merchant-name').textContent()).toBe(BUSINESS);
    await page.getByRole('region', { name: 'Confirm your email' }).waitFor();
    // Shown once: nowhere on the page any more, nor kept by the browser.
    expect(await page.getByText(clientSecret).count()).toBe(0);
    await expectNothingKept(page, [clientSecret, webhookSecret]);
  });

  it('2. the verification email arrives at the SMTP server, and its link confirms the address', async () => {
    const message = await mailTo(smtp, OWNER.email, /verif|confirm/i);
    expect(message.html).toBeTruthy();
    const link = linkIn(message, '/dashboard/verify-email');
    await page.goto(onService(app, link));
    await page.getByText('Your email is confirmed.').waitFor();
    // The link's token left the address bar at once.
    expect(page.url()).toBe(`${app.url}/dashboard/verify-email`);
    await page.getByRole('link', { name: 'Open the dashboard' }).click();
    await page.getByRole('heading', { name: 'Overview', level: 2 }).waitFor();
    expect(await page.getByRole('region', { name: 'Confirm your email' }).count()).toBe(0);
  });

  it('3. signs out, and signs in with the email and password', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('form', { name: 'Sign in' }).waitFor();
    // A wrong password: refused in plain words.
    await signInWith(page, app, { ...OWNER, password: 'not the password at all' }, { goto: false });
    await page.getByRole('alert').filter({ hasText: 'That email and password do not match' }).waitFor();
    await signInWith(page, app, OWNER, { goto: false });
    await page.getByRole('heading', { name: 'Overview', level: 2 }).waitFor();
  });

  it('4. enrols in 2FA: the QR code and the secret, a code computed here, then the 10 recovery codes once', async () => {
    await openScreen(page, 'Profile');
    await page.getByRole('heading', { name: 'Profile', level: 2 }).waitFor();
    await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    const form = page.getByRole('form', { name: 'Confirm two-factor authentication' });
    await form.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    totpSecret = (await form.getByTestId('totp-secret').textContent())!.trim();
    expect(totpSecret).toMatch(/^[A-Z2-7]{32}$/);
    // What an authenticator app shows now, by the service's clock (tests move it).
    await form.getByLabel('Code from your app').fill(totpCodeAt(totpSecret, app.clock.now()));
    await form.getByRole('button', { name: 'Turn on' }).click();

    const codes = page.getByRole('region', { name: 'Recovery codes' });
    await codes.getByTestId('recovery-codes').waitFor();
    expect(await codes.getByTestId('recovery-codes').locator('li').count()).toBe(10);
    await shot(page, 'profile-recovery-codes');
    await codes.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByTestId('two-factor-status').filter({ hasText: 'On.' }).waitFor();
    await expectNothingKept(page, [totpSecret]);
  });

  it('… and from now on signing in asks for a code', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    // A code of a later step than the one enrolment used (each code works once).
    app.clock.advance(30_000);
    await signInWith(page, app, OWNER, { code: totpCodeAt(totpSecret, app.clock.now()) });
    await page.getByRole('heading', { name: 'Overview', level: 2 }).waitFor();
  });

  it('5. invites a finance member from Team', async () => {
    await openScreen(page, 'Team');
    await page.getByRole('heading', { name: 'Team', level: 2 }).waitFor();
    const owner = page.locator(`tr[data-member="${OWNER.email}"]`);
    await owner.getByText('on', { exact: true }).waitFor(); // 2FA on
    const invite = page.getByRole('form', { name: 'Invite a member' });
    await invite.getByLabel('Email', { exact: true }).fill(FINANCE.email);
    await invite.getByLabel('Role').selectOption('FINANCE');
    await invite.getByRole('button', { name: 'Invite' }).click();
    await invite.getByText(`Invitation sent to ${FINANCE.email}.`).waitFor();
    await page.locator(`tr[data-invitation="${FINANCE.email}"]`).getByText('pending', { exact: true }).waitFor();
    await shot(page, 'team');
  });

  it('6. the member accepts the invitation in a second browser, and is signed in at the merchant', async () => {
    const message = await mailTo(smtp, FINANCE.email, /invit|join/i);
    members = await launchBrowser();
    member = await members.newPage();
    await member.setViewportSize({ width: 1280, height: 800 });
    await member.goto(onService(app, invitationLink(message)));
    const form = member.getByRole('form', { name: 'Accept invitation' });
    await form.getByText(BUSINESS, { exact: true }).waitFor();
    await form.getByText('finance', { exact: true }).waitFor();
    expect(member.url()).not.toContain('token');
    await form.getByLabel('Your name').fill('Femi Ade');
    await form.getByLabel('Choose a password').fill(FINANCE.password);
    await form.getByRole('button', { name: 'Accept and sign in' }).click();
    await member.getByRole('heading', { name: 'Overview', level: 2 }).waitFor();
    expect(await member.getByTestId('merchant-name').textContent()).toBe(BUSINESS);

    // The owner sees the new member, without 2FA yet.
    await page.reload();
    const role = page.locator(`tr[data-member="${FINANCE.email}"]`).getByLabel(`Role of ${FINANCE.email}`);
    expect(await role.inputValue()).toBe('FINANCE');
  });

  it('7. the finance member downloads a statement, and cannot create an API key', async () => {
    await openScreen(member, 'Balance');
    const statement = member.getByRole('form', { name: 'Statement' });
    await statement.getByRole('button', { name: 'Download CSV' }).waitFor();
    const download = member.waitForEvent('download');
    await statement.getByRole('button', { name: 'Download CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^statement-[A-Z]{3}-.*\.csv$/);
    const csv = await readFile((await file.path())!, 'utf8');
    expect(csv.split('\r\n')[1]).toMatch(/^opening_balance,/);

    // Hidden: no API keys page in the navigation, and the page itself offers nothing.
    const nav = member.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Balance', exact: true }).waitFor();
    expect(await nav.getByRole('link', { name: 'API keys' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'Audit log' }).count()).toBe(0);
    await member.goto(`${app.url}/dashboard/api-keys`);
    await member.getByText('Your role does not manage API keys').waitFor();
    expect(await member.getByRole('button', { name: 'Create key' }).count()).toBe(0);

    // Refused by the service too, through both doors, with the member's own session.
    const session = await request(app.url, 'POST', '/dashboard/session', { headers: { 'x-requested-with': 'fetch' }, body: FINANCE });
    expect(session.status).toBe(200);
    const token: string = session.body.data.access_token;
    const rest = await request(app.url, 'POST', '/v1/api-keys', { token, body: { label: 'Sneaky' } });
    expect([rest.status, rest.body.code]).toEqual([403, 'FORBIDDEN']);
    const viaGraphql = await graphql(app.url, 'mutation { createApiKey(label: "Sneaky") { clientSecret } }', { token });
    expect(viaGraphql.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it('the owner makes an API key (its secret shown once) and reads the audit log', async () => {
    await openScreen(page, 'API keys');
    await page.getByRole('heading', { name: 'API keys', level: 2 }).waitFor();
    const create = page.getByRole('form', { name: 'Create an API key' });
    await create.getByLabel('Label').fill('Reporting');
    await create.getByLabel('Role').selectOption('VIEWER');
    await create.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByRole('region', { name: 'Your new API key' });
    const clientId = (await shown.getByTestId('new-client-id').textContent())!;
    const secret = (await shown.getByTestId('new-secret').textContent())!;
    await page.locator(`tr[data-key="${clientId}"]`).getByText('viewer').waitFor();
    // The key works at once.
    const token = await request(app.url, 'POST', '/v1/oauth/token', { body: { grant_type: 'client_credentials', client_id: clientId, client_secret: secret } });
    expect(token.status).toBe(200);
    await shot(page, 'api-keys');
    await shown.getByRole('button', { name: 'I have saved it' }).click();
    expect(await page.getByTestId('new-secret').count()).toBe(0);
    await expectNothingKept(page, [secret]);

    await openScreen(page, 'Audit log');
    await page.getByRole('heading', { name: 'Audit log', level: 2 }).waitFor();
    for (const action of ['user.two_factor_enrolled', 'invitation.created', 'invitation.accepted', 'api_key.created']) {
      await page.locator(`tr[data-action="${action}"]`).first().waitFor();
    }
    await page.getByLabel('Action').selectOption('invitation.created');
    // The filtered list replaces the whole one: one entry left.
    expect(await eventually(async () => (await page.locator('tbody tr').count()) === 1)).toBe(true);
    await page.locator('tr[data-action="invitation.created"]').waitFor();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const csv = await readFile((await (await download).path())!, 'utf8');
    expect(csv).toContain('invitation.created');
    await shot(page, 'audit-log');
  });

  it('the member’s sessions are listed on their profile, and they can end the others', async () => {
    // The member signed in twice (the page, and the service call above): two sessions, this browser's marked.
    await openScreen(member, 'Profile');
    const sessions = member.getByRole('table', { name: 'Sessions' });
    await sessions.getByText('this browser').waitFor();
    expect(await sessions.locator('tbody tr').count()).toBe(2);
    member.once('dialog', (dialog) => void dialog.accept());
    await member.getByRole('button', { name: 'End all other sessions' }).click();
    await member.getByText('1 other session ended.').waitFor();
    expect(await eventually(async () => (await sessions.locator('tbody tr').count()) === 1)).toBe(true);
  });

  it('forgot password: the emailed link (its token out of the address bar) sets a new one; the old one is refused', async () => {
    await member.getByRole('button', { name: 'Sign out' }).click();
    await member.getByRole('link', { name: 'Forgot your password?' }).click();
    await member.getByLabel('Email', { exact: true }).fill(FINANCE.email);
    await member.getByRole('button', { name: 'Send the link' }).click();
    await member.getByText('If that email has an account').waitFor();

    const message = await mailTo(smtp, FINANCE.email, /password/i);
    await member.goto(onService(app, linkIn(message, '/dashboard/reset-password')));
    FINANCE.password = 'a brand new passphrase';
    await member.getByLabel(/^New password/).fill(FINANCE.password);
    expect(member.url()).toBe(`${app.url}/dashboard/reset-password`);
    await member.getByRole('button', { name: 'Set password' }).click();
    await member.getByText('Your password is changed').waitFor();
    await member.getByRole('link', { name: 'Sign in' }).click();
    await signInWith(member, app, { ...FINANCE, password: 'ledger lines and totals' }, { goto: false });
    await member.getByRole('alert').filter({ hasText: 'That email and password do not match' }).waitFor();
    await signInWith(member, app, FINANCE, { goto: false });
    await member.getByRole('heading', { name: 'Overview', level: 2 }).waitFor();
  });

  it('the owner makes the member a viewer: their session ends, and they sign in again as a viewer', async () => {
    await openScreen(page, 'Team');
    const role = page.locator(`tr[data-member="${FINANCE.email}"]`).getByLabel(`Role of ${FINANCE.email}`);
    await role.selectOption('VIEWER');
    expect(await eventually(async () => (await role.inputValue()) === 'VIEWER')).toBe(true);
    // The last owner cannot be removed: no button offers it.
    expect(await page.locator(`tr[data-member="${OWNER.email}"]`).getByRole('button', { name: 'Remove' }).count()).toBe(0);

    await member.reload();
    await member.getByRole('form', { name: 'Sign in' }).waitFor();
    await signInWith(member, app, FINANCE, { goto: false });
    await member.locator('.who').getByText('viewer').waitFor();
  });

  it('the Team page shows each member’s last sign-in, as the API answers it', async () => {
    // The owner signs in a second time, through the service (a code of a later step: each works once).
    app.clock.advance(30_000);
    ownerElsewhere = await signInDashboard(app, { email: OWNER.email, password: OWNER.password, totp_code: totpCodeAt(totpSecret, app.clock.now()) });
    expect(ownerElsewhere.res.status).toBe(200);
    const listed = await graphql(app.url, '{ teamMembers { email lastSignInAt } }', { token: ownerElsewhere.accessToken });
    const members = listed.body.data.teamMembers as Array<{ email: string; lastSignInAt: string | null }>;
    const lastOf = (email: string) => members.find((m) => m.email === email)!.lastSignInAt;
    expect(lastOf(OWNER.email)).toBe(app.clock.now().toISOString());
    const memberLast = lastOf(FINANCE.email)!;
    expect(memberLast).toEqual(expect.any(String));

    await page.reload();
    await page.getByRole('heading', { name: 'Team', level: 2 }).waitFor();
    const lastSignIn = (email: string) => page.locator(`tr[data-member="${email}"] td`).nth(3);
    expect(await lastSignIn(FINANCE.email).textContent()).toBe(await shownAt(page, memberLast));
    expect(await lastSignIn(OWNER.email).textContent()).toBe(await shownAt(page, lastOf(OWNER.email)!));
  });

  it('Profile: a password change ends the owner’s other session at once, and this browser’s stays', async () => {
    await openScreen(page, 'Profile');
    const form = page.getByRole('form', { name: 'Password', exact: true });
    const changed = 'a second passphrase for ada';
    await form.getByLabel('Current password').fill(OWNER.password);
    await form.getByLabel(/^New password \(/).fill(changed);
    await form.getByLabel('New password again').fill(changed);
    await form.getByRole('button', { name: 'Change password' }).click();
    await form.getByText('Password changed. Your other sessions have ended.').waitFor();
    OWNER.password = changed;

    // The other session: its access token and its refresh cookie are refused.
    const other = await request(app.url, 'GET', '/v1/merchant', { token: ownerElsewhere.accessToken });
    expect([other.status, other.body.code]).toEqual([401, 'INVALID_TOKEN']);
    const refreshed = await request(app.url, 'POST', '/dashboard/session/refresh', {
      headers: { ...DASHBOARD_HEADERS, cookie: `dashboard_session=${ownerElsewhere.cookie}` },
    });
    expect(refreshed.status).toBe(401);
    // This one survives a reload (its cookie still refreshes), and is the owner's only session.
    await page.reload();
    await page.getByRole('heading', { name: 'Profile', level: 2 }).waitFor();
    const sessions = page.getByRole('table', { name: 'Sessions' });
    await sessions.getByText('this browser').waitFor();
    expect(await sessions.locator('tbody tr').count()).toBe(1);
  });

  it('the Merchant select switches to another of the owner’s merchants (its name and the role there shown), and back', async () => {
    const other = await app.createMerchant('Abuja Books');
    await signInDashboardUser(app, other, { email: OWNER.email, role: 'developer' });
    // Read at the next load: one membership more, so the merchant's name becomes a choice.
    await page.reload();
    const merchant = page.getByRole('combobox', { name: 'Merchant', exact: true });
    const chosen = () => merchant.locator('option:checked').textContent();
    const role = page.locator('.who .sub');
    const who = page.locator('.who');
    await merchant.waitFor();
    expect(await merchant.locator('option').allTextContents()).toEqual(expect.arrayContaining([BUSINESS, 'Abuja Books']));
    expect([await chosen(), await role.textContent()]).toEqual([BUSINESS, 'owner']);

    await merchant.selectOption({ label: 'Abuja Books' });
    await who.getByText('developer', { exact: true }).waitFor();
    expect(await chosen()).toBe('Abuja Books');
    await openScreen(page, 'Profile');
    await page.getByText('Role at Abuja Books').waitFor();
    // A developer there: no Team management, no Audit log.
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).count()).toBe(0);

    await merchant.selectOption({ label: BUSINESS });
    await who.getByText('owner', { exact: true }).waitFor();
    expect(await chosen()).toBe(BUSINESS);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).waitFor();
  });

  it('Team: an invitation is resent (a new link; the old one dies), then revoked (its link dies)', async () => {
    const invitee = 'kemi@lagos-foods.test';
    await openScreen(page, 'Team');
    const invite = page.getByRole('form', { name: 'Invite a member' });
    await invite.getByLabel('Email', { exact: true }).fill(invitee);
    await invite.getByLabel('Role').selectOption('SUPPORT');
    await invite.getByRole('button', { name: 'Invite' }).click();
    await invite.getByText(`Invitation sent to ${invitee}.`).waitFor();
    const first = await mailTo(smtp, invitee, /invit|join/i);
    const tokenOf = (message: ReceivedMail) => new URL(invitationLink(message)).searchParams.get('token')!;
    const preview = (token: string) =>
      request(app.url, 'GET', `/dashboard/invitations/preview?token=${encodeURIComponent(token)}`, { headers: DASHBOARD_HEADERS });
    expect((await preview(tokenOf(first))).status).toBe(200);

    const row = page.locator(`tr[data-invitation="${invitee}"]`);
    await row.getByRole('button', { name: 'Resend' }).click();
    await invite.getByText(`Invitation sent again to ${invitee}.`).waitFor();
    const second = await smtp.waitForMessage((m) => m !== first && m.envelope.to.includes(invitee) && /invit|join/i.test(m.subject), 10_000);
    expect(tokenOf(second)).not.toBe(tokenOf(first));
    expect((await preview(tokenOf(first))).status).toBe(400);
    expect((await preview(tokenOf(second))).status).toBe(200);

    acceptNextDialog(page);
    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.getByText('revoked', { exact: true }).waitFor();
    expect(await row.getByRole('button', { name: 'Revoke' }).count()).toBe(0);
    expect(await row.getByRole('button', { name: 'Resend' }).count()).toBe(0);
    const dead = await preview(tokenOf(second));
    expect([dead.status, dead.body.code]).toEqual([400, 'INVALID_REQUEST']);
  });

  it('API keys: Rotate shows a new secret once (the old one gets 401 at the token endpoint), then Revoke ends the key (its secret gets 401)', async () => {
    await openScreen(page, 'API keys');
    const create = page.getByRole('form', { name: 'Create an API key' });
    await create.getByLabel('Label').fill('Rotating');
    await create.getByRole('button', { name: 'Create key' }).click();
    const made = page.getByRole('region', { name: 'Your new API key' });
    const clientId = (await made.getByTestId('new-client-id').textContent())!;
    const secret = (await made.getByTestId('new-secret').textContent())!;
    await made.getByRole('button', { name: 'I have saved it' }).click();
    const grant = (clientSecret: string) =>
      request(app.url, 'POST', '/v1/oauth/token', { body: { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret } });
    expect((await grant(secret)).status).toBe(200);

    const row = page.locator(`tr[data-key="${clientId}"]`);
    acceptNextDialog(page);
    await row.getByRole('button', { name: 'Rotate' }).click();
    const rotated = page.getByRole('region', { name: 'A new secret for “Rotating”' });
    expect(await rotated.getByTestId('new-client-id').textContent()).toBe(clientId);
    const newSecret = (await rotated.getByTestId('new-secret').textContent())!;
    expect(newSecret).not.toBe(secret);
    const old = await grant(secret);
    expect([old.status, old.body.code]).toEqual([401, 'INVALID_CLIENT']);
    expect((await grant(newSecret)).status).toBe(200);
    await rotated.getByRole('button', { name: 'I have saved it' }).click();
    await expectNothingKept(page, [secret, newSecret]);

    acceptNextDialog(page);
    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.getByText('revoked', { exact: true }).waitFor();
    expect(await row.getByRole('button', { name: 'Rotate' }).count()).toBe(0);
    const revoked = await grant(newSecret);
    expect([revoked.status, revoked.body.code]).toEqual([401, 'INVALID_CLIENT']);
  });

  it('Team: requiring 2FA signs the member without it out at once; after a reload they can only enrol, and the owner carries on', async () => {
    await openScreen(page, 'Team');
    const required = page.getByLabel('Require two-factor authentication for every member');
    expect([await required.isChecked(), await required.isEnabled()]).toEqual([false, true]);
    acceptNextDialog(page);
    await required.click();
    expect(await eventually(async () => required.isChecked())).toBe(true);

    // The member (a viewer without 2FA) was signed in: their session ended with the switch.
    await member.reload();
    await member.getByRole('form', { name: 'Sign in' }).waitFor();
    await signInWith(member, app, FINANCE, { goto: false });
    await member.getByRole('heading', { name: 'Set up two-factor authentication', level: 1 }).waitFor();
    expect(await member.getByRole('navigation', { name: 'Main' }).count()).toBe(0);

    // The owner has 2FA: this browser's session carries on.
    await page.reload();
    await page.getByRole('heading', { name: 'Team', level: 2 }).waitFor();
    expect(await page.getByLabel('Require two-factor authentication for every member').isChecked()).toBe(true);
  });
});
