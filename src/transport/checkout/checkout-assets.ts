import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { CHECKOUT_CSS } from './assets/checkout-css';
import { CHECKOUT_SCRIPT } from './assets/checkout-script';

/**
 * The checkout pages' two static assets, built once at module load. They are TypeScript string
 * constants (assets/checkout-css.ts, assets/checkout-script.ts) rather than files beside the code,
 * so `tsc` carries them into dist/ and the production image (which holds dist/src only) without a
 * copy step. Each has its content's hash in its path, so the routes serve it with
 * `cache-control: public, max-age=31536000, immutable` and a new version is a new URL; its gzip is
 * computed here, once, for a client that accepts it.
 */
export interface CheckoutAsset {
  /** `/checkout/assets/checkout.<hash8>.css`. */
  path: string;
  body: Buffer;
  /** `body` gzipped (level 9): send with `content-encoding: gzip` when the request accepts it. */
  gzip: Buffer;
  contentType: string;
  /** A strong ETag: the content hash, quoted. */
  etag: string;
}

function asset(name: string, ext: string, contentType: string, text: string): CheckoutAsset {
  const body = Buffer.from(text, 'utf8');
  const hash = createHash('sha256').update(body).digest('hex');
  return {
    path: `/checkout/assets/${name}.${hash.slice(0, 8)}.${ext}`,
    body,
    gzip: gzipSync(body, { level: 9 }),
    contentType,
    etag: `"${hash.slice(0, 32)}"`,
  };
}

export const checkoutAssets: { readonly css: CheckoutAsset; readonly js: CheckoutAsset } = {
  css: asset('checkout', 'css', 'text/css; charset=utf-8', CHECKOUT_CSS),
  js: asset('checkout', 'js', 'text/javascript; charset=utf-8', CHECKOUT_SCRIPT),
};

/** The asset paths the page renderers take (`assetPaths`). */
export const checkoutAssetPaths: { readonly css: string; readonly js: string } = { css: checkoutAssets.css.path, js: checkoutAssets.js.path };

const BY_PATH = new Map([checkoutAssets.css, checkoutAssets.js].map((a) => [a.path, a]));

/** The asset served at `path` (the route's `/checkout/assets/:file`), or undefined: a stale or forged hash is a 404. */
export function findCheckoutAsset(path: string): CheckoutAsset | undefined {
  return BY_PATH.get(path);
}
