import fs from 'node:fs';
import type { Client } from 'graphql-ws';
import type { MerchantCredentials } from '../../../src/modules/merchants/merchant.service';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { enroll, kycBody } from '../../helpers/factories';
import { graphql, request } from '../../helpers/http';
import { DIST_CLI, assertBuilt, runCli, cleanEnv, serviceEnv, startServiceProcess, type ServiceProcess } from '../../helpers/process';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { TEST_ADMIN_KEY, createTestApp, type TestApp } from '../../helpers/test-app';
import { eventually } from '../../helpers/wait';
import { FAST_WEBHOOKS, dbQuery, setEndpoint, verifyDelivery } from '../../helpers/webhooks';
import { collect, connect } from '../../helpers/ws';

const ADMIN = { authorization: `Bearer ${TEST_ADMIN_KEY}` };
const KYC_CHANGES = `subscription { kycStatusChanged { customerUuid kycStatus overallKycStatus reviewedAt rejectionReason } }`;

type Sub = ReturnType<typeof collect>;

/** The KYC events of one customer, from the outbox (what webhooks deliver from). */
const outboxOf = (db: string, customerUuid: string) =>
  dbQuery<{ id: string; type: string; payload: any }>(db, 'select id, type, payload from outbox_event where subject_id = $1 order by created_at, id', [
    customerUuid,
  ]);

/** What the subscriber received for one customer, as kycStatus values. */
const streamOf = (sub: Sub, customerUuid: string) =>
  sub.received.filter((m) => m.data?.kycStatusChanged?.customerUuid === customerUuid).map((m) => m.data!.kycStatusChanged);

/** Enrolls a customer and submits KYC with `idNumber`; returns the customer's uuid. */
async function submitKyc(base: { url: string }, token: string, idNumber: string): Promise<string> {
  const { customer_uuid } = await enroll(base as TestApp, token);
  const res = await request(base.url, 'POST', `/v1/customer/${customer_uuid}/kyc`, { token, body: kycBody({ id_number: idNumber }) });
  if (res.status !== 200) throw new Error(`kyc submit failed: ${res.status} ${res.text}`);
  expect(res.body.data.kyc_status).toBe('pending');
  return customer_uuid;
}

/** Every page of the admin queue. */
async function wholeQueue(url: string): Promise<any[]> {
  const all: any[] = [];
  let after: string | null = null;
  do {
    const res: any = await request(url, 'GET', `/v1/admin/kyc/pending?limit=100${after ? `&after=${after}` : ''}`, { headers: ADMIN });
    expect(res.status).toBe(200);
    all.push(...res.body.data);
    after = res.body.meta.next_cursor;
  } while (after);
  return all;
}

async function submissionOf(url: string, customerUuid: string): Promise<string> {
  const entry = (await wholeQueue(url)).find((s) => s.customer_uuid === customerUuid);
  if (!entry) throw new Error(`no pending submission for ${customerUuid}`);
  return entry.submission_id;
}

/**
 * A sentinel decision: a new submission approved through the admin API. Its event takes the
 * same durable path as any decision's (the publish-kyc-status job), so once it has reached
 * `sub` and no publish job is left, every earlier decision's event has been published too:
 * "nothing more came" is shown without a timed wait.
 */
async function sentinelDecision(base: { url: string }, db: string, token: string, sub: Sub, label: string): Promise<void> {
  const uuid = await submitKyc(base, token, label);
  const res = await request(base.url, 'POST', `/v1/admin/kyc/${await submissionOf(base.url, uuid)}/approve`, { headers: ADMIN });
  expect(res.status).toBe(200);
  expect(await eventually(async () => streamOf(sub, uuid).some((e) => e.kycStatus === 'APPROVED'))).toBe(true);
  expect(await eventually(async () => (await publishJobsLeft(db)) === 0)).toBe(true);
}

const publishJobsLeft = async (db: string) =>
  (
    await dbQuery<{ n: number }>(
      db,
      `select count(*)::int as n from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'publish-kyc-status'`,
    )
  )[0]!.n;

/** KYC review jobs not yet finished (waiting or running). */
const reviewJobsLeft = async (db: string) =>
  (
    await dbQuery<{ n: number }>(
      db,
      `select count(*)::int as n from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'kyc-review'`,
    )
  )[0]!.n;

describe('KYC review queue in production: the admin API', () => {
  let app: TestApp;
  let merchant: MerchantCredentials;
  let token: string;
  let client: Client;
  let sub: Sub;

  beforeAll(async () => {
    // Rate limits are tested on their own; this file makes many admin calls from one address.
    app = await createTestApp({ env: { PAYMENTS_ENV: 'production', RATE_LIMIT_ADMIN: '0' } });
    merchant = await app.createMerchant('Live KYC Merchant');
    token = (await app.token(merchant)).accessToken;
    client = connect(app, token);
    sub = collect(client, KYC_CHANGES);
    // Live once a submission's own event (pending) reaches it.
    const sentinel = await submitKyc(app, token, 'SENTINEL-0001');
    expect(await eventually(async () => streamOf(sub, sentinel).length > 0)).toBe(true);
  });
  afterAll(async () => {
    await client.dispose();
    await app.close();
  });

  const admin = (method: string, path: string, opts: { body?: unknown; headers?: Record<string, string> } = {}) =>
    request(app.url, method, path, { headers: opts.headers ?? ADMIN, body: opts.body });
  const kycOf = async (customerUuid: string) => (await request(app.url, 'GET', `/v1/customer/${customerUuid}/kyc`, { token })).body.data;

  it('no rule decides: a REJECT… id and an ordinary one both stay pending once their review job has run', async () => {
    const rejectLike = await submitKyc(app, token, 'REJECT-0001');
    const ordinary = await submitKyc(app, token, 'A12345678');
    expect(await eventually(async () => (await reviewJobsLeft(app.db.url)) === 0)).toBe(true);
    for (const uuid of [rejectLike, ordinary]) {
      expect(await kycOf(uuid)).toMatchObject({ kyc_status: 'pending', overall_kyc_status: 'pending', reviewed_at: null, rejection_reason: null });
      expect(await outboxOf(app.db.url, uuid)).toEqual([]);
    }
  });

  it('lists pending submissions oldest first, paged, with the identity number masked (no-store)', async () => {
    const first = await submitKyc(app, token, 'QUEUE-111111');
    app.clock.advance(1000);
    const second = await submitKyc(app, token, 'QUEUE-222222');
    const res = await admin('GET', '/v1/admin/kyc/pending?limit=100');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toMatchObject({ status: 'success', message: expect.any(String), meta: { count: expect.any(Number), has_more: false, next_cursor: null } });
    const entries: any[] = res.body.data;
    const a = entries.findIndex((s) => s.customer_uuid === first);
    const b = entries.findIndex((s) => s.customer_uuid === second);
    expect(a).toBeGreaterThanOrEqual(0);
    expect(b).toBeGreaterThan(a);
    expect(entries[a]).toEqual({
      submission_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      merchant_id: merchant.merchant.id,
      customer_uuid: first,
      status: 'pending',
      id_type: 'national_id',
      id_country: 'KE',
      id_number_last4: '1111',
      submitted_at: expect.any(String),
      reviewed_at: null,
      reviewed_by: null,
      rejection_reason: null,
    });
    const times = entries.map((s) => s.submitted_at);
    expect([...times].sort()).toEqual(times);
    // The list never carries a full identity number.
    expect(res.text).not.toContain('QUEUE-111111');
    expect(res.text).not.toContain('QUEUE-222222');

    // Keyset pages of one: every entry once, in the same order.
    const paged: string[] = [];
    let after: string | null = null;
    do {
      const page: any = await admin('GET', `/v1/admin/kyc/pending?limit=1${after ? `&after=${after}` : ''}`);
      expect(page.status).toBe(200);
      expect(page.body.data).toHaveLength(1);
      paged.push(page.body.data[0].submission_id);
      after = page.body.meta.next_cursor;
    } while (after);
    expect(paged).toEqual(entries.map((s) => s.submission_id));

    for (const bad of ['limit=0', 'limit=101', 'limit=x', 'after=not-a-cursor']) {
      const refused = await admin('GET', `/v1/admin/kyc/pending?${bad}`);
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe('INVALID_REQUEST');
    }
  });

  it('opens one submission with what an operator compares: the identity number in full, the customer’s names', async () => {
    const uuid = await submitKyc(app, token, 'SHOWME-98765');
    const id = await submissionOf(app.url, uuid);
    const res = await admin('GET', `/v1/admin/kyc/${id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body.data).toMatchObject({
      submission_id: id,
      customer_uuid: uuid,
      status: 'pending',
      id_number: 'SHOWME-98765',
      id_number_last4: '8765',
      date_of_birth: '1990-04-12',
      address: { line1: '12 Moi Avenue', city: 'Nairobi', country_code: 'KE', postal_code: '00100' },
      customer: { first_name: 'Amina', last_name: 'Otieno', date_of_birth: '1990-04-12', country_code: 'KE', customerid: expect.any(String) },
    });
  });

  it('approve: the customer is approved, one customer.kyc.approved event (event log, outbox), one subscription event; the sandbox rule is not consulted', async () => {
    const uuid = await submitKyc(app, token, 'REJECT-BUT-FINE');
    const id = await submissionOf(app.url, uuid);
    const res = await admin('POST', `/v1/admin/kyc/${id}/approve`, { body: { operator: 'alice' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', message: 'KYC submission approved' });
    expect(res.body.data).toMatchObject({ submission_id: id, customer_uuid: uuid, status: 'approved', reviewed_by: 'admin_api:alice', rejection_reason: null });
    expect(res.body.data.reviewed_at).toBe(app.clock.now().toISOString());

    const kyc = await kycOf(uuid);
    expect(kyc).toEqual({
      customer_uuid: uuid,
      kyc_status: 'approved',
      overall_kyc_status: 'approved',
      submitted_at: expect.any(String),
      reviewed_at: res.body.data.reviewed_at,
      rejection_reason: null,
    });
    expect((await request(app.url, 'GET', `/v1/customer/${uuid}`, { token })).body.data.overall_kyc_status).toBe('approved');

    const events = await outboxOf(app.db.url, uuid);
    expect(events.map((e) => e.type)).toEqual(['customer.kyc.approved']);
    expect(events[0]!.payload).toEqual(kyc);
    // The merchant's event log (no endpoint registered: kept, not attempted).
    const logged = await request(app.url, 'GET', `/v1/webhooks/events/${events[0]!.id}`, { token });
    expect(logged.status).toBe(200);
    expect(logged.body.data).toMatchObject({ id: events[0]!.id, type: 'customer.kyc.approved', data: kyc, delivery_status: null });

    expect(await eventually(async () => streamOf(sub, uuid).some((e) => e.kycStatus === 'APPROVED'))).toBe(true);
    expect(streamOf(sub, uuid).map((e) => e.kycStatus)).toEqual(['PENDING', 'APPROVED']);

    // No longer in the queue.
    expect((await wholeQueue(app.url)).some((s) => s.submission_id === id)).toBe(false);
  });

  it('reject needs a reason (bounded); with one, the reason reaches the KYC record, GraphQL, the event and the subscriber', async () => {
    const uuid = await submitKyc(app, token, 'B7654321');
    const id = await submissionOf(app.url, uuid);
    const refusals: Array<[unknown, string]> = [
      [undefined, 'reason'],
      [{}, 'reason'],
      [{ reason: '   ' }, 'reason'],
      [{ reason: 42 }, 'reason'],
      [{ reason: 'x'.repeat(501) }, 'reason'],
      [{ reason: 'line\nbreak' }, 'reason'],
      [{ reason: 'ok', operator: 'has space' }, 'operator'],
      // Issue 18: the reason reaches the merchant's webhook, so it never carries a card number.
      [{ reason: 'paid with card 4242424242424242' }, 'reason'],
    ];
    for (const [body, field] of refusals) {
      const res = await admin('POST', `/v1/admin/kyc/${id}/reject`, { body });
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(res.body).toMatchObject({ status: 'error', code: 'INVALID_REQUEST', details: [{ field, issue: expect.any(String) }] });
    }
    expect((await kycOf(uuid)).kyc_status).toBe('pending');

    const reason = 'Document expired: the national ID expired in 2024';
    const res = await admin('POST', `/v1/admin/kyc/${id}/reject`, { body: { reason: `  ${reason} ` } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'rejected', reviewed_by: 'admin_api', rejection_reason: reason });

    const kyc = await kycOf(uuid);
    expect(kyc).toMatchObject({ kyc_status: 'rejected', overall_kyc_status: 'rejected', rejection_reason: reason });
    const viaGraphql = await graphql(
      app.url,
      `
        query ($c: String!) {
          kyc(customerUuid: $c) {
            kycStatus
            rejectionReason
            reviewedAt
          }
        }
      `,
      { token, variables: { c: uuid } },
    );
    expect(viaGraphql.body.data.kyc).toEqual({ kycStatus: 'REJECTED', rejectionReason: reason, reviewedAt: kyc.reviewed_at });
    const events = await outboxOf(app.db.url, uuid);
    expect(events.map((e) => e.type)).toEqual(['customer.kyc.rejected']);
    expect(events[0]!.payload).toEqual(kyc);
    expect(await eventually(async () => streamOf(sub, uuid).some((e) => e.kycStatus === 'REJECTED'))).toBe(true);
    expect(streamOf(sub, uuid).at(-1)).toMatchObject({ kycStatus: 'REJECTED', rejectionReason: reason });

    // Rejected → pending on resubmission: back in the queue, as a new submission.
    const again = await request(app.url, 'POST', `/v1/customer/${uuid}/kyc`, { token, body: kycBody({ id_number: 'B7654322' }) });
    expect(again.body.data.kyc_status).toBe('pending');
    const next = await submissionOf(app.url, uuid);
    expect(next).not.toBe(id);
  });

  it('a second decision is 409 INVALID_STATE and changes nothing: no second event, no second subscription message', async () => {
    const uuid = await submitKyc(app, token, 'TWICE-0001');
    const id = await submissionOf(app.url, uuid);
    expect((await admin('POST', `/v1/admin/kyc/${id}/approve`)).status).toBe(200);
    expect(await eventually(async () => streamOf(sub, uuid).some((e) => e.kycStatus === 'APPROVED'))).toBe(true);
    const before = await kycOf(uuid);

    for (const [path, body] of [
      [`/v1/admin/kyc/${id}/approve`, undefined],
      [`/v1/admin/kyc/${id}/reject`, { reason: 'changed my mind' }],
    ] as const) {
      const res = await admin('POST', path, { body });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ status: 'error', code: 'INVALID_STATE', message: expect.stringContaining('already approved') });
    }
    expect(await kycOf(uuid)).toEqual(before);
    expect((await outboxOf(app.db.url, uuid)).map((e) => e.type)).toEqual(['customer.kyc.approved']);
    await sentinelDecision(app, app.db.url, token, sub, 'SENTINEL-TWICE');
    expect(streamOf(sub, uuid).map((e) => e.kycStatus)).toEqual(['PENDING', 'APPROVED']);
  });

  it('concurrent decisions: exactly one wins, the others are 409, one event', async () => {
    const uuid = await submitKyc(app, token, 'RACE-0001');
    const id = await submissionOf(app.url, uuid);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        i % 2 === 0 ? admin('POST', `/v1/admin/kyc/${id}/approve`) : admin('POST', `/v1/admin/kyc/${id}/reject`, { body: { reason: `racer ${i}` } }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    const winner = results.find((r) => r.status === 200)!.body.data;
    const events = await outboxOf(app.db.url, uuid);
    expect(events).toHaveLength(1);
    expect(events[0]!.type).toBe(`customer.kyc.${winner.status}`);
    expect((await kycOf(uuid)).kyc_status).toBe(winner.status);
  });

  it('the admin key guards every queue route: missing or wrong → 401, before anything else', async () => {
    const uuid = await submitKyc(app, token, 'GUARD-0001');
    const id = await submissionOf(app.url, uuid);
    const routes: Array<[string, string, unknown]> = [
      ['GET', '/v1/admin/kyc/pending', undefined],
      ['GET', `/v1/admin/kyc/${id}`, undefined],
      ['POST', `/v1/admin/kyc/${id}/approve`, undefined],
      ['POST', `/v1/admin/kyc/${id}/reject`, { reason: 'no key' }],
      ['POST', '/v1/admin/kyc/not-a-uuid/approve', undefined],
    ];
    const wrongKeys: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer wrong-admin-key' },
      { authorization: `Basic ${TEST_ADMIN_KEY}` },
      { authorization: `Bearer ${token}` }, // a merchant's access token is not the admin key
    ];
    for (const [method, path, body] of routes) {
      for (const headers of wrongKeys) {
        const res = await admin(method, path, { body, headers });
        expect({ method, path, headers, status: res.status }).toEqual({ method, path, headers, status: 401 });
        expect(res.body).toMatchObject({ status: 'error', code: 'INVALID_TOKEN' });
      }
    }
    expect((await kycOf(uuid)).kyc_status).toBe('pending');
    expect(await outboxOf(app.db.url, uuid)).toEqual([]);
  });

  it('a malformed submission id is 400 (before any query); an unknown one is 404', async () => {
    for (const bad of ['not-a-uuid', '12345', `${'0'.repeat(8)}-0000-0000-0000-00000000000g`, "x'%20or%201=1--"]) {
      for (const [method, suffix, body] of [
        ['GET', '', undefined],
        ['POST', '/approve', undefined],
        ['POST', '/reject', { reason: 'r' }],
      ] as const) {
        const res = await admin(method, `/v1/admin/kyc/${bad}${suffix}`, { body });
        expect({ bad, suffix, status: res.status }).toEqual({ bad, suffix, status: 400 });
        expect(res.body).toMatchObject({ code: 'INVALID_REQUEST', details: [{ field: 'submission_id', issue: 'must be a uuid' }] });
      }
    }
    // The id is checked before the body: a bad id with a missing reason names the id.
    const both = await admin('POST', '/v1/admin/kyc/nope/reject', { body: {} });
    expect(both.body.details).toEqual([{ field: 'submission_id', issue: 'must be a uuid' }]);

    const unknown = '3f1c2d4e-9130-4913-8913-000000000913';
    for (const [method, suffix, body] of [
      ['GET', '', undefined],
      ['POST', '/approve', undefined],
      ['POST', '/reject', { reason: 'r' }],
    ] as const) {
      const res = await admin(method, `/v1/admin/kyc/${unknown}${suffix}`, { body });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: 'error', code: 'NOT_FOUND', message: 'KYC submission not found' });
    }
  });
});

describe('kyc:review CLI against a running production service (no Redis)', () => {
  let db: TestDatabase;
  let proc: ServiceProcess;
  let env: NodeJS.ProcessEnv;
  let token: string;
  let client: Client;
  let sub: Sub;

  beforeAll(async () => {
    assertBuilt();
    if (!fs.existsSync(DIST_CLI('kyc-review'))) throw new Error('dist/src/cli/kyc-review.js is missing: run `npm run build`');
    db = await createTestDatabase();
    env = serviceEnv(db.url, { PAYMENTS_ENV: 'production', JOB_POLL_INTERVAL_MS: '200', RATE_LIMIT_ADMIN: '0' });
    expect(env.REDIS_URL).toBeUndefined();
    proc = await startServiceProcess(env);
    const created = await request(proc.url, 'POST', '/v1/admin/merchants', { body: { name: 'CLI Reviewed' }, headers: ADMIN });
    const { client_id, client_secret } = created.body.data;
    token = (await request(proc.url, 'POST', '/v1/oauth/token', { body: { grant_type: 'client_credentials', client_id, client_secret } })).body.data
      .access_token;
    client = connect({ url: proc.url } as TestApp, token);
    sub = collect(client, KYC_CHANGES);
    const sentinel = await submitKyc(proc, token, 'SENTINEL-0002');
    expect(await eventually(async () => streamOf(sub, sentinel).length > 0)).toBe(true);
  });
  afterAll(async () => {
    await client?.dispose();
    await proc?.stop('SIGKILL');
    await db?.drop();
  });

  it('list, show, reject with a reason, and a second decision refused: the running service tells its subscribers', async () => {
    const uuid = await submitKyc(proc, token, 'REJECT-CLI-4321');

    const listed = await runCli('kyc-review', ['list'], env);
    expect(listed.code).toBe(0);
    const list = JSON.parse(listed.stdout);
    const entry = list.data.find((s: any) => s.customer_uuid === uuid);
    expect(entry).toMatchObject({ status: 'pending', id_number_last4: '4321', reviewed_by: null });
    expect(list.meta).toMatchObject({ has_more: false, next_cursor: null });
    expect(listed.stdout).not.toContain('REJECT-CLI-4321');
    expect(listed.stderr).not.toContain('REJECT-CLI-4321');
    const id: string = entry.submission_id;

    const shown = await runCli('kyc-review', ['show', id], env);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ submission_id: id, id_number: 'REJECT-CLI-4321', customer: { first_name: 'Amina' } });
    expect(shown.stderr).not.toContain('REJECT-CLI-4321');

    const noReason = await runCli('kyc-review', ['reject', id], env);
    expect(noReason.code).toBe(1);
    expect(noReason.stderr).toMatch(/INVALID_REQUEST.*reason/);
    expect(noReason.stdout).toBe('');

    const rejected = await runCli('kyc-review', ['reject', id, '--reason', 'Name does not match the document', '--operator', 'ops.bob'], env);
    expect(rejected.code).toBe(0);
    expect(JSON.parse(rejected.stdout)).toMatchObject({
      submission_id: id,
      status: 'rejected',
      reviewed_by: 'cli:ops.bob',
      rejection_reason: 'Name does not match the document',
    });

    // The CLI is another process and there is no Redis: the decision's job reaches the service's subscribers.
    expect(await eventually(async () => streamOf(sub, uuid).some((e) => e.kycStatus === 'REJECTED'), { attempts: 100, everyMs: 100 })).toBe(true);
    expect(streamOf(sub, uuid).at(-1)).toMatchObject({ kycStatus: 'REJECTED', rejectionReason: 'Name does not match the document' });
    const kyc = (await request(proc.url, 'GET', `/v1/customer/${uuid}/kyc`, { token })).body.data;
    expect(kyc).toMatchObject({ kyc_status: 'rejected', rejection_reason: 'Name does not match the document' });
    const events = await outboxOf(db.url, uuid);
    expect(events.map((e) => e.type)).toEqual(['customer.kyc.rejected']);
    expect(events[0]!.payload).toEqual(kyc);

    const again = await runCli('kyc-review', ['approve', id], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/INVALID_STATE: This KYC submission was already rejected/);
    expect(await outboxOf(db.url, uuid)).toHaveLength(1);
    await sentinelDecision(proc, db.url, token, sub, 'SENTINEL-CLI');
    expect(streamOf(sub, uuid).filter((e) => e.kycStatus === 'REJECTED')).toHaveLength(1);
  });

  it('approve records the system user by default; bad ids and usage are refused', async () => {
    const uuid = await submitKyc(proc, token, 'CLI-APPROVE-1');
    const id = (JSON.parse((await runCli('kyc-review', ['list'], env)).stdout).data as any[]).find((s) => s.customer_uuid === uuid).submission_id;
    const approved = await runCli('kyc-review', ['approve', id], env);
    expect(approved.code).toBe(0);
    expect(JSON.parse(approved.stdout)).toMatchObject({ status: 'approved', reviewed_by: expect.stringMatching(/^cli(:.+)?$/) });
    expect(await eventually(async () => streamOf(sub, uuid).some((e) => e.kycStatus === 'APPROVED'), { attempts: 100, everyMs: 100 })).toBe(true);

    const badId = await runCli('kyc-review', ['approve', 'not-a-uuid'], env);
    expect(badId.code).toBe(1);
    expect(badId.stderr).toMatch(/INVALID_REQUEST.*submissionId must be a uuid/);
    const unknown = await runCli('kyc-review', ['approve', '3f1c2d4e-9130-4913-8913-000000000913'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/NOT_FOUND/);
    for (const args of [[], ['frobnicate'], ['approve'], ['list', 'extra']]) {
      const usage = await runCli('kyc-review', args, env);
      expect({ args, code: usage.code }).toEqual({ args, code: 2 });
      expect(usage.stderr).toContain('usage: npm run kyc:review');
    }
  });
});

describe('kyc:review CLI: the decision reaches the merchant’s webhook endpoint', () => {
  let app: TestApp;
  let receiver: Receiver;

  beforeAll(async () => {
    // Sandbox, so the endpoint may be a loopback receiver; the sandbox rule is held off for ten minutes
    // so the operator decides first. The decision path is the same as production's.
    app = await createTestApp({ env: { ...FAST_WEBHOOKS, SANDBOX_KYC_DELAY_MS: '600000' } });
    receiver = await startReceiver(() => 200);
  });
  afterAll(async () => {
    await receiver.close();
    await app.close();
  });

  it('approve from the CLI: the running service delivers one signed customer.kyc.approved webhook', async () => {
    const merchant = await app.createMerchant('Webhook Reviewed');
    const token = (await app.token(merchant)).accessToken;
    await setEndpoint(app.url, token, receiver.url);
    const uuid = await submitKyc(app, token, 'HOOK-0001');
    const id = await submissionOf(app.url, uuid);
    // The same keys as the app under test (createTestApp's).
    const env = cleanEnv({
      DATABASE_URL: app.db.url,
      TOKEN_SIGNING_KEY: 'test-signing-key-0123456789abcdefghijklmnopqrstuvwxyz',
      ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      LOG_LEVEL: 'info',
    });
    const approved = await runCli('kyc-review', ['approve', id, '--operator', 'carol'], env);
    expect(approved.code).toBe(0);

    expect(await eventually(async () => receiver.received.length >= 1, { attempts: 200, everyMs: 50 })).toBe(true);
    const body = verifyDelivery(merchant.webhookSecret, receiver.received[0]!);
    const kyc = (await request(app.url, 'GET', `/v1/customer/${uuid}/kyc`, { token })).body.data;
    expect(body).toMatchObject({ type: 'customer.kyc.approved', data: kyc });
    expect(kyc.kyc_status).toBe('approved');

    // A sentinel decision's webhook, after this one: once it is here and no delivery is left to run,
    // a second delivery of the first event would have come too.
    const sentinel = await submitKyc(app, token, 'HOOK-SENTINEL');
    expect((await request(app.url, 'POST', `/v1/admin/kyc/${await submissionOf(app.url, sentinel)}/approve`, { headers: ADMIN })).status).toBe(200);
    const aboutCustomer = (c: string) => receiver.received.filter((r) => JSON.parse(r.body).data.customer_uuid === c);
    expect(await eventually(async () => aboutCustomer(sentinel).length === 1, { attempts: 200, everyMs: 50 })).toBe(true);
    const deliveriesLeft = `select count(*)::int as n from webhook_delivery where status = 'pending'`;
    expect(await eventually(async () => (await dbQuery<{ n: number }>(app.db.url, deliveriesLeft))[0]!.n === 0)).toBe(true);
    expect(aboutCustomer(uuid)).toHaveLength(1);
    expect(receiver.received).toHaveLength(2);
  });
});
