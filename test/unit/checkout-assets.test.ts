import { gunzipSync } from 'node:zlib';
import { Script } from 'node:vm';
import { checkoutAssets, findCheckoutAsset } from '../../src/transport/checkout/checkout-assets';

describe('the assets', () => {
  it.each([
    ['css', 'text/css; charset=utf-8'],
    ['js', 'text/javascript; charset=utf-8'],
  ] as const)('%s: a content-hashed path, its type, an ETag and its gzip', (kind, type) => {
    const asset = checkoutAssets[kind];
    expect(asset.path).toMatch(new RegExp(`^/checkout/assets/checkout\\.[0-9a-f]{8}\\.${kind}$`));
    expect(asset.contentType).toBe(type);
    expect(asset.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(gunzipSync(asset.gzip).equals(asset.body)).toBe(true);
    expect(findCheckoutAsset(asset.path)).toBe(asset);
  });

  it('an unknown or stale path is not found', () => {
    expect(findCheckoutAsset('/checkout/assets/checkout.00000000.css')).toBeUndefined();
  });

  it('the script is plain ES2017 that parses, with nothing third-party', () => {
    const js = checkoutAssets.js.body.toString('utf8');
    expect(() => new Script(js)).not.toThrow();
    expect(js).not.toMatch(/\?\.|\?\?|`|=>|\bimport\b|\beval\b|innerHTML|https?:/);
    expect(js).toContain('506099');
    expect(js).toContain('650027');
    expect(checkoutAssets.css.body.toString('utf8')).not.toMatch(/url\(|@import|https?:/);
  });
});
