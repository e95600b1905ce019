import { RequestContext } from '@mikro-orm/core';
import { request } from './http';
import { TEST_CVC } from './payments';
import type { TestApp } from './test-app';
import { newReference } from './transactions';

/** A valid POST /v1/checkout/sessions body (NGN: a merchant without a country takes Nigeria's currency); override any field. */
export function sessionBody(overrides: Record<string, unknown> = {}) {
  return {
    amount: '2500.00',
    currency: 'NGN',
    reference: newReference('order'),
    customer: { email: 'ada@example.com', phone: '08012345678', name: 'Ada Obi' },
    redirect_url: 'https://shop.example/orders/1001',
    cancel_url: 'https://shop.example/cart',
    metadata: { order_id: '1001', cartId: 'c-9' },
    ...overrides,
  };
}

/** The GraphQL twin: a CreateCheckoutSessionInput. */
export function sessionInput(overrides: Record<string, unknown> = {}) {
  return {
    amount: '2500.00',
    currency: 'NGN',
    reference: newReference('gql-order'),
    customer: { email: 'ada@example.com', name: 'Ada Obi' },
    redirectUrl: 'https://shop.example/orders/1001',
    metadata: { order_id: '1001' },
    ...overrides,
  };
}

export const createSession = (app: TestApp, token: string, body: unknown) => request(app.url, 'POST', '/v1/checkout/sessions', { token, body });
export const getSession = (app: TestApp, token: string, id: string) => request(app.url, 'GET', `/v1/checkout/sessions/${encodeURIComponent(id)}`, { token });

/** Creates a session; throws unless 200. */
export async function openSession(app: TestApp, token: string, overrides: Record<string, unknown> = {}) {
  const res = await createSession(app, token, sessionBody(overrides));
  if (res.status !== 200) throw new Error(`POST /v1/checkout/sessions failed: ${res.status} ${res.text}`);
  return res.body.data;
}

/** What the page posts for a card (the sandbox's success card by default). */
export const cardAttempt = (number = '4242424242424242') => ({ method: 'card' as const, card: { number, expMonth: 12, expYear: 2030, cvc: TEST_CVC } });

/** Pays on the page as the page routes will: the service call itself, in a request's database context (no bearer; the session id is the key). */
export const payOnPage = (app: TestApp, sessionId: string, input: Parameters<TestApp['service']['app']['services']['checkout']['pay']>[1] = cardAttempt()) =>
  RequestContext.create(app.service.orm.em, () => app.service.app.services.checkout.pay(sessionId, input));

export const paymentLinkBody = (overrides: Record<string, unknown> = {}) => ({ name: 'Donation', currency: 'NGN', ...overrides });
export const createLink = (app: TestApp, token: string, body: unknown) => request(app.url, 'POST', '/v1/payment-links', { token, body });

/** A checkout page as a browser without script meets it: its HTML and the CSRF pair it set (cookie name=value, form field). */
export interface CheckoutPage {
  status: number;
  html: string;
  cookie: string;
  csrf: string;
}

/** GETs a checkout page (no redirect followed), keeping its CSRF pair for a later `postForm`. */
export async function fetchCheckoutPage(app: TestApp, path: string, headers: Record<string, string> = {}): Promise<CheckoutPage> {
  const res = await fetch(`${app.url}${path}`, { redirect: 'manual', headers });
  const html = await res.text();
  return {
    status: res.status,
    html,
    cookie: (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '',
    csrf: /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '',
  };
}

/** POSTs a form from `page` as our page's own form would: its CSRF pair, from our origin. */
export const postForm = (app: TestApp, path: string, page: Pick<CheckoutPage, 'cookie' | 'csrf'>, fields: Record<string, string>) =>
  fetch(`${app.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: page.cookie, origin: app.url, 'sec-fetch-site': 'same-origin' },
    body: new URLSearchParams({ csrf: page.csrf, ...fields }).toString(),
  });
