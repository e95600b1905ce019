import { z } from 'zod';
import { AppError } from '../../src/shared/errors';
import { parseInput } from '../../src/shared/validation';

const schema = z.object({
  amount: z.number().positive('must be > 0'),
  currency: z.string().length(3, 'must be 3 letters'),
  address: z.object({ line1: z.string().min(1, 'is required') }),
  note: z.string().optional(),
});

function thrownBy(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }
  throw new Error('expected parseInput to throw');
}

describe('parseInput', () => {
  it('returns the parsed data', () => {
    const input = { amount: 10.5, currency: 'KES', address: { line1: '1 Main St' } };
    expect(parseInput(schema, input)).toEqual(input);
  });

  it('returns transformed output and strips unknown keys', () => {
    const coercing = z.object({ amount: z.coerce.number(), name: z.string().trim() });
    expect(parseInput(coercing, { amount: '42', name: '  Acme  ', extra: true })).toEqual({ amount: 42, name: 'Acme' });
  });

  it('throws INVALID_REQUEST with one detail per failing field, naming each', () => {
    const err = thrownBy(() => parseInput(schema, { amount: -1, currency: 'KESH', address: { line1: '' } }));
    expect(err.code).toBe('INVALID_REQUEST');
    expect(err.httpStatus).toBe(400);
    expect(err.details).toEqual(
      expect.arrayContaining([
        { field: 'amount', issue: 'must be > 0' },
        { field: 'currency', issue: 'must be 3 letters' },
        { field: 'address.line1', issue: 'is required' },
      ]),
    );
    expect(err.details).toHaveLength(3);
    expect(err.message).toContain('amount');
    expect(err.message).toContain('currency');
  });

  it('names missing fields', () => {
    const err = thrownBy(() => parseInput(schema, {}));
    expect(err.code).toBe('INVALID_REQUEST');
    expect(err.details!.map((d) => d.field).sort()).toEqual(['address', 'amount', 'currency']);
    for (const detail of err.details!) expect(detail.issue).toEqual(expect.any(String));
  });

  it('treats null/undefined input as an empty object', () => {
    const err = thrownBy(() => parseInput(schema, undefined));
    expect(err.details!.map((d) => d.field)).toContain('amount');
    expect(parseInput(z.object({ note: z.string().optional() }), null)).toEqual({});
  });

  it('names the whole input with `what` when the problem is not a field', () => {
    const err = thrownBy(() => parseInput(schema, 'not an object', 'collection'));
    expect(err.code).toBe('INVALID_REQUEST');
    expect(err.details).toEqual([{ field: 'collection', issue: expect.any(String) }]);
    expect(err.message).toMatch(/^Invalid collection/);
  });
});
