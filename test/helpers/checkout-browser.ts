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

/** A text element's colours as the browser computed them: its text's, and the backgrounds from it up to the root. */
interface TextColours {
  text: string;
  colour: string;
  /** From the element itself up to <html>. */
  backgrounds: string[];
  fontSizePx: number;
  fontWeight: number;
}

/** Every visible element with text of its own (or a field's value), and its computed colours. Runs in the page. */
const TEXT_COLOURS = `(() => {
  const out = [];
  const visible = (el) => {
    const s = getComputedStyle(el);
    if (s.visibility === 'hidden' || s.display === 'none' || Number(s.opacity) === 0) return false;
    const r = el.getBoundingClientRect();
    return r.width > 1 && r.height > 1 && el.checkVisibility({ opacityProperty: true, visibilityProperty: true });
  };
  for (const el of document.querySelectorAll('body *')) {
    if (['SCRIPT', 'STYLE', 'NOSCRIPT', 'OPTION'].includes(el.tagName)) continue;
    const field = (el.tagName === 'INPUT' && el.type !== 'hidden' && el.value) || (el.tagName === 'SELECT' && el.selectedOptions[0]?.text);
    const own = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent.trim()).join(' ').trim();
    const text = field || own;
    if (!text || !visible(el)) continue;
    const backgrounds = [];
    for (let a = el; a; a = a.parentElement) backgrounds.push(getComputedStyle(a).backgroundColor);
    const s = getComputedStyle(el);
    out.push({ text: text.slice(0, 60), colour: s.color, backgrounds, fontSizePx: parseFloat(s.fontSize), fontWeight: Number(s.fontWeight) });
  }
  return out;
})()`;

type Rgba = [number, number, number, number];

function parseColour(css: string): Rgba {
  const m = /^rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)$/.exec(css.trim());
  if (!m) throw new Error(`a colour this test cannot read: ${css}`);
  return [Number(m[1]), Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])];
}

/** `top` painted over the opaque `under` (source-over). */
const over = (top: Rgba, under: Rgba): Rgba => [0, 1, 2].map((i) => top[i]! * top[3] + under[i]! * (1 - top[3])).concat(1) as Rgba;

/** WCAG 2 relative luminance of an opaque sRGB colour. */
function luminance([r, g, b]: Rgba): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG 2 contrast ratio of two opaque colours, 1 to 21. */
export function contrastRatio(a: Rgba, b: Rgba): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * The text of the page whose contrast with what is behind it is under WCAG 2's AA minimum (SC 1.4.3): 4.5:1, or 3:1
 * for large text (at least 24 px, or 18.66 px bold). The background is each ancestor's background colour composited
 * from the canvas (white) down; the text's colour is composited over that. Answers "text: ratio (colour on
 * background)" for each, and how many texts were measured.
 */
export async function lowContrastText(page: Page): Promise<{ measured: number; low: string[] }> {
  const texts = (await page.evaluate(TEXT_COLOURS)) as TextColours[];
  const low: string[] = [];
  for (const t of texts) {
    let background: Rgba = [255, 255, 255, 1];
    for (const bg of [...t.backgrounds].reverse()) background = over(parseColour(bg), background);
    const colour = over(parseColour(t.colour), background);
    const ratio = contrastRatio(colour, background);
    const large = t.fontSizePx >= 24 || (t.fontSizePx >= 18.66 && t.fontWeight >= 700);
    if (ratio < (large ? 3 : 4.5)) low.push(`${t.text}: ${ratio.toFixed(2)} (${t.colour} on ${background.slice(0, 3).join(',')})`);
  }
  return { measured: texts.length, low };
}

/**
 * Presses Tab until the focused element matches `selector` (at most `limit` times), as a keyboard user would move
 * there; throws naming where the focus went when it never arrives. Answers how many presses it took.
 */
export async function tabTo(page: Page, selector: string, limit = 40): Promise<number> {
  const seen: string[] = [];
  for (let presses = 1; presses <= limit; presses++) {
    await page.keyboard.press('Tab');
    const at = (await page.evaluate(
      `(() => { const a = document.activeElement; return a ? [a.matches(${JSON.stringify(selector)}), a.tagName + (a.id ? '#' + a.id : '') + ' ' + (a.textContent || '').trim().slice(0, 30)] : [false, 'none']; })()`,
    )) as [boolean, string];
    if (at[0]) return presses;
    seen.push(at[1]);
  }
  throw new Error(`Tab never reached ${selector}; the focus went: ${seen.join(' → ')}`);
}
