import Redis from 'ioredis';
import type { MerchantCredentials } from '../../../src/modules/merchants/merchant.service';
import { graphql, request } from '../../helpers/http';
import { createTestApp, TEST_ADMIN_KEY, type TestApp } from '../../helpers/test-app';
import { startTwoInstances, type TwoInstances } from '../../helpers/two-instances';
import { eventually } from '../../helpers/wait';
import { collect, connect } from '../../helpers/ws';
import { enrollBody } from '../../helpers/factories';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/**
 * A documentation address (RFC 5737) no other test of this file uses, so no other test's
 * requests count against it. Drawn in order, not at random: two tests drawing the same
 * address shared its budget and made this file fail about one run in ten (issue 24).
 */
let addresses = 0;
const someAddress = () => {
  addresses += 1;
  if (addresses > 254) throw new Error('this file needs more than 254 test addresses');
  return `198.51.100.${addresses}`;
};

const remaining = (res: { headers: Headers }) => Number(res.headers.get('ratelimit-remaining'));

function expectLimited(res: { status: number; headers: Headers; body: any }) {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(res.headers.get('ratelimit-remaining')).toBe('0');
  expect(res.headers.get('ratelimit-reset')).toBe(String(retryAfter));
}

describe('rate limits (in process)', () => {
  let app: TestApp;
  let a: MerchantCredentials;
  let b: MerchantCredentials;
  let tokenA: string;
  let tokenB: string;

  beforeAll(async () => {
    app = await createTestApp({
      env: {
        RATE_LIMIT_MERCHANT: '6',
        RATE_LIMIT_TOKEN_CLIENT: '4',
        RATE_LIMIT_TOKEN_IP: '4',
        RATE_LIMIT_TOKEN_FAILURES: '2',
        RATE_LIMIT_TOKEN_IP_FAILURES: '6',
        RATE_LIMIT_ADMIN: '2',
        RATE_LIMIT_ADMIN_FAILURES: '2',
        RATE_LIMIT_GRAPHQL_COST_UNIT: '50',
        // The per-address budgets read X-Forwarded-For from the local proxy only.
        TRUST_PROXY: '127.0.0.1',
      },
    });
  });
  afterAll(() => app.close());

  // Each test spends its own merchants' budgets: a fresh pair, with their tokens got from a fresh address.
  beforeEach(async () => {
    a = await app.createMerchant('Budget A');
    b = await app.createMerchant('Budget B');
    const headers = { 'x-forwarded-for': someAddress() };
    const issue = async (m: MerchantCredentials) =>
      (
        await request(app.url, 'POST', '/v1/oauth/token', {
          headers,
          body: { grant_type: 'client_credentials', client_id: m.merchant.clientId, client_secret: m.clientSecret },
        })
      ).body.data.access_token as string;
    tokenA = await issue(a);
    tokenB = await issue(b);
  });

  it('REST: a merchant budget counts every request, then 429 RATE_LIMITED with Retry-After; another merchant is unaffected', async () => {
    const seen: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await request(app.url, 'GET', '/v1/customers', { token: tokenA });
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe('6');
      expect(res.headers.get('ratelimit-policy')).toBe('6;w=60');
      seen.push(remaining(res));
    }
    expect(seen).toEqual([5, 4, 3, 2, 1, 0]);

    const limited = await request(app.url, 'POST', '/v1/customer/enroll', { token: tokenA, body: enrollBody() });
    expectLimited(limited);
    expect(limited.body).toEqual({ status: 'error', code: 'RATE_LIMITED', message: expect.stringMatching(/^Too many requests; retry after \d+ s$/) });

    // Refused before the handler: nothing was written. B still has its whole budget.
    const listB = await request(app.url, 'GET', '/v1/customers', { token: tokenB });
    expect(listB.status).toBe(200);
    expect(remaining(listB)).toBe(5);
    expect(await count(app, 'select count(*) from customer where merchant_id = ?', [a.merchant.id])).toBe(0);
  });

  it('GraphQL is charged by operation cost, over HTTP and the socket, from the same budget', async () => {
    // A cheap query costs one point.
    const cheap = await graphql(app.url, '{ merchant { id } }', { token: tokenA });
    expect(cheap.status).toBe(200);
    expect(remaining(cheap)).toBe(5);
    // graphql-armor prices this at 10 × (2 + 1.5 × (2 + 1.5 × (1 + 1 + 1))) = 196.25: ceil(196.25 / 50) = 4 points.
    const costly = await graphql(app.url, '{ transactions(first: 10) { edges { node { reference status amount } } } }', { token: tokenA });
    expect(costly.status).toBe(200);
    expect(costly.body.errors).toBeUndefined();
    expect(remaining(costly)).toBe(1);

    // Spend the rest, then both doors refuse with RATE_LIMITED.
    let last = costly;
    while (remaining(last) > 0) last = await graphql(app.url, '{ merchant { id } }', { token: tokenA });
    const refused = await graphql(app.url, '{ merchant { id } }', { token: tokenA });
    expectLimited(refused);
    expect(refused.body.data).toBeUndefined();
    expect(refused.body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'RATE_LIMITED' }) })]);

    const client = connect(app, tokenA);
    try {
      const sub = collect(client, '{ merchant { id } }');
      expect(await eventually(async () => sub.received.length + sub.errors.length > 0)).toBe(true);
      const errors = sub.received[0]?.errors ?? (sub.errors[0] as any[]);
      expect(errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'RATE_LIMITED' }) })]);
    } finally {
      await client.dispose();
    }
    // B's socket operation runs.
    const clientB = connect(app, tokenB);
    try {
      const sub = collect(clientB, '{ merchant { id } }');
      expect(await eventually(async () => sub.received.length > 0)).toBe(true);
      expect(sub.received[0]).toEqual({ data: { merchant: { id: expect.any(String) } } });
    } finally {
      await clientB.dispose();
    }
  });

  const tokenAttempt = (m: MerchantCredentials, secret: string, from: string) =>
    request(app.url, 'POST', '/v1/oauth/token', {
      headers: { 'x-forwarded-for': from },
      body: { grant_type: 'client_credentials', client_id: m.merchant.clientId, client_secret: secret },
    });

  it("the token endpoint: wrong secrets refuse the guesser's address for that client_id, never the merchant's (issue 18)", async () => {
    const guesser = someAddress();
    // Two failures (RATE_LIMIT_TOKEN_FAILURES) from one address for one client_id.
    for (let i = 0; i < 2; i++) expect((await tokenAttempt(a, 'wrong-secret', guesser)).status).toBe(401);
    const blocked = await tokenAttempt(a, 'wrong-secret', guesser);
    expectLimited(blocked);
    expect(blocked.body.code).toBe('RATE_LIMITED');
    // The guesser's address is refused for that client_id, the right secret included…
    expectLimited(await tokenAttempt(a, a.clientSecret, guesser));
    // …but the merchant, from its own address, still gets a token.
    const merchant = await tokenAttempt(a, a.clientSecret, someAddress());
    expect(merchant.status).toBe(200);
    expect(merchant.body.data.access_token).toEqual(expect.any(String));
  });

  it("the token endpoint: the client_id's ceiling, spent from many addresses, answers 429 to failures and still gives the right secret a token", async () => {
    const statuses: number[] = [];
    // Four failures (RATE_LIMIT_TOKEN_CLIENT) from four addresses, one each: none spends an address's budget.
    for (let i = 0; i < 6; i++) statuses.push((await tokenAttempt(a, 'wrong-secret', someAddress())).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
    expect((await tokenAttempt(a, a.clientSecret, someAddress())).status).toBe(200);
  });

  it('the token endpoint: one address is limited across client ids, before the body is read', async () => {
    const address = someAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await request(app.url, 'POST', '/v1/oauth/token', {
        headers: { 'x-forwarded-for': address },
        body: { grant_type: 'client_credentials', client_id: `unknown-client-${i}`, client_secret: 'x' },
      });
      statuses.push(res.status);
      if (res.status === 429) expectLimited(res);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    // A malformed body from that address is refused by the budget too (counted before parsing).
    const malformed = await request(app.url, 'POST', '/v1/oauth/token', {
      headers: { 'x-forwarded-for': address, 'content-type': 'application/json' },
      raw: '{',
    });
    expect(malformed.status).toBe(429);
    // X-Forwarded-For from an untrusted peer is ignored: covered by TRUST_PROXY naming 127.0.0.1 only, which is this test's peer.
  });

  it('the admin API: wrong keys and the right key are counted apart by address; spent failures never refuse the right key (issue 34)', async () => {
    const address = someAddress();
    const admin = (authorization: string | undefined, name: string, from = address) =>
      request(app.url, 'POST', '/v1/admin/merchants', {
        headers: { 'x-forwarded-for': from, ...(authorization ? { authorization } : {}) },
        body: { name },
      });
    // Two failures (RATE_LIMIT_ADMIN_FAILURES), a missing key among them; then wrong keys are refused with 429.
    const failures = [await admin('Bearer nope', 'W1'), await admin(undefined, 'W2'), await admin('Bearer nope', 'W3')];
    expect(failures.map((r) => r.status)).toEqual([401, 401, 429]);
    expectLimited(failures[2]!);
    expect(failures[2]!.body.code).toBe('RATE_LIMITED');
    // The right key from that same address still works, on its own budget (RATE_LIMIT_ADMIN: 2)…
    expect((await admin(`Bearer ${TEST_ADMIN_KEY}`, 'Y1')).status).toBe(201);
    expect((await admin(`Bearer ${TEST_ADMIN_KEY}`, 'Y2')).status).toBe(201);
    // …which successes alone spend.
    const third = await admin(`Bearer ${TEST_ADMIN_KEY}`, 'Z');
    expectLimited(third);
    expect(third.body.code).toBe('RATE_LIMITED');
    // Wrong keys are still refused, and another address has both budgets whole.
    expect((await admin('Bearer nope', 'W4')).status).toBe(429);
    expect((await admin('Bearer nope', 'W5', someAddress())).status).toBe(401);
    expect((await admin(`Bearer ${TEST_ADMIN_KEY}`, 'Y3', someAddress())).status).toBe(201);
    expect(await count(app, `select count(*) from merchant where name in ('Y1', 'Y2', 'Y3')`, [])).toBe(3);
    expect(await count(app, `select count(*) from merchant where name in ('Z', 'W1', 'W2', 'W3', 'W4', 'W5')`, [])).toBe(0);
  });
});

describe('behind a proxy TRUST_PROXY does not name (issue 34)', () => {
  const captured = () => {
    const lines: string[] = [];
    return { lines, destination: { write: (line: string) => void lines.push(line) } };
  };
  const warnings = (lines: string[]) =>
    lines.map((l) => JSON.parse(l) as { level: number; msg: string }).filter((l) => l.msg.includes('X-Forwarded-For') && l.msg.includes('TRUST_PROXY'));

  it('without TRUST_PROXY, the first request with X-Forwarded-For logs one warning saying what to set; no later one does', async () => {
    const log = captured();
    const app = await createTestApp({ logDestination: log.destination });
    try {
      expect((await request(app.url, 'GET', '/health/live')).status).toBe(200);
      expect(warnings(log.lines)).toEqual([]);
      for (let i = 0; i < 3; i++) {
        await request(app.url, 'POST', '/v1/oauth/token', {
          headers: { 'x-forwarded-for': `198.51.100.${200 + i}` },
          body: { grant_type: 'client_credentials', client_id: 'nobody', client_secret: 'x' },
        });
      }
      expect((await request(app.url, 'GET', '/v1/merchant', { headers: { 'x-forwarded-for': '198.51.100.210' } })).status).toBe(401);
      const said = warnings(log.lines);
      expect(said).toHaveLength(1);
      expect(said[0]!.level).toBe(40);
      expect(said[0]!.msg).toContain('Set TRUST_PROXY to the number of proxies in front of the service (e.g. 1)');
      // The positive control: the requests after it were logged (their access lines), without a second warning.
      expect(log.lines.filter((l) => l.includes('"path":"/v1/oauth/token"')).length).toBe(3);
      expect(log.lines.some((l) => l.includes('"path":"/v1/merchant"'))).toBe(true);
    } finally {
      await app.close();
    }
  });

  it('with TRUST_PROXY set, X-Forwarded-For is expected: no warning', async () => {
    const log = captured();
    const app = await createTestApp({ env: { TRUST_PROXY: '1' }, logDestination: log.destination });
    try {
      expect((await request(app.url, 'GET', '/v1/merchant', { headers: { 'x-forwarded-for': '198.51.100.211' } })).status).toBe(401);
      expect(log.lines.some((l) => l.includes('"path":"/v1/merchant"'))).toBe(true);
      expect(warnings(log.lines)).toEqual([]);
    } finally {
      await app.close();
    }
  });
});

async function count(app: TestApp, sql: string, params: unknown[]): Promise<number> {
  const [row] = await app.service.orm.em.fork().getConnection().execute<Array<{ count: string }>>(sql, params);
  return Number(row!.count);
}

describe('rate limits with Redis: one budget across instances', () => {
  let instances: TwoInstances;
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    // Redis keeps a window's counts after this file ends: a run started within the window would find
    // the addresses below already spent. Each run starts from nothing (these addresses are this file's own).
    const redis = new Redis(REDIS_URL);
    try {
      const stale = await redis.keys('rl:*203.0.113.*');
      if (stale.length > 0) await redis.del(...stale);
    } finally {
      redis.disconnect();
    }
    // The token budgets at their defaults (TEST_RATE_LIMITS lifts them for the other suites); TRUST_PROXY for the addresses.
    const env = {
      REDIS_URL,
      RATE_LIMIT_MERCHANT: '6',
      RATE_LIMIT_TOKEN_FAILURES: '10',
      RATE_LIMIT_TOKEN_IP_FAILURES: '60',
      RATE_LIMIT_TOKEN_CLIENT: '1000',
      TRUST_PROXY: '127.0.0.1',
    };
    instances = await startTwoInstances(env);
    ({ a: first, b: second } = instances);
  });
  afterAll(() => instances?.close());

  it("the issue's attack: sixty wrong secrets for a client_id, spread over both instances, leave the merchant's own address able to get a token", async () => {
    const merchant = await first.createMerchant('Known client_id');
    const attempt = (target: TestApp, secret: string, from: string) =>
      request(target.url, 'POST', '/v1/oauth/token', {
        headers: { 'x-forwarded-for': from },
        body: { grant_type: 'client_credentials', client_id: merchant.merchant.clientId, client_secret: secret },
      });
    const statuses = new Map<number, number>();
    for (let i = 0; i < 60; i++) {
      const status = (await attempt(i % 2 === 0 ? first : second, `guess-${i}`, '203.0.113.7')).status;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    // Ten failures (the default RATE_LIMIT_TOKEN_FAILURES), counted across the instances; then the address is refused.
    expect(Object.fromEntries(statuses)).toEqual({ 401: 10, 429: 50 });
    expect((await attempt(second, merchant.clientSecret, '203.0.113.8')).status).toBe(200);
    expect((await attempt(first, merchant.clientSecret, '203.0.113.8')).status).toBe(200);
  });

  it('requests spread over two instances share the merchant budget', async () => {
    const merchant = await first.createMerchant('Shared budget');
    const { accessToken } = await first.token(merchant);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const target = i % 2 === 0 ? first : second;
      statuses.push((await request(target.url, 'GET', '/v1/customers', { token: accessToken })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
  });
});

describe('rate limit keys: one Redis, several deployments (issue 34)', () => {
  let sameDatabase: TwoInstances;
  let otherDatabase: TestApp;
  let named: TestApp;

  beforeAll(async () => {
    const env = { REDIS_URL, RATE_LIMIT_TOKEN_IP: '3', TRUST_PROXY: '127.0.0.1' };
    // Two instances of one deployment (one database), another deployment (its own database), and a third whose
    // RATE_LIMIT_PREFIX names the first's database: the default prefix is the database's name.
    sameDatabase = await startTwoInstances(env);
    otherDatabase = await createTestApp({ env });
    named = await createTestApp({ env: { ...env, RATE_LIMIT_PREFIX: new URL(sameDatabase.db.url).pathname.slice(1) } });
  });
  afterAll(async () => {
    await named?.close();
    await otherDatabase?.close();
    await sameDatabase?.close();
  });

  it('instances on one database share a budget; a deployment on another database does not, unless RATE_LIMIT_PREFIX says so', async () => {
    // An address of this run's own: the budget is per address (RATE_LIMIT_TOKEN_IP, counted before the body is read).
    const address = `198.18.${1 + Math.floor(Math.random() * 254)}.${1 + Math.floor(Math.random() * 254)}`;
    const attempt = (target: TestApp) =>
      request(target.url, 'POST', '/v1/oauth/token', {
        headers: { 'x-forwarded-for': address },
        body: { grant_type: 'client_credentials', client_id: 'nobody', client_secret: 'x' },
      });
    const spent = [await attempt(sameDatabase.a), await attempt(sameDatabase.a), await attempt(sameDatabase.a)];
    expect(spent.map((r) => [r.status, remaining(r)])).toEqual([
      [401, 2],
      [401, 1],
      [401, 0],
    ]);
    // The same deployment's other instance: the same counter.
    expectLimited(await attempt(sameDatabase.b));
    // Another deployment on the same Redis: its own, whole budget.
    const other = await attempt(otherDatabase);
    expect([other.status, remaining(other)]).toEqual([401, 2]);
    // A deployment told to use the first's prefix shares its budget.
    expectLimited(await attempt(named));
  });
});
