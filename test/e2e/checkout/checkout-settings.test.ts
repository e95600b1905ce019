import { createHash } from 'node:crypto';
import { openSession } from '../../helpers/checkout';
import { graphql, request } from '../../helpers/http';
import { personOf, type TestPerson } from '../../helpers/people';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { sql } from '../../helpers/transactions';

/** A 1×1 PNG and a tiny JPEG header: what the service checks is their content. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * Issue 37: the hosted checkout page's logo and the origins that may frame it, over REST and GraphQL. The logo is the
 * image itself, checked by its content and served by the service from its own origin: the page makes no request
 * anywhere else (docs/checkout.md, "The merchant's logo").
 */
describe('checkout settings', () => {
  let app: TestApp;
  let owner: TestPerson;
  let viewer: TestPerson;
  let otherOwner: TestPerson;

  beforeAll(async () => {
    app = await createTestApp();
    const mine = await app.createMerchant('Branded Shop');
    const theirs = await app.createMerchant('Other Shop');
    owner = await personOf(app, mine.merchant.id, 'owner');
    viewer = await personOf(app, mine.merchant.id, 'viewer');
    otherOwner = await personOf(app, theirs.merchant.id, 'owner');
  });
  afterAll(() => app.close());

  const put = (token: string, body: unknown) => request(app.url, 'PUT', '/v1/checkout/settings', { token, body });
  const logoUrl = (bytes: Buffer) => `${app.url}/checkout/logos/${sha256(bytes)}`;

  it('starts with no logo and no embedding; an uploaded logo is stored, served from our origin, audited once; another merchant is untouched', async () => {
    expect((await request(app.url, 'GET', '/v1/checkout/settings', { token: owner.token })).body.data).toEqual({ logo_url: null, embed_origins: [] });
    const res = await put(owner.token, { logo: PNG.toString('base64'), embed_origins: ['https://shop.example', 'https://shop.example'] });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ logo_url: logoUrl(PNG), embed_origins: ['https://shop.example'] });
    expect((await request(app.url, 'GET', '/v1/checkout/settings', { token: viewer.token })).body.data.logo_url).toBe(logoUrl(PNG));

    // Served by the service: the same bytes, an image and nothing else, cached for good (its address is its digest).
    const served = await fetch(logoUrl(PNG));
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
    expect(
      Object.fromEntries(['content-type', 'cache-control', 'x-content-type-options', 'content-security-policy'].map((h) => [h, served.headers.get(h)])),
    ).toEqual({
      'content-type': 'image/png',
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
    });
    expect((await fetch(logoUrl(PNG), { headers: { 'if-none-match': `"${sha256(PNG)}"` } })).status).toBe(304);

    // The same again changes nothing, and writes no second entry.
    await put(owner.token, { logo: PNG.toString('base64') });
    const audit = await request(app.url, 'GET', '/v1/audit-logs?action=checkout.settings_changed', { token: owner.token });
    expect(audit.body.data).toHaveLength(1);
    expect(audit.body.data[0]).toMatchObject({
      before: { logo_sha256: null, embed_origins: [] },
      after: { logo_sha256: sha256(PNG), embed_origins: ['https://shop.example'] },
    });
    expect((await request(app.url, 'GET', '/v1/checkout/settings', { token: otherOwner.token })).body.data).toEqual({ logo_url: null, embed_origins: [] });
  });

  it('the checkout page shows the logo from our own origin, and its CSP allows images from nowhere else', async () => {
    const session = await openSession(app, owner.token);
    const page = await fetch(session.url);
    const html = await page.text();
    expect(html).toContain(`<img class="logo" src="/checkout/logos/${sha256(PNG)}" alt="" width="40" height="40">`);
    const imgSrc = page.headers
      .get('content-security-policy')!
      .split(';')
      .map((d) => d.trim())
      .find((d) => d.startsWith('img-src'));
    expect(imgSrc).toBe("img-src 'self' data:");
  });

  it('a new logo replaces the old one (whose address then answers 404); null removes it', async () => {
    const replaced = await put(owner.token, { logo: JPEG.toString('base64') });
    expect(replaced.body.data.logo_url).toBe(logoUrl(JPEG));
    expect((await fetch(logoUrl(JPEG))).headers.get('content-type')).toBe('image/jpeg');
    expect((await fetch(logoUrl(PNG))).status).toBe(404);
    const removed = await put(owner.token, { logo: null });
    expect(removed.body.data).toEqual({ logo_url: null, embed_origins: ['https://shop.example'] });
    expect(await sql(app, 'select merchant_id from checkout_logo')).toEqual([]);
    const session = await openSession(app, owner.token);
    expect(await (await fetch(session.url)).text()).not.toContain('<img');
    // Put back for the tests after.
    expect((await put(owner.token, { logo: PNG.toString('base64') })).status).toBe(200);
  });

  it('a viewer reads but cannot change them', async () => {
    expect((await request(app.url, 'GET', '/v1/checkout/settings', { token: viewer.token })).status).toBe(200);
    const res = await put(viewer.token, { logo: null });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('FORBIDDEN');
  });

  const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
  const tooLarge = Buffer.concat([PNG, Buffer.alloc(50 * 1024)]);
  it.each([
    ['an address instead of the image (the old logo_url)', { logo_url: 'https://shop.example/logo.png' }, 'logo_url'],
    ['an SVG (it can carry script)', { logo: svg.toString('base64') }, 'logo'],
    ['a GIF', { logo: Buffer.from('GIF89a\x01\x00\x01\x00').toString('base64') }, 'logo'],
    ['a PDF', { logo: Buffer.from('%PDF-1.7\n').toString('base64') }, 'logo'],
    ['text that is not base64', { logo: 'not base64!' }, 'logo'],
    ['an empty logo', { logo: '' }, 'logo'],
    ['a PNG over 50 KB', { logo: tooLarge.toString('base64') }, 'logo'],
    ['a logo as a number', { logo: 42 }, 'logo'],
    ['an origin with a path', { embed_origins: ['https://shop.example/checkout'] }, 'embed_origins.0'],
    ['an http origin that is not local', { embed_origins: ['http://shop.example'] }, 'embed_origins.0'],
    ['a wildcard origin', { embed_origins: ['*'] }, 'embed_origins.0'],
    ['eleven origins', { embed_origins: Array.from({ length: 11 }, (_, i) => `https://s${i}.example`) }, 'embed_origins'],
    ['origins as a string', { embed_origins: 'https://shop.example' }, 'embed_origins'],
  ])('%s is 400 naming the field, and changes nothing', async (_name, body, field) => {
    const res = await put(owner.token, body);
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual(expect.arrayContaining([{ field, issue: expect.any(String) }]));
    expect((await request(app.url, 'GET', '/v1/checkout/settings', { token: owner.token })).body.data.logo_url).toBe(logoUrl(PNG));
  });

  it('a logo nobody has, or a name that is not a digest, is 404', async () => {
    expect((await fetch(`${app.url}/checkout/logos/${'0'.repeat(64)}`)).status).toBe(404);
    expect((await fetch(`${app.url}/checkout/logos/..%2F..%2Fv1%2Fmerchant`)).status).toBe(404);
    expect((await fetch(`${app.url}/checkout/logos/${sha256(PNG).toUpperCase()}`)).status).toBe(404);
  });

  it('GraphQL reads and changes the same settings; null clears one', async () => {
    const res = await graphql(
      app.url,
      `
        mutation ($logo: String) {
          updateCheckoutSettings(input: { logo: $logo, embedOrigins: ["http://localhost:3000"] }) {
            logoUrl
            embedOrigins
          }
        }
      `,
      { token: owner.token, variables: { logo: JPEG.toString('base64') } },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.updateCheckoutSettings).toEqual({ logoUrl: logoUrl(JPEG), embedOrigins: ['http://localhost:3000'] });
    const svgRefused = await graphql(app.url, `mutation { updateCheckoutSettings(input: { logo: "${svg.toString('base64')}" }) { logoUrl } }`, {
      token: owner.token,
    });
    expect(svgRefused.body.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_REQUEST' });
    const cleared = await graphql(
      app.url,
      `
        mutation {
          updateCheckoutSettings(input: { logo: null }) {
            logoUrl
            embedOrigins
          }
        }
      `,
      { token: owner.token },
    );
    expect(cleared.body.data.updateCheckoutSettings).toEqual({ logoUrl: null, embedOrigins: ['http://localhost:3000'] });
    const read = await graphql(
      app.url,
      `
        {
          checkoutSettings {
            logoUrl
            embedOrigins
          }
        }
      `,
      { token: viewer.token },
    );
    expect(read.body.data.checkoutSettings).toEqual({ logoUrl: null, embedOrigins: ['http://localhost:3000'] });
  });
});
