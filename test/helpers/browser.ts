import { existsSync, mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** The Chromium the tests drive: CHROMIUM_PATH, or the Debian package's (CI installs it). */
const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * Quiet and offline: no first-run, sync, component or background requests, and
 * no host name resolves, so the browser reaches nothing but 127.0.0.1.
 */
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-proxy-server',
  '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
];

export interface TestBrowser {
  context: BrowserContext;
  /** A new tab. */
  newPage(): Promise<Page>;
  /** Closes Chromium and removes its profile. */
  close(): Promise<void>;
}

/** A headless Chromium on a fresh, empty profile (a temporary user data dir, removed on close); `locale`: the browser's language. */
export async function launchBrowser(opts: { locale?: string } = {}): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`No Chromium at ${CHROMIUM_PATH}: install Debian's chromium package (apt-get install chromium; .ci/run does) or set CHROMIUM_PATH`);
  }
  const userDataDir = await mkdtemp(path.join(tmpdir(), 'pgw-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: ARGS,
      viewport: { width: 800, height: 640 },
      ...(opts.locale ? { locale: opts.locale } : {}),
    });
  } catch (err) {
    await rm(userDataDir, { recursive: true, force: true });
    throw err;
  }
  // Fail a step well inside jest's timeout, with Playwright's message.
  context.setDefaultTimeout(15_000);
  context.setDefaultNavigationTimeout(15_000);
  // The persistent context opens with one blank tab: close it, so every test opens its own.
  await Promise.all(context.pages().map((p) => p.close()));
  return {
    context,
    newPage: () => context.newPage(),
    async close() {
      await context.close().catch(() => undefined);
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

interface ServedRequest {
  method: string;
  /** Path with query. */
  path: string;
  headers: http.IncomingHttpHeaders;
}

/**
 * A loopback site serving fixed HTML pages by path (404 otherwise): another
 * origin than the service, for pages a browser opens (a merchant's, an attacker's).
 */
export async function startPageServer(pages: Record<string, string> = {}) {
  const requests: ServedRequest[] = [];
  const server = http.createServer((req, res) => {
    requests.push({ method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers });
    req.resume();
    const html = pages[new URL(req.url ?? '/', 'http://127.0.0.1').pathname];
    res
      .writeHead(html === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
      .end(html ?? '<!doctype html><title>Not found</title><h1>Not found</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    pages,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type PageServer = Awaited<ReturnType<typeof startPageServer>>;

/**
 * Opens a screen of the merchant dashboard from its main navigation: the sidebar on a wide
 * screen, or (on a phone, where the sidebar is a menu) the menu button first.
 */
export async function openScreen(page: Page, name: string): Promise<void> {
  const menu = page.getByRole('button', { name: 'Menu' });
  if (await menu.isVisible()) {
    if ((await menu.getAttribute('aria-expanded')) !== 'true') await menu.click();
  }
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
}

/**
 * Screenshots of the dashboard for docs/dashboard/, at a desktop's width and a phone's, when
 * SCREENSHOTS=1 (the tests that call it are the script: `npm run screenshots:dashboard`).
 * `name-1280.png` and `name-390.png`, whole pages; the viewport is given back as it was.
 */
export async function screenshots(
  page: Page,
  dir: string | null,
  name: string,
  ready?: (page: Page) => Promise<unknown>,
  widths: number[] = [1280, 390],
): Promise<void> {
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const before = page.viewportSize();
  for (const width of widths) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await ready?.(page);
    // Let the layout settle at the new width (fonts, the container queries).
    await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
    // The whole page as one viewport (not a stitched full-page capture), so a sticky sidebar spans it as on a screen.
    const height = Number(await page.evaluate('document.documentElement.scrollHeight'));
    await page.setViewportSize({ width, height: Math.max(height, width === 390 ? 844 : 800) });
    await page.screenshot({ path: path.join(dir, `${name}-${width}.png`) });
  }
  if (before) await page.setViewportSize(before);
}

/** What the page's clipboard holds (the context must have been granted clipboard-read). */
export const readClipboard = (page: Page): Promise<string> => page.evaluate('navigator.clipboard.readText()');

/** Puts `text` on the page's clipboard (clipboard-write granted), so that a copy is seen to replace it. */
export const writeClipboard = (page: Page, text: string): Promise<void> => page.evaluate(`navigator.clipboard.writeText(${JSON.stringify(text)})`);

/**
 * Nothing of the session a script can read: no storage, no token or secret in the URL, and no readable cookie but the
 * hint that a session cookie is set (`dashboard_signed_in=1`, holding no token; the session's own cookie is HttpOnly).
 */
export async function expectNothingKept(page: Page, secrets: string[]): Promise<void> {
  const stored = (await page.evaluate('JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookie: document.cookie })')) as string;
  expect(JSON.parse(stored)).toEqual({ local: {}, session: {}, cookie: expect.stringMatching(/^(dashboard_signed_in=1)?$/) });
  for (const secret of secrets) expect(page.url()).not.toContain(secret);
  expect(page.url()).not.toMatch(/token|secret/i);
}
