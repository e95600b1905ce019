import { createHash } from 'node:crypto';
import { createTestApp, TEST_ADMIN_KEY, type TestApp } from '../../helpers/test-app';
import { createTestDatabase } from '../../helpers/database';
import { request } from '../../helpers/http';
import { DEFAULT_EVENT_TYPES } from '../../../src/modules/outbox/event-types';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;
const sha256Hex = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

interface CreatedMerchant {
  merchant_id: string;
  name: string;
  client_id: string;
  client_secret: string;
  webhook_secret: string;
  webhook_url: string | null;
  created_at: string;
  updated_at: string;
}

describe('REST merchants', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  /** `authorization: null` sends no Authorization header at all. */
  const admin = (body: unknown, authorization: string | null = `Bearer ${TEST_ADMIN_KEY}`) =>
    request(app.url, 'POST', '/v1/admin/merchants', {
      body,
      headers: authorization === null ? {} : { authorization },
    });
  const sql = (query: string, params: unknown[] = []) => app.service.orm.em.fork().execute(query, params);
  const merchantCount = async () => (await sql('select count(*)::int as n from merchant'))[0].n as number;

  const createViaAdmin = async (name: string): Promise<CreatedMerchant> => {
    const res = await admin({ name });
    if (res.status !== 201) throw new Error(`admin create failed: ${res.status} ${res.text}`);
    return res.body.data as CreatedMerchant;
  };
  const tokenFor = async (clientId: string, clientSecret: string) =>
    request(app.url, 'POST', '/v1/oauth/token', {
      body: { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret },
    });
  const accessTokenFor = async (m: { client_id: string; client_secret: string }) => {
    const res = await tokenFor(m.client_id, m.client_secret);
    expect(res.status).toBe(200);
    return res.body.data.access_token as string;
  };

  describe('POST /v1/admin/merchants', () => {
    it('creates a merchant: 201, the credentials once, not cacheable, and they work at the token endpoint', async () => {
      const before = await merchantCount();
      const res = await admin({ name: 'Acme Payments' });
      expect(res.status).toBe(201);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.body).toEqual({
        status: 'success',
        message: expect.any(String),
        data: {
          merchant_id: expect.stringMatching(UUID),
          name: 'Acme Payments',
          client_id: expect.stringMatching(/^ci_/),
          client_secret: expect.stringMatching(/^sk_/),
          webhook_secret: expect.stringMatching(WEBHOOK_SECRET),
          webhook_url: null,
          webhook_event_types: [...DEFAULT_EVENT_TYPES],
          webhook_secret_overlap_until: null,
          created_at: expect.stringMatching(ISO),
          updated_at: expect.stringMatching(ISO),
        },
      });
      const data = res.body.data;
      expect(Buffer.from(data.webhook_secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
      expect(data.created_at).toBe(app.clock.now().toISOString());
      expect(res.text.toLowerCase()).not.toContain('hash');
      expect(res.text.toLowerCase()).not.toContain('sealed');
      expect(await merchantCount()).toBe(before + 1);

      const token = await tokenFor(data.client_id, data.client_secret);
      expect(token.status).toBe(200);
      expect(token.body.data.token_type).toBe('Bearer');
      const me = await request(app.url, 'GET', '/v1/merchant', { token: token.body.data.access_token });
      expect(me.status).toBe(200);
      expect(me.body.data.merchant_id).toBe(data.merchant_id);

      const wrong = await tokenFor(data.client_id, `${data.client_secret}x`);
      expect(wrong.status).toBe(401);
      expect(wrong.body.code).toBe('INVALID_CLIENT');
    });

    it('gives every merchant distinct credentials', async () => {
      const a = await createViaAdmin('Twin');
      const b = await createViaAdmin('Twin');
      expect(a.merchant_id).not.toBe(b.merchant_id);
      expect(a.client_id).not.toBe(b.client_id);
      expect(a.client_secret).not.toBe(b.client_secret);
      expect(a.webhook_secret).not.toBe(b.webhook_secret);
    });

    it('trims the name', async () => {
      const created = await createViaAdmin('  Trimmed Co  ');
      expect(created.name).toBe('Trimmed Co');
    });

    it.each([
      ['no Authorization header', null],
      ['a wrong key', 'Bearer not-the-admin-key'],
      ['the key with a suffix', `Bearer ${TEST_ADMIN_KEY}x`],
      ['a prefix of the key', `Bearer ${TEST_ADMIN_KEY.slice(0, -1)}`],
      ['the key under another scheme', `Basic ${TEST_ADMIN_KEY}`],
      ['the bare key', TEST_ADMIN_KEY],
    ])('answers 401 INVALID_TOKEN for %s, and creates nothing', async (_label, authorization) => {
      const before = await merchantCount();
      const res = await admin({ name: 'Should Not Exist' }, authorization);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ status: 'error', code: 'INVALID_TOKEN', message: expect.any(String) });
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
      expect(res.text).not.toContain(TEST_ADMIN_KEY);
      expect(await merchantCount()).toBe(before);
    });

    it("refuses a merchant's access token as the admin key", async () => {
      const m = await createViaAdmin('Not An Admin');
      const accessToken = await accessTokenFor(m);
      const before = await merchantCount();
      const res = await admin({ name: 'Escalation' }, `Bearer ${accessToken}`);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('INVALID_TOKEN');
      expect(await merchantCount()).toBe(before);
    });

    it.each([
      ['a missing name', {}],
      ['an empty name', { name: '' }],
      ['a blank name', { name: '   ' }],
      ['a numeric name', { name: 42 }],
      ['a null name', { name: null }],
      ['an object name', { name: { first: 'Acme' } }],
      ['an overlong name', { name: 'x'.repeat(201) }],
    ])('answers 400 INVALID_REQUEST naming `name` for %s, and creates nothing', async (_label, body) => {
      const before = await merchantCount();
      const res = await admin(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        status: 'error',
        code: 'INVALID_REQUEST',
        message: expect.any(String),
        details: expect.arrayContaining([{ field: 'name', issue: expect.any(String) }]),
      });
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await merchantCount()).toBe(before);
    });

    it('answers 400 INVALID_REQUEST for a body that is not an object, and creates nothing', async () => {
      const before = await merchantCount();
      for (const body of [['Acme'], 'Acme', 42]) {
        const res = await admin(body);
        expect(res.status).toBe(400);
        expect(res.body.status).toBe('error');
        expect(res.body.code).toBe('INVALID_REQUEST');
      }
      expect(await merchantCount()).toBe(before);
    });

    it('does not exist when ADMIN_API_KEY is unset: 404 NOT_FOUND, even with the usual key', async () => {
      const noAdmin = await createTestApp({ env: { ADMIN_API_KEY: '' } });
      try {
        const withKey = await request(noAdmin.url, 'POST', '/v1/admin/merchants', {
          body: { name: 'Acme' },
          headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` },
        });
        expect(withKey.status).toBe(404);
        expect(withKey.body).toEqual({ status: 'error', code: 'NOT_FOUND', message: expect.any(String) });
        const withoutKey = await request(noAdmin.url, 'POST', '/v1/admin/merchants', { body: { name: 'Acme' } });
        expect(withoutKey.status).toBe(404);
        expect(withoutKey.body.code).toBe('NOT_FOUND');
        const rows = await noAdmin.service.orm.em.fork().execute(`select count(*)::int as n from merchant where name = 'Acme'`);
        expect(rows[0].n).toBe(0);
      } finally {
        await noAdmin.close();
      }
    });
  });

  describe('GET /v1/merchant', () => {
    it('returns the profile and never a secret or a hash', async () => {
      const created = await createViaAdmin('Profile Co');
      const accessToken = await accessTokenFor(created);
      const res = await request(app.url, 'GET', '/v1/merchant', { token: accessToken });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        status: 'success',
        message: expect.any(String),
        data: {
          merchant_id: created.merchant_id,
          name: 'Profile Co',
          client_id: created.client_id,
          webhook_url: null,
          webhook_event_types: [...DEFAULT_EVENT_TYPES],
          webhook_secret_overlap_until: null,
          created_at: created.created_at,
          updated_at: expect.stringMatching(ISO),
        },
      });

      const [row] = await sql(
        'select k.client_secret_hash, m.webhook_secret_sealed from merchant m join api_key k on k.client_id = m.client_id where m.id = ?',
        [created.merchant_id],
      );
      const text = res.text;
      expect(text).not.toContain(created.client_secret);
      expect(text).not.toContain(created.webhook_secret);
      expect(text).not.toContain(created.webhook_secret.slice('whsec_'.length));
      expect(text).not.toContain(row.client_secret_hash);
      expect(text).not.toContain(row.webhook_secret_sealed);
      expect(text.toLowerCase()).not.toContain('hash');
      expect(text.toLowerCase()).not.toContain('sealed');
    });

    it('shows each merchant only itself', async () => {
      const first = await createViaAdmin('First Co');
      const second = await createViaAdmin('Second Co');
      const [firstToken, secondToken] = await Promise.all([accessTokenFor(first), accessTokenFor(second)]);

      const [a, b] = await Promise.all([
        request(app.url, 'GET', '/v1/merchant', { token: firstToken }),
        request(app.url, 'GET', '/v1/merchant', { token: secondToken }),
      ]);
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      expect(a.body.data).toMatchObject({ merchant_id: first.merchant_id, name: 'First Co', client_id: first.client_id });
      expect(b.body.data).toMatchObject({ merchant_id: second.merchant_id, name: 'Second Co', client_id: second.client_id });
      expect(a.text).not.toContain(second.merchant_id);
      expect(b.text).not.toContain(first.merchant_id);
    });
  });

  describe('credential storage', () => {
    it('stores the client secret only as its SHA-256 and the webhook secret only sealed', async () => {
      const created = await createViaAdmin('Storage Co');
      const rows = await sql('select m.*, k.client_secret_hash from merchant m join api_key k on k.client_id = m.client_id');
      const mine = rows.filter((r: Record<string, unknown>) => r.id === created.merchant_id);
      expect(mine).toHaveLength(1);
      const row = mine[0];
      expect(row.client_secret_hash).toBe(sha256Hex(created.client_secret));
      expect(row.webhook_secret_sealed).toEqual(expect.any(String));

      const webhookKey = created.webhook_secret.slice('whsec_'.length);
      for (const r of rows) {
        for (const value of Object.values(r as Record<string, unknown>)) {
          if (value === null || value === undefined) continue;
          const s = value instanceof Date ? value.toISOString() : String(value);
          expect(s).not.toBe(created.client_secret);
          expect(s).not.toBe(created.webhook_secret);
          expect(s).not.toContain(created.client_secret);
          expect(s).not.toContain(webhookKey);
        }
      }
      // Nothing else in the schema holds the plaintext either.
      const columns = await sql(
        `select table_name, column_name from information_schema.columns
          where table_schema = 'public' and data_type in ('text', 'character varying')`,
      );
      for (const { table_name: table, column_name: column } of columns) {
        const hits = await sql(`select count(*)::int as n from "${table}" where strpos("${column}", ?) > 0 or strpos("${column}", ?) > 0`, [
          created.client_secret,
          webhookKey,
        ]);
        expect({ table, column, n: hits[0].n }).toEqual({ table, column, n: 0 });
      }
    });
  });

  describe('sandbox demo merchant', () => {
    const bannerJson = (banner: string) => JSON.parse(banner.slice(banner.indexOf('{'), banner.lastIndexOf('}') + 1));

    it('is created once on a fresh database, printed once, and its credentials work', async () => {
      expect(app.printed).toHaveLength(1);
      const banner = app.printed[0]!;
      const demo = bannerJson(banner);
      expect(demo).toMatchObject({
        merchant_id: expect.stringMatching(UUID),
        name: 'Demo Merchant',
        client_id: expect.stringMatching(/^ci_/),
        client_secret: expect.stringMatching(/^sk_/),
        webhook_secret: expect.stringMatching(WEBHOOK_SECRET),
      });
      expect(banner.match(/"client_secret"/g)).toHaveLength(1);

      const accessToken = await accessTokenFor(demo);
      const me = await request(app.url, 'GET', '/v1/merchant', { token: accessToken });
      expect(me.status).toBe(200);
      expect(me.body.data).toMatchObject({ merchant_id: demo.merchant_id, name: 'Demo Merchant', client_id: demo.client_id });

      const [row] = await sql('select k.client_secret_hash from merchant m join api_key k on k.client_id = m.client_id where m.id = ?', [demo.merchant_id]);
      expect(row.client_secret_hash).toBe(sha256Hex(demo.client_secret));
    });

    it('is not created again by a second instance on the same database', async () => {
      const before = await merchantCount();
      const second = await createTestApp({ database: app.db });
      try {
        expect(second.printed).toEqual([]);
        const demos = await sql(`select id from merchant where name = 'Demo Merchant'`);
        expect(demos).toHaveLength(1);
        expect(await merchantCount()).toBe(before);

        // The second instance serves the same merchants: the first demo merchant's credentials work there.
        const demo = bannerJson(app.printed[0]!);
        const token = await request(second.url, 'POST', '/v1/oauth/token', {
          body: { grant_type: 'client_credentials', client_id: demo.client_id, client_secret: demo.client_secret },
        });
        expect(token.status).toBe(200);
      } finally {
        await second.close();
      }
      // The first instance is unaffected by the second one closing.
      expect((await request(app.url, 'GET', '/health')).status).toBe(200);
    });

    it('is created exactly once when two instances start together on an empty database', async () => {
      const db = await createTestDatabase();
      try {
        const started = await Promise.allSettled([createTestApp({ database: db }), createTestApp({ database: db })]);
        const apps = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
        try {
          expect(started.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled']);
          expect(apps.flatMap((a) => a.printed)).toHaveLength(1);
          const rows = await apps[0]!.service.orm.em.fork().execute(`select name from merchant`);
          expect(rows).toEqual([{ name: 'Demo Merchant' }]);
        } finally {
          for (const a of apps.reverse()) await a.close();
        }
      } finally {
        await db.drop();
      }
    });
  });
});
