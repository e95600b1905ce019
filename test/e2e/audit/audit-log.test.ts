import { Client } from 'pg';
import type { MerchantCredentials } from '../../../src/modules/merchants/merchant.service';
import { graphql, request } from '../../helpers/http';
import { personOf, type TestPerson } from '../../helpers/people';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { graphqlAs } from './audit-helpers';

const AUDIT_LOG = `query($first: Int, $after: String, $filter: AuditLogFilter) {
  auditLog(first: $first, after: $after, filter: $filter) {
    edges { cursor node { id createdAt action actorType actorId actorLabel role targetType targetId ip userAgent before after } }
    pageInfo { hasNextPage endCursor }
  }
}`;

/**
 * Issue 36, the audit log's reading side: owners and admins list it (filters, keyset paging like
 * the transaction list) and export it as CSV, over REST and GraphQL; an API key (every key is a
 * developer's today) is refused; one merchant never sees another's; and PostgreSQL itself refuses
 * to change or remove an entry.
 */
describe('reading the audit log', () => {
  let app: TestApp;
  let a: MerchantCredentials;
  let b: MerchantCredentials;
  let keyA: string;
  let keyB: string;
  let ownerA: TestPerson;
  let adminB: TestPerson;
  const times: string[] = [];

  const list = (token: string, query = '') => request(app.url, 'GET', `/v1/audit-logs${query}`, { token });

  beforeAll(async () => {
    app = await createTestApp();
    a = await app.createMerchant('Merchant A');
    b = await app.createMerchant('Merchant B');
    keyA = (await app.token(a)).accessToken;
    keyB = (await app.token(b)).accessToken;
    ownerA = await personOf(app, a.merchant.id, 'owner');
    adminB = await personOf(app, b.merchant.id, 'admin');
    // A's log, a minute apart: three top-ups by its key, a secret rotation by its owner; B's: one top-up.
    for (const amount of ['10.00', '20.00', '30.00']) {
      app.clock.advance(60_000);
      times.push(app.clock.now().toISOString());
      const res = await request(app.url, 'POST', '/v1/sandbox/balance/top-up', { token: keyA, body: { currency: 'NGN', amount } });
      expect(res.status).toBe(200);
    }
    app.clock.advance(60_000);
    times.push(app.clock.now().toISOString());
    expect((await graphqlAs(app, ownerA.token, 'owner-browser/1.0', 'mutation { rotateWebhookSecret { webhookSecret } }')).body.errors).toBeUndefined();
    expect((await request(app.url, 'POST', '/v1/sandbox/balance/top-up', { token: keyB, body: { currency: 'KES', amount: '5' } })).status).toBe(200);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('lists a merchant’s entries newest first, each with its actor, role, origin and values', async () => {
    const res = await list(ownerA.token);
    expect(res.status).toBe(200);
    expect(res.body.meta).toMatchObject({ count: 4, has_more: false, next_cursor: null });
    expect(res.body.data.map((e: { action: string }) => e.action)).toEqual(['webhook.secret_rotated', 'sandbox.top_up', 'sandbox.top_up', 'sandbox.top_up']);
    expect(res.body.data[0]).toEqual({
      id: expect.any(String),
      created_at: times[3],
      action: 'webhook.secret_rotated',
      actor_type: 'user',
      actor_id: ownerA.userId,
      actor_label: null,
      role: 'owner',
      target_type: 'webhook_endpoint',
      target_id: a.merchant.id,
      ip: '127.0.0.1',
      user_agent: 'owner-browser/1.0',
      before: null,
      after: { previous_signs_until: expect.any(String) },
    });
    expect(res.body.data[3]).toMatchObject({
      created_at: times[0],
      actor_type: 'api_key',
      actor_label: a.merchant.clientId,
      role: 'developer',
      after: { amount: '10.00', currency: 'NGN' },
    });
  });

  it('filters by action, actor (id or label, exactly) and time', async () => {
    const actions = async (query: string) => ((await list(ownerA.token, query)).body.data as Array<{ action: string }>).map((e) => e.action);
    expect(await actions('?action=webhook.secret_rotated')).toEqual(['webhook.secret_rotated']);
    expect(await actions(`?actor=${a.merchant.clientId}`)).toHaveLength(3);
    expect(await actions(`?actor=${ownerA.userId}`)).toEqual(['webhook.secret_rotated']);
    expect(await actions(`?actor=${a.merchant.clientId.slice(0, -1)}`)).toEqual([]);
    expect(await actions(`?from=${times[1]}&to=${times[3]}`)).toEqual(['sandbox.top_up', 'sandbox.top_up']);
    const bad = await list(ownerA.token, '?action=user.exploded&from=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: { field: string }) => d.field).sort()).toEqual(['action', 'from']);
  });

  it('pages by keyset, like the transaction list (limit and after; GraphQL first and after)', async () => {
    const first = await list(ownerA.token, '?limit=3');
    expect(first.body.meta).toMatchObject({ count: 3, has_more: true, next_cursor: expect.any(String) });
    const second = await list(ownerA.token, `?limit=3&after=${first.body.meta.next_cursor}`);
    expect(second.body.meta).toMatchObject({ count: 1, has_more: false });
    expect(second.body.data[0].created_at).toBe(times[0]);
    expect((await list(ownerA.token, '?after=not-a-cursor')).status).toBe(400);

    const page1 = await graphql(app.url, AUDIT_LOG, { token: ownerA.token, variables: { first: 2, filter: { action: 'sandbox.top_up' } } });
    expect(page1.body.errors).toBeUndefined();
    const conn = page1.body.data.auditLog;
    expect(conn.pageInfo.hasNextPage).toBe(true);
    expect(conn.edges.map((e: { node: { after: { amount: string } } }) => e.node.after.amount)).toEqual(['30.00', '20.00']);
    expect(conn.edges[0].node).toMatchObject({ actorType: 'API_KEY', actorLabel: a.merchant.clientId, role: 'developer', ip: '127.0.0.1' });
    const page2 = await graphql(app.url, AUDIT_LOG, {
      token: ownerA.token,
      variables: { first: 2, after: conn.pageInfo.endCursor, filter: { action: 'sandbox.top_up', from: times[0] } },
    });
    expect(page2.body.data.auditLog.edges.map((e: { node: { after: { amount: string } } }) => e.node.after.amount)).toEqual(['10.00']);
    expect(page2.body.data.auditLog.pageInfo.hasNextPage).toBe(false);
  });

  it('exports every matching entry as CSV, streamed', async () => {
    const res = await fetch(`${app.url}/v1/audit-logs/export.csv?action=sandbox.top_up`, { headers: { authorization: `Bearer ${ownerA.token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="audit-log.csv"');
    const lines = (await res.text()).split('\r\n');
    expect(lines[0]).toBe('created_at,action,actor_type,actor_id,actor_label,role,target_type,target_id,ip,user_agent,before,after');
    expect(lines.slice(1, -1)).toHaveLength(3);
    expect(lines.at(-1)).toBe('');
    expect(lines[1]).toContain(`${times[2]},sandbox.top_up,api_key,`);
    expect(lines[1]).toContain('"{""amount"":""30.00"",""currency"":""NGN""}"');
    const bad = await fetch(`${app.url}/v1/audit-logs/export.csv?to=soon`, { headers: { authorization: `Bearer ${ownerA.token}` } });
    expect(bad.status).toBe(400);
  });

  it('refuses an API key (a developer’s) with 403 FORBIDDEN, on REST, the export and GraphQL', async () => {
    const rest = await list(keyA);
    expect(rest.status).toBe(403);
    expect(rest.body).toMatchObject({ status: 'error', code: 'FORBIDDEN' });
    expect((await request(app.url, 'GET', '/v1/audit-logs/export.csv', { token: keyA })).status).toBe(403);
    const gql = await graphql(app.url, AUDIT_LOG, { token: keyA });
    expect(gql.body.data).toBeNull();
    expect(gql.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it('shows one merchant none of another’s entries', async () => {
    const ofB = await list(adminB.token);
    expect(ofB.status).toBe(200);
    expect(ofB.body.data).toEqual([
      expect.objectContaining({ action: 'sandbox.top_up', actor_label: b.merchant.clientId, after: { amount: '5.00', currency: 'KES' } }),
    ]);
    expect((await list(adminB.token, `?actor=${a.merchant.clientId}`)).body.data).toEqual([]);
    const cursorOfA = (await list(ownerA.token, '?limit=1')).body.meta.next_cursor;
    expect((await list(adminB.token, `?after=${cursorOfA}`)).body.data).toEqual([]);
    const gql = await graphql(app.url, AUDIT_LOG, { token: adminB.token, variables: { filter: { actor: ownerA.userId } } });
    expect(gql.body.data.auditLog.edges).toEqual([]);
  });

  it('is append-only: PostgreSQL refuses UPDATE, DELETE and TRUNCATE', async () => {
    const db = new Client({ connectionString: app.db.url });
    await db.connect();
    try {
      for (const statement of ["update audit_log set action = 'user.signed_up'", 'delete from audit_log', 'truncate audit_log']) {
        await expect(db.query(statement)).rejects.toMatchObject({ code: '42501', message: expect.stringContaining('audit_log is append-only') });
      }
      const [{ n }] = (await db.query<{ n: number }>('select count(*)::int as n from audit_log')).rows as [{ n: number }];
      expect(n).toBe(5);
    } finally {
      await db.end();
    }
  });
});
