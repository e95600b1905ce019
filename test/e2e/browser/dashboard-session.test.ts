import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Page, Response } from 'playwright-core';
import type { MerchantCredentials } from '../../../src/modules/merchants/merchant.service';
import { DASHBOARD_DIST } from '../../../src/transport/dashboard/dashboard.routes';
import { launchBrowser, type TestBrowser } from '../../helpers/browser';
import { enroll } from '../../helpers/factories';
import { request } from '../../helpers/http';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { ownerLogin } from './owner-login';
import { signInWith } from './sign-in';

/**
 * The dashboard's session across reloads, in headless Chromium against a real service: the refresh
 * token in an HttpOnly cookie (never visible to the page's scripts), a reload keeping the session,
 * two tabs loading at once without tripping reuse detection, and sign-out ending it for good.
 */

const REFRESH = '/dashboard/session/refresh';

/** The refresh answers a page receives, as they arrive. */
function refreshAnswers(page: Page): Response[] {
  const answers: Response[] = [];
  page.on('response', (res) => {
    if (new URL(res.url()).pathname === REFRESH) answers.push(res);
  });
  return answers;
}

/** What a script on the page can see of the session: storage, cookies, and the page's own text. */
const visibleToScripts = (page: Page) =>
  page.evaluate(
    'JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookie: document.cookie, html: document.documentElement.outerHTML })',
  ) as Promise<string>;

describe('merchant dashboard session across reloads', () => {
  let app: TestApp;
  let browser: TestBrowser;
  let merchant: MerchantCredentials;
  let customerId: string;
  let page: Page;

  beforeAll(async () => {
    if (!existsSync(path.join(DASHBOARD_DIST, 'index.html'))) throw new Error('dist/dashboard is missing: run `npm run build:dashboard`');
    app = await createTestApp();
    merchant = await app.createMerchant('Session Merchant');
    customerId = (await enroll(app, (await app.token(merchant)).accessToken)).customerid;
    browser = await launchBrowser();
    page = await browser.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  const sessionCookies = async () => (await browser.context.cookies(app.url + '/dashboard/session')).filter((c) => c.name === 'dashboard_session');

  it('a first visit has no session: the sign-in form at once, no refresh asked, nothing in the console (no 401)', async () => {
    const answers = refreshAnswers(page);
    const consoled: string[] = [];
    const failed: string[] = [];
    page.on('console', (m) => consoled.push(`${m.type()}: ${m.text()}`));
    page.on('response', (res) => res.status() >= 400 && failed.push(`${res.status()} ${res.url()}`));
    await page.goto(`${app.url}/dashboard`);
    await page.getByLabel('Email').waitFor();
    // The page's own scripts have run (the form is theirs); a refresh would have been sent before the form showed.
    expect(answers.map((r) => r.status())).toEqual([]);
    expect(failed).toEqual([]);
    expect(consoled).toEqual([]);
    expect(await page.getByRole('alert').count()).toBe(0);
  });

  it('signs in, reloads, and is still signed in with its data; no script can see the token', async () => {
    await signInWith(page, app, await ownerLogin(app, merchant), { goto: false });
    await page.getByRole('heading', { name: 'Overview', level: 2 }).waitFor();

    const [cookie] = await sessionCookies();
    expect(cookie).toMatchObject({ name: 'dashboard_session', path: '/dashboard/session', httpOnly: true, sameSite: 'Strict', secure: false, expires: -1 });
    expect(cookie!.value).toMatch(/^rt_/);
    // Sent only to the session routes: the page's own path carries only the readable hint, which holds no token.
    expect(await browser.context.cookies(`${app.url}/dashboard`)).toEqual([
      expect.objectContaining({ name: 'dashboard_signed_in', value: '1', path: '/dashboard', httpOnly: false, sameSite: 'Strict', expires: -1 }),
    ]);

    const answers = refreshAnswers(page);
    await page.reload();
    await page.getByRole('heading', { name: 'Overview', level: 2 }).waitFor();
    expect(answers.map((r) => r.status())).toEqual([200]);
    expect(await page.getByLabel('Email').count()).toBe(0);
    // Data, through the API with the new access token.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Customers' }).click();
    await page.getByText(customerId).waitFor();
    // And reloaded on a deep link.
    await page.reload();
    await page.getByText(customerId).waitFor();

    const [rotated] = await sessionCookies();
    expect(rotated!.value).not.toBe(cookie!.value);
    const seen = await visibleToScripts(page);
    expect(JSON.parse(seen)).toMatchObject({ local: {}, session: {}, cookie: 'dashboard_signed_in=1' });
    expect(seen).not.toContain(rotated!.value);
    expect(seen).not.toContain(cookie!.value);
  });

  it('two tabs loading at once both stay signed in: their refreshes take turns, so reuse detection is not tripped', async () => {
    const tabs = [await browser.newPage(), await browser.newPage()];
    const answers = tabs.map(refreshAnswers);
    const started: Array<{ tab: number; at: number }> = [];
    const answered: Array<{ tab: number; at: number }> = [];
    tabs.forEach((tab, i) => {
      tab.on('request', (req) => new URL(req.url()).pathname === REFRESH && started.push({ tab: i, at: Date.now() }));
      tab.on('response', (res) => new URL(res.url()).pathname === REFRESH && answered.push({ tab: i, at: Date.now() }));
    });
    for (let round = 0; round < 3; round++) {
      await Promise.all(tabs.map((tab) => (round === 0 ? tab.goto(`${app.url}/dashboard`) : tab.reload())));
      await Promise.all(tabs.map((tab) => tab.getByRole('heading', { name: 'Overview', level: 2 }).waitFor()));
    }
    expect(answers.map((a) => a.map((r) => r.status()))).toEqual([
      [200, 200, 200],
      [200, 200, 200],
    ]);
    // Taking turns (Web Locks): each refresh was sent after the previous one had its answer.
    const sent = started.map((s) => s.at).sort((a, b) => a - b);
    const done = answered.map((a) => a.at).sort((a, b) => a - b);
    expect(sent).toHaveLength(6);
    for (let i = 1; i < sent.length; i++) expect(sent[i]).toBeGreaterThanOrEqual(done[i - 1]!);
    // The family is alive: the first tab still reads data.
    await page.reload();
    await page.getByText(customerId).waitFor();
    await tabs[1]!.close();
  });

  it('signs out: the family is revoked, the cookie gone, other tabs back at the form; a reload shows the sign-in form', async () => {
    const other = browser.context.pages().find((p) => p !== page)!;
    const [cookie] = await sessionCookies();
    const signedOut = page.waitForResponse((res) => new URL(res.url()).pathname === '/dashboard/session/sign-out' && res.status() === 200);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signedOut;
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    // The other tab heard it (BroadcastChannel) and shows the form too.
    await other.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await sessionCookies()).toEqual([]);

    // The hint went with it: a reload shows the form without asking.
    expect(await browser.context.cookies(`${app.url}/dashboard`)).toEqual([]);
    const answers = refreshAnswers(page);
    await page.reload();
    await page.getByLabel('Email').waitFor();
    expect(answers.map((r) => r.status())).toEqual([]);
    // The signed-out cookie's token is revoked, not only forgotten.
    const replay = await request(app.url, 'POST', REFRESH, { headers: { 'x-requested-with': 'fetch', cookie: `dashboard_session=${cookie!.value}` } });
    expect([replay.status, replay.body.code]).toEqual([401, 'INVALID_TOKEN']);
  });
});
