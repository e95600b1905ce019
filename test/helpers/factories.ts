import { fromRest } from '../../src/transport/rest/field-names';
import { request } from './http';
import type { MerchantCredentials } from '../../src/modules/merchants/merchant.service';
import { TEST_ADMIN_KEY, type TestApp } from './test-app';
import { eventually } from './wait';

let seq = 0;

/** A valid enrollment body for a Kenyan customer; override any field. */
export function enrollBody(overrides: Record<string, unknown> = {}) {
  seq += 1;
  return {
    customerid: `cust-${process.pid}-${Date.now()}-${seq}`,
    first_name: 'Amina',
    last_name: 'Otieno',
    email: 'amina@example.com',
    phone_number: '712345678',
    dial_code: '+254',
    country_code: 'KE',
    date_of_birth: '1990-04-12',
    ...overrides,
  };
}

/** The GraphQL twin of enrollBody: an EnrollCustomerInput (the domain's names, as the REST door maps them). */
export function enrollInput(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return fromRest(enrollBody(overrides));
}

export function kycBody(overrides: Record<string, unknown> = {}) {
  return {
    id_type: 'national_id',
    id_number: 'A12345678',
    id_country: 'KE',
    date_of_birth: '1990-04-12',
    address: { line1: '12 Moi Avenue', city: 'Nairobi', country_code: 'KE', postal_code: '00100' },
    ...overrides,
  };
}

export async function enroll(app: TestApp, token: string, overrides: Record<string, unknown> = {}) {
  const res = await request(app.url, 'POST', '/v1/customer/enroll', { token, body: enrollBody(overrides) });
  if (res.status !== 201) throw new Error(`enroll failed: ${res.status} ${res.text}`);
  return res.body.data as { customer_uuid: string; customerid: string };
}

/** Waits for the sandbox reviewer to decide; returns the final KYC record. */
export async function awaitKycDecision(app: TestApp, token: string, customerUuid: string) {
  let record: any;
  const decided = await eventually(async () => {
    record = (await request(app.url, 'GET', `/v1/customer/${customerUuid}/kyc`, { token })).body.data;
    return record.kyc_status === 'approved' || record.kyc_status === 'rejected';
  });
  if (!decided) throw new Error(`KYC for ${customerUuid} was not decided in time: ${JSON.stringify(record)}`);
  return record;
}

/** A customer whose KYC is approved, ready for transactions. */
export async function approvedCustomer(app: TestApp, token: string, overrides: Record<string, unknown> = {}) {
  const customer = await enroll(app, token, overrides);
  const res = await request(app.url, 'POST', `/v1/customer/${customer.customer_uuid}/kyc`, { token, body: kycBody() });
  if (res.status !== 200) throw new Error(`kyc submit failed: ${res.status} ${res.text}`);
  // Production: no rule decides; an operator approves through the review queue (docs/kyc-review.md).
  if (app.env === 'production') await approveInQueue(app, customer.customer_uuid);
  await awaitKycDecision(app, token, customer.customer_uuid);
  return customer;
}

/** Approves a customer's pending submission through the admin API, as an operator would. */
async function approveInQueue(app: TestApp, customerUuid: string) {
  const admin = { authorization: `Bearer ${TEST_ADMIN_KEY}` };
  const queue = await request(app.url, 'GET', '/v1/admin/kyc/pending?limit=100', { headers: admin });
  const entry = (queue.body?.data ?? []).find((s: { customer_uuid: string }) => s.customer_uuid === customerUuid);
  if (!entry) throw new Error(`no pending KYC submission for ${customerUuid}: ${queue.status} ${queue.text}`);
  const approved = await request(app.url, 'POST', `/v1/admin/kyc/${entry.submission_id}/approve`, { headers: admin });
  if (approved.status !== 200) throw new Error(`approve failed: ${approved.status} ${approved.text}`);
}

/** A merchant of the app with a fresh access token, and (when asked) a KYC-approved customer. */
export interface TestMerchant {
  credentials: MerchantCredentials;
  token: string;
  customerUuid: string;
}

async function testMerchant(app: TestApp, name: string, withCustomer: boolean): Promise<TestMerchant> {
  const credentials = await app.createMerchant(name);
  const token = (await app.token(credentials)).accessToken;
  const customerUuid = withCustomer ? (await approvedCustomer(app, token)).customer_uuid : '';
  return { credentials, token, customerUuid };
}

/**
 * The two-merchant setup of the isolation checks: `mine`, whose data the test makes, and
 * `theirs`, who must never see or change it. `approvedCustomer` gives each a KYC-approved
 * customer (`customerUuid`; empty otherwise).
 */
export async function twoMerchants(
  app: TestApp,
  name: string,
  opts: { approvedCustomer?: boolean } = {},
): Promise<{ mine: TestMerchant; theirs: TestMerchant }> {
  const [mine, theirs] = await Promise.all([testMerchant(app, name, !!opts.approvedCustomer), testMerchant(app, `${name} (other)`, !!opts.approvedCustomer)]);
  return { mine, theirs };
}
