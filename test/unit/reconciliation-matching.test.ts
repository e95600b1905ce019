import type { ProviderRecord } from '../../src/providers/capabilities';
import { Decimal } from '../../src/shared/money';
import { dayWindow } from '../../src/modules/reconciliation/reconciliation.service';
import { classifyPair, classifyUnpaired, countByClass, matchRecords, type OurTransaction } from '../../src/modules/reconciliation/matching';

/** Reconciliation's matching (docs/reconciliation.md): pure, one to one, each transaction and record in one class. */

const ours = (id: string, status: string, amount = '100.00', overrides: Partial<OurTransaction> = {}): OurTransaction => ({
  id,
  reference: `col_${id}`,
  kind: 'collection',
  status,
  providerReference: `p-${id}`,
  amount: new Decimal(amount),
  currency: 'NGN',
  ...overrides,
});

const theirs = (ourReference: string | null, status: ProviderRecord['status'], amount = '100', overrides: Partial<ProviderRecord> = {}): ProviderRecord => ({
  providerReference: `p-${ourReference ?? 'x'}`,
  ourReference,
  amount: new Decimal(amount),
  currency: 'NGN',
  status,
  kind: 'in',
  ...overrides,
});

describe('reconciliation matching', () => {
  it('pairs by our reference; equal amounts (100.00 = 100) and final statuses that agree are matched', () => {
    expect(classifyPair(ours('a', 'successful'), theirs('a', 'successful'))).toBe('matched');
    expect(classifyPair(ours('a', 'failed'), theirs('a', 'failed'))).toBe('matched');
    // Expired is a failure: nothing moved on either side.
    expect(classifyPair(ours('a', 'expired'), theirs('a', 'failed'))).toBe('matched');
  });

  it('an amount or currency that differs is amount_mismatch, whatever the statuses', () => {
    expect(classifyPair(ours('a', 'successful'), theirs('a', 'successful', '100.01'))).toBe('amount_mismatch');
    expect(classifyPair(ours('a', 'successful'), theirs('a', 'successful', '100', { currency: 'GHS' }))).toBe('amount_mismatch');
    expect(classifyPair(ours('a', 'processing'), theirs('a', 'failed', '5'))).toBe('amount_mismatch');
  });

  it('final statuses that disagree are status_mismatch; either side not final is in_flight', () => {
    expect(classifyPair(ours('a', 'successful'), theirs('a', 'failed'))).toBe('status_mismatch');
    expect(classifyPair(ours('a', 'failed'), theirs('a', 'successful'))).toBe('status_mismatch');
    expect(classifyPair(ours('a', 'processing'), theirs('a', 'successful'))).toBe('in_flight');
    expect(classifyPair(ours('a', 'successful'), theirs('a', 'pending'))).toBe('in_flight');
  });

  it('ours without a record: successful or processing is missing_at_provider; a failure is matched; still being created, in_flight', () => {
    expect(classifyUnpaired(ours('a', 'successful'))).toBe('missing_at_provider');
    expect(classifyUnpaired(ours('a', 'processing'))).toBe('missing_at_provider');
    expect(classifyUnpaired(ours('a', 'failed'))).toBe('matched');
    expect(classifyUnpaired(ours('a', 'expired'))).toBe('matched');
    expect(classifyUnpaired(ours('a', 'initiating'))).toBe('in_flight');
    expect(classifyUnpaired(ours('a', 'requires_action'))).toBe('in_flight');
  });

  it('finds each class once in a day with one of each, every transaction and record in exactly one item', () => {
    const mine = [
      ours('m', 'successful'),
      ours('amt', 'successful'),
      ours('st', 'successful'),
      ours('gone', 'successful'),
      ours('fly', 'processing'),
      // Found by the provider's reference when the record names none of ours (a refund's).
      ours('byref', 'successful', '10', { kind: 'refund', providerReference: 'R-9' }),
    ];
    const records = [
      theirs('m', 'successful'),
      theirs('amt', 'successful', '99'),
      theirs('st', 'failed'),
      theirs('fly', 'pending'),
      theirs(null, 'successful', '10', { providerReference: 'R-9', kind: 'out' }),
      theirs('stranger', 'successful', '42'),
      // A second record naming an already paired transaction is not ours either (one to one).
      theirs('m', 'successful'),
    ];
    const items = matchRecords(mine, records);
    expect(items).toHaveLength(mine.length + records.length - 5);
    expect(countByClass(items)).toEqual({
      matched: 2,
      amount_mismatch: 1,
      status_mismatch: 1,
      missing_at_provider: 1,
      missing_here: 2,
      in_flight: 1,
      balance_mismatch: 0,
    });
    expect(items.find((i) => i.class === 'missing_at_provider')?.ours?.id).toBe('gone');
    expect(items.filter((i) => i.class === 'missing_here').map((i) => i.theirs?.ourReference)).toEqual(['stranger', 'm']);
    expect(items.find((i) => i.ours?.id === 'byref')?.class).toBe('matched');
  });

  it('a clean day is all matched', () => {
    const mine = [ours('a', 'successful'), ours('b', 'failed'), ours('c', 'successful', '7.5')];
    const items = matchRecords(mine, [theirs('a', 'successful'), theirs('b', 'failed'), theirs('c', 'successful', '7.50')]);
    expect(items.every((i) => i.class === 'matched')).toBe(true);
    expect(items).toHaveLength(3);
  });

  it('a run’s window is a UTC day: the one named, or the day before now; a day that does not exist is refused', () => {
    expect(dayWindow('2026-12-01', new Date())).toEqual({ from: new Date('2026-12-01T00:00:00Z'), to: new Date('2026-12-02T00:00:00Z') });
    expect(dayWindow(undefined, new Date('2026-12-02T00:30:00Z'))).toEqual({ from: new Date('2026-12-01T00:00:00Z'), to: new Date('2026-12-02T00:00:00Z') });
    for (const bad of ['2026-02-30', '1 Dec', '2026-12-1', '']) expect(() => dayWindow(bad, new Date())).toThrow(/date/);
  });
});
