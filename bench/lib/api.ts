/**
 * Setup calls over the product's public HTTP API only (admin API, OAuth, customers,
 * webhooks, collections, sandbox simulate), so the harness survives internal rewrites.
 */
import { enrollBody, kycBody } from '../../test/helpers/factories';
import { momoCollectionBody } from '../../test/helpers/transactions';
import { sleep } from './stats';
import { SELECTABLE_EVENT_TYPES } from '../../src/modules/outbox/event-types';

export interface HttpAnswer {
  status: number;
  body: any;
  text: string;
}

async function call(
  base: string,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<HttpAnswer> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(`${base}${path}`, { method, headers, body, signal: AbortSignal.timeout(30_000) });
  const text = await res.text();
  let parsed: any;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, text };
}

function expect(answer: HttpAnswer, status: number | number[], what: string): HttpAnswer {
  const ok = Array.isArray(status) ? status.includes(answer.status) : answer.status === status;
  if (!ok) throw new Error(`${what}: HTTP ${answer.status} ${answer.text.slice(0, 500)}`);
  return answer;
}

export interface BenchMerchant {
  merchantId: string;
  clientId: string;
  clientSecret: string;
  /** whsec_…, shown once at creation: the soak's receiver verifies signatures with it. */
  webhookSecret: string;
  token: string;
}

/** POST /v1/admin/merchants, then a client_credentials token. */
export async function createMerchant(base: string, adminKey: string, name: string): Promise<BenchMerchant> {
  const created = expect(
    await call(base, 'POST', '/v1/admin/merchants', { headers: { authorization: `Bearer ${adminKey}` }, body: { name } }),
    [200, 201],
    'create merchant',
  ).body.data;
  const m = {
    merchantId: created.merchant_id as string,
    clientId: created.client_id as string,
    clientSecret: created.client_secret as string,
    webhookSecret: created.webhook_secret as string,
  };
  return { ...m, token: await issueToken(base, m.clientId, m.clientSecret) };
}

export async function issueToken(base: string, clientId: string, clientSecret: string): Promise<string> {
  const answer = expect(
    await call(base, 'POST', '/v1/oauth/token', { body: { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret } }),
    200,
    'issue token',
  );
  return answer.body.data.access_token as string;
}

export async function setWebhookEndpoint(base: string, token: string, url: string): Promise<void> {
  expect(await call(base, 'PUT', '/v1/webhooks/endpoint', { token, body: { url } }), 200, 'set webhook endpoint');
}

/** An endpoint, and every event type the merchant may choose (the progress events too: issue 24). */
export async function chooseEveryEventType(base: string, token: string, url: string): Promise<void> {
  expect(await call(base, 'PUT', '/v1/webhooks/endpoint', { token, body: { url, event_types: SELECTABLE_EVENT_TYPES } }), 200, 'choose every event type');
}

/** Enroll a Kenyan customer, submit KYC, and wait (boundedly) for the sandbox to approve it. */
export async function approvedCustomer(base: string, token: string, customerid: string, timeoutMs = 30_000): Promise<string> {
  const enrolled = expect(await call(base, 'POST', '/v1/customer/enroll', { token, body: enrollBody({ customerid }) }), [200, 201], 'enroll customer').body
    .data;
  const uuid = enrolled.customer_uuid as string;
  expect(await call(base, 'POST', `/v1/customer/${uuid}/kyc`, { token, body: kycBody() }), 200, 'submit KYC');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const kyc = expect(await call(base, 'GET', `/v1/customer/${uuid}/kyc`, { token }), 200, 'read KYC').body.data;
    if (kyc.kyc_status === 'approved') return uuid;
    if (kyc.kyc_status === 'rejected') throw new Error(`KYC of ${uuid} was rejected: ${JSON.stringify(kyc)}`);
    if (Date.now() > deadline) throw new Error(`KYC of ${uuid} not approved within ${timeoutMs} ms: ${JSON.stringify(kyc)}`);
    await sleep(100);
  }
}

/** Initiates one momo collection; returns the service's reference. */
export async function initiateCollection(base: string, token: string, customerUuid: string, reference: string): Promise<string> {
  const answer = expect(
    await call(base, 'POST', '/v1/crossborder/global-collection', { token, body: momoCollectionBody(customerUuid, { reference }) }),
    [200, 201],
    'initiate collection',
  );
  return answer.body.data.reference as string;
}

/** Sandbox: decide a processing transaction now. */
export async function simulate(base: string, token: string, reference: string, outcome: 'successful' | 'failed' = 'successful') {
  return call(base, 'POST', `/v1/sandbox/transactions/${encodeURIComponent(reference)}/simulate`, { token, body: { outcome } });
}
