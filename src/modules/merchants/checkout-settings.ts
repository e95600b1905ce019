import { z } from 'zod';
import type { Command } from '../../shared/validation';

/** At most this many origins may frame a merchant's checkout page. */
const MAX_EMBED_ORIGINS = 10;

/** An origin exactly as a browser sends it: `https://shop.example` or `https://shop.example:8443`, nothing after. */
function isOrigin(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  const local = url.hostname === 'localhost' || url.hostname === '127.0.0.1';
  return (url.protocol === 'https:' || (url.protocol === 'http:' && local)) && url.origin === value;
}

function isLogoUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return url.protocol === 'https:' && url.username === '' && url.password === '';
}

/**
 * How a merchant's hosted checkout page looks and where it may be framed (issue 37). Absent fields stay as they
 * are; null clears one. Origins are compared exactly: they become the page's `frame-ancestors`.
 */
export const checkoutSettingsSchema = z.object({
  logoUrl: z
    .string({ error: 'must be a string' })
    .max(2048, 'must be at most 2048 characters')
    .refine(isLogoUrl, 'must be an absolute https URL without credentials')
    .nullish(),
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
  logoUrl: string | null;
  /** Origins allowed to frame the checkout page; empty: none (`frame-ancestors 'none'`). */
  embedOrigins: string[];
}

/** The transfers' beneficiary name check, on or off (CONTRACT §6b). */
export const nameCheckSchema = z.object({ enabled: z.boolean({ error: 'must be true or false' }) });
export type NameCheckCommand = Command<typeof nameCheckSchema>;
