import { z } from 'zod';
import { AppError } from '../../shared/errors';
import { parseAmount } from '../../shared/money';

/** Fields every kind of transaction takes, with the same rules and messages. */

/** A positive decimal, as a JSON number or a string; its precision is judged later, against the currency. */
export const amountField = z.union([z.number(), z.string()], { error: 'is required and must be a number' }).superRefine((value, ctx) => {
  try {
    parseAmount(value, 20);
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: err instanceof AppError ? err.details?.[0]?.issue ?? err.message : 'is not a valid amount' });
  }
});

/** What any reference, the merchant's or the service's (`pay_…`), is made of. */
export const REFERENCE_CHARACTERS = /^[A-Za-z0-9._:-]{1,100}$/;

/** The merchant's own reference, unique per merchant across every kind. */
export const referenceField = z
  .string({ error: 'is required' })
  // And at least one letter or digit: "." and ".." would be unreachable in a URL path.
  .regex(new RegExp(`^(?=.*[A-Za-z0-9])${REFERENCE_CHARACTERS.source.slice(1)}`), 'must be 1 to 100 letters, digits or . _ : -, with at least one letter or digit');

/** An ISO 4217 code. */
export const currencyField = (example: string) => z.string({ error: 'is required' }).regex(/^[A-Z]{3}$/, `must be an ISO 4217 code, e.g. ${example}`);

/** Free text: trimmed, bounded, and without control characters (PostgreSQL refuses NUL in text; none belongs in a label). */
export const textField = (max: number) =>
  z
    .string({ error: 'must be a string' })
    .trim()
    .max(max, `must be at most ${max} characters`)
    // eslint-disable-next-line no-control-regex
    .refine((text) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text), 'must not contain control characters');
