/**
 * The sandbox 3-D Secure page, driven over real HTTP the way a browser does it
 * (Node's fetch, no redirects followed): GET the page (it sets the CSRF cookie
 * and renders the hidden `csrf` field), then POST the form with the cookie.
 */

export type ThreeDsDecision = 'complete' | 'fail';

/** What the page handed out: the cookie (name=value) and the form's CSRF field. */
export interface OpenedPage {
  /** The GET's status: 200 when the form is shown. */
  status: number;
  html: string;
  /** `sbx_3ds_csrf=…`, ready for a Cookie header; null when the page set none. */
  cookie: string | null;
  /** The hidden input's value; null when the page has no form (decided, expired, invalid). */
  csrf: string | null;
}

export interface Submission {
  status: number;
  /** The Location header (a 303 to the merchant's redirect_url); null when there is none. */
  location: string | null;
  /** The response body (the outcome page when there is no redirect). */
  html: string;
}

const CSRF_COOKIE = 'sbx_3ds_csrf';

/** Decodes the few HTML entities the page's escaping produces (attribute values). */
const unescapeHtml = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** GETs the page; returns its cookie and CSRF field (null when it shows no form). `cookieName`: the one-time code page's is `otp_csrf`. */
export async function openPage(nextActionUrl: string, cookieName = CSRF_COOKIE): Promise<OpenedPage> {
  const res = await fetch(nextActionUrl, { redirect: 'manual' });
  const html = await res.text();
  let cookie: string | null = null;
  for (const header of res.headers.getSetCookie()) {
    const pair = header.split(';', 1)[0]!.trim();
    if (pair.startsWith(`${cookieName}=`) && pair.length > cookieName.length + 1) cookie = pair;
  }
  const input = /<input\b[^>]*\bname="csrf"[^>]*>/.exec(html)?.[0];
  const value = input ? /\bvalue="([^"]*)"/.exec(input)?.[1] : undefined;
  return { status: res.status, html, cookie, csrf: value === undefined ? null : unescapeHtml(value) };
}

/** POSTs the page's form (form-urlencoded) with the cookie, without following a redirect. */
export async function submitPage(nextActionUrl: string, page: Pick<OpenedPage, 'cookie' | 'csrf'>, decision: ThreeDsDecision): Promise<Submission> {
  return submitForm(nextActionUrl, page, { decision });
}

/** POSTs a page's form with these fields, its CSRF field and its cookie, without following a redirect. */
export async function submitForm(url: string, page: Pick<OpenedPage, 'cookie' | 'csrf'>, fields: Record<string, string>): Promise<Submission> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (page.cookie) headers.cookie = page.cookie;
  const res = await fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers,
    body: new URLSearchParams({ ...fields, csrf: page.csrf ?? '' }).toString(),
  });
  return { status: res.status, location: res.headers.get('location'), html: await res.text() };
}

/**
 * The cardholder's whole flow: open the page, then submit `decision`. Throws when
 * the page shows no form (the payment is not awaiting authentication).
 */
export async function authenticate(nextActionUrl: string, decision: ThreeDsDecision): Promise<{ status: number; location: string | null }> {
  const page = await openPage(nextActionUrl);
  if (page.status !== 200 || !page.cookie || !page.csrf) {
    throw new Error(
      `the 3-D Secure page showed no form (HTTP ${page.status}, cookie ${page.cookie ? 'set' : 'missing'}, csrf ${page.csrf ? 'present' : 'missing'})`,
    );
  }
  const { status, location } = await submitPage(nextActionUrl, page, decision);
  return { status, location };
}
