import { coversUpTo, latestCutoff, nextCutoff, type PayoutSchedule } from '../../src/modules/payouts/schedule/schedule.rules';
import { canonicalTimeZone } from '../../src/modules/payouts/schedule/zoned-time';
import { Decimal } from '../../src/shared/money';

const base: PayoutSchedule = {
  merchantId: 'm',
  currency: 'NGN',
  interval: 'daily',
  weeklyAnchor: null,
  monthlyAnchor: null,
  delayDays: 0,
  cutoffTime: '16:00',
  timeZone: 'Africa/Lagos', // UTC+1, no DST
  minimumAmount: new Decimal(100),
};
const at = (iso: string) => new Date(iso);
const schedule = (over: Partial<PayoutSchedule>): PayoutSchedule => ({ ...base, ...over });

describe('payout schedule rules', () => {
  describe('daily', () => {
    it('the latest cut-off is today’s once it has passed, yesterday’s before', () => {
      expect(latestCutoff(base, at('2026-12-01T15:30:00Z'))).toEqual({ cutoff: at('2026-12-01T15:00:00Z'), windowKey: '2026-12-01' });
      expect(latestCutoff(base, at('2026-12-01T14:59:59Z'))).toEqual({ cutoff: at('2026-11-30T15:00:00Z'), windowKey: '2026-11-30' });
    });

    it('a cut-off exactly at now is the latest, and the next is strictly after', () => {
      const now = at('2026-12-01T15:00:00Z');
      expect(latestCutoff(base, now)?.cutoff).toEqual(now);
      expect(nextCutoff(base, now)).toEqual(at('2026-12-02T15:00:00Z'));
      expect(nextCutoff(base, at('2026-12-01T14:59:59.999Z'))).toEqual(now);
    });

    it('the window key is the local date, not the UTC one', () => {
      const late = schedule({ cutoffTime: '00:30' }); // 23:30 UTC the day before
      expect(latestCutoff(late, at('2026-12-01T23:45:00Z'))).toEqual({ cutoff: at('2026-12-01T23:30:00Z'), windowKey: '2026-12-02' });
    });
  });

  describe('weekly', () => {
    const friday = schedule({ interval: 'weekly', weeklyAnchor: 'friday' });
    it('closes on the anchor weekday only', () => {
      // 2026-12-01 is a Tuesday; the Fridays around it are 11-27 and 12-04.
      expect(latestCutoff(friday, at('2026-12-01T12:00:00Z'))).toEqual({ cutoff: at('2026-11-27T15:00:00Z'), windowKey: '2026-11-27' });
      expect(nextCutoff(friday, at('2026-12-01T12:00:00Z'))).toEqual(at('2026-12-04T15:00:00Z'));
    });
    it('on the anchor day, before and after the cut-off', () => {
      expect(nextCutoff(friday, at('2026-12-04T14:00:00Z'))).toEqual(at('2026-12-04T15:00:00Z'));
      expect(nextCutoff(friday, at('2026-12-04T15:00:00Z'))).toEqual(at('2026-12-11T15:00:00Z'));
      expect(latestCutoff(friday, at('2026-12-04T14:00:00Z'))?.windowKey).toBe('2026-11-27');
    });
  });

  describe('monthly', () => {
    it('closes on the anchor date', () => {
      const fifteenth = schedule({ interval: 'monthly', monthlyAnchor: 15 });
      expect(nextCutoff(fifteenth, at('2026-12-20T00:00:00Z'))).toEqual(at('2027-01-15T15:00:00Z'));
      expect(latestCutoff(fifteenth, at('2026-12-20T00:00:00Z'))?.windowKey).toBe('2026-12-15');
    });
    it('a month without the date pays on its last day (31 → 30 Nov, 28 Feb, 29 Feb in a leap year)', () => {
      const end = schedule({ interval: 'monthly', monthlyAnchor: 31 });
      expect(nextCutoff(end, at('2026-11-01T00:00:00Z'))).toEqual(at('2026-11-30T15:00:00Z'));
      expect(nextCutoff(end, at('2027-02-01T00:00:00Z'))).toEqual(at('2027-02-28T15:00:00Z'));
      expect(nextCutoff(end, at('2028-02-01T00:00:00Z'))).toEqual(at('2028-02-29T15:00:00Z'));
      expect(nextCutoff(end, at('2027-03-01T00:00:00Z'))).toEqual(at('2027-03-31T15:00:00Z'));
      expect(latestCutoff(end, at('2027-03-15T00:00:00Z'))?.windowKey).toBe('2027-02-28');
    });
    it('the 29th in a non-leap February is the 28th, and only once', () => {
      const s = schedule({ interval: 'monthly', monthlyAnchor: 29 });
      expect(nextCutoff(s, at('2027-02-28T15:00:00Z'))).toEqual(at('2027-03-29T15:00:00Z'));
    });
  });

  it('manual has no cut-offs', () => {
    const manual = schedule({ interval: 'manual' });
    expect(latestCutoff(manual, at('2026-12-01T12:00:00Z'))).toBeNull();
    expect(nextCutoff(manual, at('2026-12-01T12:00:00Z'))).toBeNull();
  });

  describe('a zone with DST (Africa/Cairo: +2, +3 from the last Friday of April to the last Thursday of October)', () => {
    const cairo = schedule({ timeZone: 'Africa/Cairo' });
    it('16:00 is 14:00 UTC in winter and 13:00 UTC in summer', () => {
      expect(nextCutoff(cairo, at('2026-01-10T00:00:00Z'))).toEqual(at('2026-01-10T14:00:00Z'));
      expect(nextCutoff(cairo, at('2026-07-10T00:00:00Z'))).toEqual(at('2026-07-10T13:00:00Z'));
      // Across the spring change (2026-04-24 00:00 → 01:00): the day after has the new offset.
      expect(nextCutoff(cairo, at('2026-04-23T14:00:00Z'))).toEqual(at('2026-04-24T13:00:00Z'));
    });
    it('a cut-off in the skipped hour moves on by the gap; one in the repeated hour is its first occurrence', () => {
      const half = schedule({ timeZone: 'Africa/Cairo', cutoffTime: '00:30' });
      // 2026-04-24 00:30 does not exist: it is 01:30 (+3), 22:30 UTC the day before.
      expect(nextCutoff(half, at('2026-04-23T20:00:00Z'))).toEqual(at('2026-04-23T22:30:00Z'));
      const late = schedule({ timeZone: 'Africa/Cairo', cutoffTime: '23:30' });
      // 2026-10-29 23:30 happens twice (+3 then +2): the first is 20:30 UTC.
      expect(latestCutoff(late, at('2026-10-29T21:00:00Z'))).toEqual({ cutoff: at('2026-10-29T20:30:00Z'), windowKey: '2026-10-29' });
      expect(nextCutoff(late, at('2026-10-29T20:30:00Z'))).toEqual(at('2026-10-30T21:30:00Z'));
    });
    it('a delay counts the zone’s calendar days across the change', () => {
      const delayed = schedule({ timeZone: 'Africa/Cairo', delayDays: 1 });
      // The cut-off of 04-24 is 16:00 +3; a day earlier is 16:00 +2 on 04-23: 25 hours before.
      expect(coversUpTo(delayed, at('2026-04-24T13:00:00Z'))).toEqual(at('2026-04-23T14:00:00Z'));
    });
  });

  describe('coversUpTo', () => {
    it('is the cut-off with no delay, and whole days before it with one', () => {
      const cutoff = at('2026-12-04T15:00:00Z');
      expect(coversUpTo(base, cutoff)).toEqual(cutoff);
      expect(coversUpTo(schedule({ delayDays: 1 }), cutoff)).toEqual(at('2026-12-03T15:00:00Z'));
      expect(coversUpTo(schedule({ delayDays: 30 }), cutoff)).toEqual(at('2026-11-04T15:00:00Z'));
    });
  });

  it('time zones: canonical IANA names only', () => {
    expect(canonicalTimeZone('africa/lagos')).toBe('Africa/Lagos');
    expect(canonicalTimeZone('UTC')).toBe('UTC');
    expect(canonicalTimeZone('Mars/Olympus')).toBeNull();
    expect(canonicalTimeZone('+01:00')).toBeNull();
    expect(canonicalTimeZone('')).toBeNull();
  });
});
