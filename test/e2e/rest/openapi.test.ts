import { spawn } from 'node:child_process';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import type { FastifyInstance } from 'fastify';
import { buildOpenApiDocument } from '../../../src/transport/rest/openapi/build-document';
import { responseComponents } from '../../../src/transport/rest/openapi/components';
import { launchBrowser } from '../../helpers/browser';
import { approvedCustomer, enroll } from '../../helpers/factories';
import { request, type HttpResult } from '../../helpers/http';
import { createTestApp, TEST_ADMIN_KEY, type TestApp } from '../../helpers/test-app';
import { permits, type Permission } from '../../../src/modules/access/permissions';
import { personOf } from '../../helpers/people';
import { bankCollectionBody, newReference } from '../../helpers/transactions';

/**
 * GET /v1/openapi.json and GET /v1/docs: the document passes the standard
 * OpenAPI 3.1 validator, names exactly the routes Fastify registered (sandbox
 * and production: it is generated from them, so this holds by construction, and
 * checks the generation), its request schemas are the ones the services enforce, and
 * real answers have the documented shapes. The docs page renders in Chromium
 * with nothing but its own origin.
 */

type Doc = { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, any> }; [key: string]: any };
type Route = `${string} ${string}`; // "GET /v1/customer/:uuid"

const ROOT = path.resolve(__dirname, '../../..');
/** Routes that are not API: the docs page's static files. */
const NOT_DOCUMENTED = new Set<Route>(['GET /v1/docs/assets/:file']);

/** @seriousme/openapi-schema-validator is ESM only, which jest's CommonJS runtime cannot load: it runs in a plain node. */
async function validateWithStandardValidator(docs: unknown[]): Promise<Array<{ valid: boolean; errors: unknown }>> {
  const script = `
    import { Validator } from '@seriousme/openapi-schema-validator';
    let input = '';
    for await (const chunk of process.stdin) input += chunk;
    const results = [];
    for (const doc of JSON.parse(input)) {
      const { valid, errors } = await new Validator().validate(doc);
      results.push({ valid, errors: errors ?? null });
    }
    process.stdout.write(JSON.stringify(results));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  child.stdin.end(JSON.stringify(docs));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`validator exited ${code}: ${err}`);
  return JSON.parse(out);
}

/** Every route Fastify registered, from its route tree, each confirmed with hasRoute. */
function registeredV1Routes(fastify: FastifyInstance): Set<Route> {
  const routes = new Set<Route>();
  const stack: string[] = [];
  for (const line of fastify.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^((?:│ {3}| {4})*)(?:├── |└── )(.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    const parent = stack[depth - 1] ?? '';
    // A wildcard child is printed as `*` under its parent (`/dashboard` → `*` is `/dashboard/*`).
    const url = parent + (m[2] === '*' && !parent.endsWith('/') ? '/*' : m[2]!);
    stack.length = depth;
    stack.push(url);
    for (const method of m[3]?.split(', ') ?? []) {
      expect(fastify.hasRoute({ method: method as 'GET', url })).toBe(true); // the tree was read right
      if (url.startsWith('/v1/') && method !== 'HEAD' && method !== 'OPTIONS') routes.add(`${method} ${url}`);
    }
  }
  for (const route of NOT_DOCUMENTED) routes.delete(route);
  return routes;
}

const documentedRoutes = (doc: Doc) =>
  new Set<Route>(
    Object.entries(doc.paths).flatMap(([p, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${p.replace(/\{(\w+)\}/g, ':$1')}` as Route)),
  );

/** Both directions, with a failure that says what to do. */
function expectSameRoutes(registered: Set<Route>, documented: Set<Route>) {
  const fix = {
    'registered but not documented: describe it with operation(…) where it is registered (src/transport/rest/openapi/operation.ts)': [...registered].filter(
      (r) => !documented.has(r),
    ),
    'documented but not registered (the document is generated from the routes: this is a bug in document.ts)': [...documented].filter(
      (r) => !registered.has(r),
    ),
  };
  expect(fix).toEqual(Object.fromEntries(Object.keys(fix).map((k) => [k, []])));
}

const pointer = (...segments: string[]) => segments.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** JSON Schema validation against the document's own schemas; `strictAnswers`: no field beyond the documented ones. */
function schemaChecker(doc: Doc, { strictAnswers = false } = {}) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  const schemas = strictAnswers ? { ...doc.components.schemas, ...responseComponents({ strict: true }) } : doc.components.schemas;
  ajv.addSchema({ ...doc, $id: 'openapi.json', components: { ...doc.components, schemas } });
  return (at: string[], value: unknown) => {
    const validate = ajv.compile({ $ref: `openapi.json#/${pointer(...at)}` });
    return validate(value) ? null : validate.errors;
  };
}

describe('OpenAPI document and docs page (sandbox)', () => {
  let app: TestApp;
  let doc: Doc;
  let token: string;
  /** The merchant owner's session: for what an API key may not do (its x-permission). */
  let ownerToken: string;
  let credentials: { clientId: string; clientSecret: string };

  beforeAll(async () => {
    app = await createTestApp();
    const merchant = await app.createMerchant('OpenAPI Merchant');
    credentials = { clientId: merchant.merchant.clientId, clientSecret: merchant.clientSecret };
    token = (await app.token(merchant)).accessToken;
    ownerToken = (await personOf(app, merchant.merchant.id, 'owner')).token;
    doc = (await request(app.url, 'GET', '/v1/openapi.json')).body;
  });
  afterAll(() => app?.close());

  /** Calls a documented operation with the credentials its `security` names. */
  function call(method: string, route: string, opts: { body?: unknown; query?: string; params?: Record<string, string> } = {}) {
    const op = doc.paths[route]![method]!;
    const schemes = (op.security as Array<Record<string, unknown>>).flatMap((s) => Object.keys(s));
    const permission = op['x-permission'] as string | undefined;
    const keyMay = permission === undefined || permission === 'signed_in' || permits({ role: 'developer', kind: 'api_key' }, permission as Permission);
    const auth = schemes.includes('adminApiKey') ? TEST_ADMIN_KEY : schemes.includes('bearerToken') ? (keyMay ? token : ownerToken) : undefined;
    const url = route.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(opts.params?.[name] ?? 'none')) + (opts.query ? `?${opts.query}` : '');
    return request(app.url, method.toUpperCase(), url, { body: opts.body, token: auth });
  }

  test('is served as JSON, public and cacheable, and is the document this configuration builds', async () => {
    const res = await request(app.url, 'GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.body).toEqual(await buildOpenApiDocument({ env: 'sandbox', adminApiKey: TEST_ADMIN_KEY }));
    expect(res.body).toMatchObject({
      openapi: '3.1.0',
      jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base', // draft 2020-12 with OpenAPI's vocabulary
      info: { title: expect.any(String), version: require('../../../package.json').version },
      servers: [{ url: '/' }],
    });
  });

  test('passes the standard OpenAPI 3.1 validator (sandbox and production), which does refuse a broken one', async () => {
    const broken = structuredClone(doc);
    delete broken.paths['/v1/merchant']!.get.responses['200'].description;
    const [sandbox, production, withoutAdmin, refused] = await validateWithStandardValidator([
      doc,
      await buildOpenApiDocument({ env: 'production', adminApiKey: 'key' }),
      await buildOpenApiDocument({ env: 'production' }),
      broken,
    ]);
    expect(sandbox).toEqual({ valid: true, errors: null });
    expect(production).toEqual({ valid: true, errors: null });
    expect(withoutAdmin).toEqual({ valid: true, errors: null });
    expect(refused!.valid).toBe(false);
  });

  test('names every route registered under /v1, and only those', () => {
    const registered = registeredV1Routes(app.service.app.fastify);
    const documented = documentedRoutes(doc);
    expectSameRoutes(registered, documented);
    expect(registered.size).toBeGreaterThan(20);
  });

  test('marks the sandbox-only operations, and the production document leaves them out', async () => {
    const sandboxOnly = [...documentedRoutes(doc)].filter((r) => {
      const [method, route] = r.split(' ') as [string, string];
      return doc.paths[route.replace(/:(\w+)/g, '{$1}')]![method.toLowerCase()]['x-sandbox-only'] === true;
    });
    expect(sandboxOnly.sort()).toEqual([
      'GET /v1/sandbox/3ds/:handle',
      'POST /v1/sandbox/3ds/:handle',
      'POST /v1/sandbox/balance/top-up',
      'POST /v1/sandbox/transactions/:reference/simulate',
    ]);
    expect(doc.paths['/v1/sandbox/3ds/{handle}']!.get.responses['200'].content).toHaveProperty('text/html');
    const production = (await buildOpenApiDocument({ env: 'production', adminApiKey: 'key' })) as unknown as Doc;
    const operations = Object.values(production.paths).flatMap((item) => Object.values(item));
    expect(operations.filter((op) => 'x-sandbox-only' in op)).toEqual([]);
    expect(production.tags.map((t: { name: string }) => t.name)).not.toContain('Sandbox');
    expect(Object.keys(production.paths).filter((p) => p.startsWith('/v1/sandbox/'))).toEqual([]);
    expect(production.paths).toHaveProperty(['/v1/admin/merchants']);
    expect((await buildOpenApiDocument({ env: 'production' })).paths).not.toHaveProperty(['/v1/admin/merchants']);
  });

  test("the Transaction union's discriminator maps every kind to its component, by its own `type` value", () => {
    const transaction = doc.components.schemas.Transaction;
    const members = (transaction.oneOf as Array<{ $ref: string }>).map((m) => m.$ref);
    const typeOf = (ref: string) => doc.components.schemas[ref.split('/').pop()!].properties.type.const;
    expect(transaction.discriminator.propertyName).toBe('type');
    expect(Object.values(transaction.discriminator.mapping).sort()).toEqual([...members].sort());
    for (const [type, ref] of Object.entries(transaction.discriminator.mapping as Record<string, string>)) expect([type, typeOf(ref)]).toEqual([type, type]);
    expect(Object.keys(transaction.discriminator.mapping).sort()).toEqual(['collection', 'funding', 'payment', 'payout', 'refund', 'transfer']);
  });

  test('every example in the document is valid against the schema beside it', () => {
    const check = schemaChecker(doc);
    let examples = 0;
    for (const [route, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const media = [
          ['requestBody', op.requestBody?.content?.['application/json']] as const,
          ...Object.entries(op.responses as Record<string, any>).map(([status, r]) => [`responses/${status}`, r.content?.['application/json']] as const),
        ];
        for (const [where, content] of media) {
          if (!content?.schema) continue;
          const at = ['paths', route, method, ...where.split('/'), 'content', 'application/json', 'schema'];
          const values = [...(content.example !== undefined ? [content.example] : []), ...Object.values(content.examples ?? {}).map((e: any) => e.value)];
          for (const value of values) {
            examples += 1;
            expect({ route, method, where, errors: check(at, value) }).toEqual({ route, method, where, errors: null });
          }
        }
      }
    }
    expect(examples).toBeGreaterThan(50);
  });

  test('request bodies: each documented example is valid, and without any one required field the API answers 400 naming it', async () => {
    const check = schemaChecker(doc);
    const customer = await enroll(app, token);
    let bodies = 0;
    for (const [route, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const media = op.requestBody?.content?.['application/json'];
        if (!media) continue;
        bodies += 1;
        const name = (media.schema.$ref as string).split('/').pop()!;
        const schemaAt = ['components', 'schemas', name];
        expect({ route, method, errors: check(schemaAt, media.example) }).toEqual({ route, method, errors: null });
        for (const field of (doc.components.schemas[name].required ?? []) as string[]) {
          const { [field]: _removed, ...body } = media.example;
          expect({ route, field, invalid: check(schemaAt, body) !== null }).toEqual({ route, field, invalid: true });
          // The operator API takes the admin key and its own ids: test/e2e/kyc/review.test.ts sends it real bodies.
          if ((op.security as Array<Record<string, unknown>>).some((s) => 'adminApiKey' in s)) continue;
          const res = await call(method, route, { body, params: { uuid: customer.customer_uuid } });
          expect({ route, field, status: res.status, code: res.body?.code }).toEqual({ route, field, status: 400, code: 'INVALID_REQUEST' });
          expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
          expect(check(['paths', route, method, 'responses', '400', 'content', 'application/json', 'schema'], res.body)).toBeNull();
        }
      }
    }
    expect(bodies).toBeGreaterThanOrEqual(10);
  });

  test('the documented examples succeed, and every answer has its documented shape, field for field', async () => {
    const check = schemaChecker(doc, { strictAnswers: true });
    const expectDocumented = async (method: string, route: string, res: Promise<HttpResult> | HttpResult, status = 200) => {
      const answer = await res;
      expect({ method, route, status: answer.status }).toEqual({ method, route, status });
      const errors = check(['paths', route, method, 'responses', String(status), 'content', 'application/json', 'schema'], answer.body);
      expect({ method, route, errors }).toEqual({ method, route, errors: null });
      return answer.body.data;
    };
    const example = (method: string, route: string, overrides: Record<string, unknown> = {}) => ({
      ...doc.paths[route]![method].requestBody.content['application/json'].example,
      ...overrides,
    });
    const send = (method: string, route: string, overrides: Record<string, unknown> = {}, params?: Record<string, string>) =>
      call(method, route, { body: example(method, route, overrides), params });

    const created = await expectDocumented('post', '/v1/admin/merchants', send('post', '/v1/admin/merchants'), 201);
    const merchantId = { merchantId: created.merchant_id };
    await expectDocumented(
      'post',
      '/v1/admin/merchants/{merchantId}/disable',
      call('post', '/v1/admin/merchants/{merchantId}/disable', { params: merchantId }),
    );
    await expectDocumented('post', '/v1/admin/merchants/{merchantId}/enable', call('post', '/v1/admin/merchants/{merchantId}/enable', { params: merchantId }));
    const grant = await expectDocumented(
      'post',
      '/v1/oauth/token',
      send('post', '/v1/oauth/token', { client_id: credentials.clientId, client_secret: credentials.clientSecret }),
    );
    await expectDocumented('post', '/v1/oauth/revoke', send('post', '/v1/oauth/revoke', { token: grant.refresh_token })); // its own family, not the test's
    await expectDocumented('get', '/v1/merchant', call('get', '/v1/merchant'));
    await expectDocumented('get', '/v1/crossborder/countries', call('get', '/v1/crossborder/countries'));
    await expectDocumented('get', '/v1/crossborder/channels', call('get', '/v1/crossborder/channels', { query: 'country_code=ke&ramptype=Deposit' }));
    await expectDocumented('get', '/v1/crossborder/networks', call('get', '/v1/crossborder/networks', { query: 'country_code=KE&channel=momo' }));
    await expectDocumented(
      'get',
      '/v1/crossborder/rates',
      call('get', '/v1/crossborder/rates', { query: 'source_currency=USD&destination_currency=KES&amount=100' }),
    );

    const enrolled = await expectDocumented('post', '/v1/customer/enroll', send('post', '/v1/customer/enroll'), 201);
    const uuid = { uuid: enrolled.customer_uuid };
    await expectDocumented('post', '/v1/customer/{uuid}/kyc', send('post', '/v1/customer/{uuid}/kyc', {}, uuid));
    await expectDocumented('get', '/v1/customer/{uuid}/kyc', call('get', '/v1/customer/{uuid}/kyc', { params: uuid }));
    await expectDocumented('get', '/v1/customer/{uuid}', call('get', '/v1/customer/{uuid}', { params: uuid }));
    await expectDocumented('get', '/v1/customers', call('get', '/v1/customers', { query: 'limit=1' }));
    const [pending] = await expectDocumented('get', '/v1/admin/kyc/pending', call('get', '/v1/admin/kyc/pending', { query: 'limit=1' }));
    if (pending) {
      const submissionId = { submissionId: pending.submission_id };
      await expectDocumented('get', '/v1/admin/kyc/{submissionId}', call('get', '/v1/admin/kyc/{submissionId}', { params: submissionId }));
    }

    const payer = (await approvedCustomer(app, token)).customer_uuid;
    const collection = await expectDocumented(
      'post',
      '/v1/crossborder/global-collection',
      send('post', '/v1/crossborder/global-collection', { customer_uuid: payer }),
    );
    const transfer = await expectDocumented(
      'post',
      '/v1/crossborder/global-transfer',
      send('post', '/v1/crossborder/global-transfer', { customer_uuid: payer }),
    );
    const payment = await expectDocumented('post', '/v1/payments/initiate', send('post', '/v1/payments/initiate'));
    for (const { reference } of [collection, transfer, payment]) {
      await expectDocumented(
        'get',
        '/v1/crossborder/global-transfer/{reference}',
        call('get', '/v1/crossborder/global-transfer/{reference}', { params: { reference } }),
      );
    }
    await expectDocumented(
      'get',
      '/v1/payments/verify/{reference}',
      call('get', '/v1/payments/verify/{reference}', { params: { reference: payment.reference } }),
    );
    const bank = await request(app.url, 'POST', '/v1/crossborder/global-collection', {
      token,
      body: bankCollectionBody(payer, { reference: newReference('oa') }),
    });
    expect(check(['components', 'schemas', 'CollectionInitiation'], bank.body.data)).toBeNull(); // with bankInfo
    await expectDocumented(
      'post',
      '/v1/sandbox/transactions/{reference}/simulate',
      send('post', '/v1/sandbox/transactions/{reference}/simulate', {}, { reference: bank.body.data.reference }),
    );

    // Loopback: the sandbox allows it, and nothing leaves the machine.
    await expectDocumented('put', '/v1/webhooks/endpoint', send('put', '/v1/webhooks/endpoint', { url: 'http://127.0.0.1:9/hooks' }));
    await expectDocumented('post', '/v1/webhooks/secret/rotate', call('post', '/v1/webhooks/secret/rotate'));
    const [event] = await expectDocumented('get', '/v1/webhooks/events', call('get', '/v1/webhooks/events', { query: 'limit=5' }));
    expect(event).toBeDefined(); // the KYC approval's
    await expectDocumented('get', '/v1/webhooks/events/{id}', call('get', '/v1/webhooks/events/{id}', { params: { id: event.id } }));
    await expectDocumented('post', '/v1/webhooks/events/{id}/resend', call('post', '/v1/webhooks/events/{id}/resend', { params: { id: event.id } }));
  });

  test('/v1/docs is an HTML page naming every operation, with strict security headers and its assets served', async () => {
    const res = await request(app.url, 'GET', '/v1/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/unsafe-|https?:/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    for (const item of Object.values(doc.paths)) {
      for (const op of Object.values(item)) expect(res.text).toContain(op.summary);
    }
    const assets = [...res.text.matchAll(/(?:src|href)="(docs\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBe(4);
    for (const asset of assets) {
      const file = await fetch(`${app.url}/v1/${asset}`, { headers: { 'accept-encoding': 'gzip' } });
      expect({ asset, status: file.status }).toEqual({ asset, status: 200 });
      expect(file.headers.get('content-encoding')).toBe('gzip');
      expect(file.headers.get('x-content-type-options')).toBe('nosniff');
      expect((await file.arrayBuffer()).byteLength).toBeGreaterThan(100);
    }
    expect((await request(app.url, 'GET', '/v1/docs/assets/package.json')).status).toBe(404);
    expect((await request(app.url, 'GET', '/v1/docs/assets/..%2Fpackage.json')).status).toBe(404);
  });

  test('in Chromium, the docs page renders every operation from its own origin only, with no CSP violation', async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      page.on('request', (r) => !r.url().startsWith(`${app.url}/`) && problems.push(`off-origin request: ${r.url()}`));
      page.on('requestfailed', (r) => problems.push(`failed: ${r.url()}`));
      await page.goto(`${app.url}/v1/docs`);
      const summaries = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.summary as string));
      await page
        .locator('.opblock-summary-description')
        .nth(summaries.length - 1)
        .waitFor();
      const shown = await page.$$eval('.opblock-summary-description', (els) => els.map((e) => e.textContent));
      expect(shown.sort()).toEqual(summaries.sort());
      expect(await page.title()).toContain('Payments Gateway API');
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  test('in Chromium, Authorize (client credentials) logs in, and "Try it out" then sends the token and gets 200', async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const sent: Array<{ path: string; authorization: string | undefined }> = [];
      page.on('request', (r) => sent.push({ path: new URL(r.url()).pathname, authorization: r.headers()['authorization'] }));
      await page.goto(`${app.url}/v1/docs`);
      await page.locator('.auth-wrapper .authorize').click();
      const oauth = page.locator('.auth-container', { hasText: 'oauth2 (OAuth2, clientCredentials)' });
      await oauth.locator('#client_id_clientCredentials').fill(credentials.clientId);
      await oauth.locator('#client_secret_clientCredentials').fill(credentials.clientSecret);
      await oauth.locator('button.authorize').click();
      // Logged in: Swagger UI says so and offers to log out, and shows no error.
      await oauth.locator('button', { hasText: 'Logout' }).waitFor();
      expect(await oauth.innerText()).toContain('Authorized');
      expect(await oauth.locator('.errors').count()).toBe(0);
      await page.locator('.modal-ux .close-modal').click();

      const balances = page.locator('.opblock-get', { has: page.locator('.opblock-summary-path[data-path="/v1/balances"]') });
      await balances.locator('.opblock-summary').click();
      await balances.locator('.try-out__btn').click();
      await balances.locator('.execute').click();
      const status = balances.locator('.live-responses-table tbody .response-col_status').first();
      await status.waitFor();
      expect((await status.textContent())?.trim()).toBe('200');
      const call = sent.find((r) => r.path === '/v1/balances');
      expect(call?.authorization).toMatch(/^Bearer [A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    } finally {
      await browser.close();
    }
  });
});

describe('OpenAPI document (production)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ env: { PAYMENTS_ENV: 'production', ADMIN_API_KEY: '' } });
  });
  afterAll(() => app?.close());

  test('names every route a production service registers, and only those', async () => {
    const res = await request(app.url, 'GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(await buildOpenApiDocument({ env: 'production' }));
    const registered = registeredV1Routes(app.service.app.fastify);
    const documented = documentedRoutes(res.body);
    expectSameRoutes(registered, documented);
    expect([...documented].filter((r) => r.includes('/sandbox/') || r.includes('/admin/'))).toEqual([]);
  });
});
