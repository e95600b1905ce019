import { graphql, request } from '../../helpers/http';
import { personOf, type TestPerson } from '../../helpers/people';
import { createTestApp, type TestApp } from '../../helpers/test-app';

/** Issue 37: the hosted checkout page's logo and the origins that may frame it, over REST and GraphQL. */
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

  it('starts with no logo and no embedding; a change is saved, audited once, and another merchant is untouched', async () => {
    expect((await request(app.url, 'GET', '/v1/checkout/settings', { token: owner.token })).body.data).toEqual({ logo_url: null, embed_origins: [] });
    const res = await put(owner.token, { logo_url: 'https://shop.example/logo.png', embed_origins: ['https://shop.example', 'https://shop.example'] });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ logo_url: 'https://shop.example/logo.png', embed_origins: ['https://shop.example'] });
    // The same again changes nothing, and writes no second entry.
    await put(owner.token, { logo_url: 'https://shop.example/logo.png' });
    const audit = await request(app.url, 'GET', '/v1/audit-logs?action=checkout.settings_changed', { token: owner.token });
    expect(audit.body.data).toHaveLength(1);
    expect(audit.body.data[0]).toMatchObject({ after: { logo_url: 'https://shop.example/logo.png', embed_origins: ['https://shop.example'] } });
    expect((await request(app.url, 'GET', '/v1/checkout/settings', { token: otherOwner.token })).body.data).toEqual({ logo_url: null, embed_origins: [] });
  });

  it('a viewer reads but cannot change them', async () => {
    expect((await request(app.url, 'GET', '/v1/checkout/settings', { token: viewer.token })).status).toBe(200);
    const res = await put(viewer.token, { logo_url: null });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('FORBIDDEN');
  });

  it.each([
    ['an http logo', { logo_url: 'http://shop.example/logo.png' }, 'logo_url'],
    ['a logo with credentials', { logo_url: 'https://u:p@shop.example/logo.png' }, 'logo_url'],
    ['a logo as a number', { logo_url: 42 }, 'logo_url'],
    ['an origin with a path', { embed_origins: ['https://shop.example/checkout'] }, 'embed_origins.0'],
    ['an http origin that is not local', { embed_origins: ['http://shop.example'] }, 'embed_origins.0'],
    ['a wildcard origin', { embed_origins: ['*'] }, 'embed_origins.0'],
    ['eleven origins', { embed_origins: Array.from({ length: 11 }, (_, i) => `https://s${i}.example`) }, 'embed_origins'],
    ['origins as a string', { embed_origins: 'https://shop.example' }, 'embed_origins'],
  ])('%s is 400 naming the field', async (_name, body, field) => {
    const res = await put(owner.token, body);
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual(expect.arrayContaining([{ field, issue: expect.any(String) }]));
  });

  it('GraphQL reads and changes the same settings; null clears one', async () => {
    const res = await graphql(
      app.url,
      `
        mutation {
          updateCheckoutSettings(input: { logoUrl: null, embedOrigins: ["http://localhost:3000"] }) {
            logoUrl
            embedOrigins
          }
        }
      `,
      {
        token: owner.token,
      },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.updateCheckoutSettings).toEqual({ logoUrl: null, embedOrigins: ['http://localhost:3000'] });
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
