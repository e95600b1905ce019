import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page, Response } from 'playwright-core';

/**
 * What the hosted checkout's browser tests watch on every tab (issue 37, "built for a cheap Android phone on 3G"):
 * every request's URL (none may leave the service's or the shop's origin), console errors and uncaught errors
 * (a CSP violation is a console error), and the bytes each page's first load costs on the wire.
 */
export interface Watched {
  page: Page;
  /** Every URL the tab requested, in order. */
  urls: string[];
  /** Console errors and uncaught page errors, but "Failed to load resource" (see `failed`). */
  errors: string[];
  /**
   * Every answer of 400 or more the tab got, as "status URL" (what the console's "Failed to load resource" means,
   * with the URL it does not name), seen by the DevTools protocol, so the browser's own /favicon.ico probe too.
   */
  failed: string[];
  /** Opens `url` as a first load (no cache) and answers the navigation's response and the bytes it cost (bodies as sent, compressed). */
  firstLoad(url: string): Promise<{ response: Response; bytes: number }>;
}

/** Where the screenshots of the checkout's states go (docs/screenshots/checkout-<state>-<width>.png). */
const CHECKOUT_SCREENSHOTS = path.resolve(__dirname, '../../docs/screenshots');

/**
 * A new tab at `width` that records what it does. The browser cache is off for it, so each navigation is a first
 * load (the assets are `immutable`: with the cache on, only the first test would pay for them).
 */
export async function watchedPage(newPage: () => Promise<Page>, width: number): Promise<Watched> {
  const page = await newPage();
  await page.setViewportSize({ width, height: 800 });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const urls: string[] = [];
  const errors: string[] = [];
  const failed: string[] = [];
  page.on('request', (r) => urls.push(r.url()));
  cdp.on('Network.responseReceived', (e) => {
    if (e.response.status >= 400) failed.push(`${e.response.status} ${e.response.url}`);
  });
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource:')) errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  let responses: Response[] = [];
  page.on('response', (r) => responses.push(r));
  return {
    page,
    urls,
    errors,
    failed,
    async firstLoad(url: string) {
      responses = [];
      const response = (await page.goto(url, { waitUntil: 'load' }))!;
      const loaded = responses;
      let bytes = 0;
      for (const r of loaded) bytes += (await r.request().sizes()).responseBodySize;
      return { response, bytes };
    },
  };
}

/** Every URL went to one of `origins` (a request beyond 127.0.0.1 would show here). */
export function foreignRequests(w: Watched, origins: string[]): string[] {
  return w.urls.filter((u) => !origins.includes(new URL(u).origin));
}

/** The failed answers but the expected ones (`allowed`: "status URL" patterns). */
export function unexpectedFailures(w: Watched, allowed: RegExp[]): string[] {
  return w.failed.filter((f) => !allowed.some((a) => a.test(f)));
}

/** The whole page at its width, when SCREENSHOTS=1: docs/screenshots/checkout-<name>-<width>.png. */
export async function checkoutScreenshot(page: Page, name: string): Promise<void> {
  if (process.env.SCREENSHOTS !== '1') return;
  mkdirSync(CHECKOUT_SCREENSHOTS, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: path.join(CHECKOUT_SCREENSHOTS, `checkout-${name}-${width}.png`), fullPage: true });
}

/** Opens a method's section of the page (a <details>: clicking an open one would close it). */
export async function chooseMethod(page: Page, method: 'momo' | 'card' | 'bank_transfer'): Promise<void> {
  const box = page.locator(`#method-${method}`);
  if (!(await box.evaluate((d) => (d as unknown as { open: boolean }).open))) await box.locator(':scope > summary').click();
}
