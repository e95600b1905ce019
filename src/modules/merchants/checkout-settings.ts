import { createHash } from 'node:crypto';
import { z } from 'zod';
import { base64Length, decodeBase64File, sniffContentType } from '../../shared/file-content';
import type { Command } from '../../shared/validation';

/** At most this many origins may frame a merchant's checkout page. */
const MAX_EMBED_ORIGINS = 10;

/** The largest logo, in bytes (50 KiB): the page's first load stays far under 100 KB with it. The table holds it too. */
const CHECKOUT_LOGO_MAX_BYTES = 50 * 1024;

/** Where the service serves a logo: its own origin, under the digest of its bytes (immutable, so cached for good). */
export const checkoutLogoPath = (sha256: string): string => `/checkout/logos/${sha256}`;

/** An origin exactly as a browser sends it: `https://shop.example` or `https://shop.example:8443`, nothing after. */
function isOrigin(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  const local = url.hostname === 'localhost' || url.hostname === '127.0.0.1';
  return (url.protocol === 'https:' || (url.protocol === 'http:' && local)) && url.origin === value;
}

/** A logo as it is stored: its bytes, their type (by content) and their digest. */
interface CheckoutLogo {
  bytes: Buffer;
  contentType: 'image/png' | 'image/jpeg';
  sha256: string;
}

/**
 * An uploaded logo, checked by its content: base64 of a PNG or JPEG of at most 50 KiB. An SVG (which can carry
 * script), a GIF or anything else is refused, whatever it is called.
 */
const logoField = z
  .string({ error: 'must be a string: the image’s bytes in base64' })
  .max(base64Length(CHECKOUT_LOGO_MAX_BYTES), `is too large: at most ${CHECKOUT_LOGO_MAX_BYTES / 1024} KB of image`)
  .transform((text, ctx): CheckoutLogo => {
    const refuse = (message: string) => (ctx.addIssue({ code: 'custom', message }), z.NEVER);
    const bytes = decodeBase64File(text);
    if (bytes === null || bytes.length === 0) return refuse('must be a PNG or JPEG image, in base64');
    if (bytes.length > CHECKOUT_LOGO_MAX_BYTES) return refuse(`is too large: at most ${CHECKOUT_LOGO_MAX_BYTES / 1024} KB of image`);
    const contentType = sniffContentType(bytes);
    if (contentType !== 'image/png' && contentType !== 'image/jpeg') return refuse('must be a PNG or JPEG image (its content is neither)');
    return { bytes, contentType, sha256: createHash('sha256').update(bytes).digest('hex') };
  });

/**
 * How a merchant's hosted checkout page looks and where it may be framed (issue 37). Absent fields stay as they
 * are; null clears one. The logo is the image itself, kept and served by this service (never an address the payer's
 * browser would fetch from elsewhere). Origins are compared exactly: they become the page's `frame-ancestors`.
 */
export const checkoutSettingsSchema = z.object({
  logo: logoField.nullish(),
  embedOrigins: z
    .array(
      z
        .string({ error: 'must be origins, as strings' })
        .refine(isOrigin, 'must be origins exactly as browsers send them, e.g. https://shop.example (https; http only for localhost)'),
      { error: 'must be a list of origins' },
    )
    .max(MAX_EMBED_ORIGINS, `must be at most ${MAX_EMBED_ORIGINS} origins`)
    .nullish(),
});
export type CheckoutSettingsCommand = Command<typeof checkoutSettingsSchema>;

export interface CheckoutSettings {
  /** Where this service serves the logo (PUBLIC_BASE_URL/checkout/logos/{sha256}); null: the merchant's name only. */
  logoUrl: string | null;
  /** Origins allowed to frame the checkout page; empty: none (`frame-ancestors 'none'`). */
  embedOrigins: string[];
}

/** The transfers' beneficiary name check, on or off (CONTRACT §6b). */
export const nameCheckSchema = z.object({ enabled: z.boolean({ error: 'must be true or false' }) });
export type NameCheckCommand = Command<typeof nameCheckSchema>;
