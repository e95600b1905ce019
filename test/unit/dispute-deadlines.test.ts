import countryZones from '../../src/modules/payouts/schedule/country-zones.json';
import countries from '../../src/modules/reference/data/countries.json';
import { addBusinessHours, type BusinessDay } from '../../src/modules/disputes/deadlines/business-hours';
import { DISPUTE_DEADLINES, deadlineRuleOf, evidenceDueBy, parseDeadlineTable, reminderTimes } from '../../src/modules/disputes/deadlines/dispute-deadlines';
import deadlineFile from '../../src/modules/disputes/deadlines/dispute-deadlines.json';

const at = (iso: string) => new Date(iso);
const ninetoFive: BusinessDay = { start: '09:00', end: '17:00', weekdays: [1, 2, 3, 4, 5] };
const LAGOS = 'Africa/Lagos'; // UTC+1 all year

// 2026-12-04 is a Friday; 12-05/06 the weekend; 12-07 Monday.
describe('the evidence deadline on the table (Paystack’s clock: whole weekdays, weekends paused)', () => {
  it('Nigeria, 16 h, opened Friday 16:00 Lagos: 8 h on Friday, the weekend paused, 8 h on Monday', () => {
    expect(evidenceDueBy('NG', at('2026-12-04T15:00:00Z'))).toEqual(at('2026-12-07T07:00:00Z')); // Monday 08:00 WAT
  });

  it('Paystack’s own example: opened late on Friday, the clock resumes at midnight on Monday', () => {
    // Friday 23:00 WAT: 1 h on Friday, 15 h on Monday.
    expect(evidenceDueBy('NG', at('2026-12-04T22:00:00Z'))).toEqual(at('2026-12-07T14:00:00Z'));
  });

  it('opened on the weekend: the count starts at Monday 00:00 local', () => {
    expect(evidenceDueBy('NG', at('2026-12-05T09:00:00Z'))).toEqual(at('2026-12-07T15:00:00Z')); // Monday 16:00 WAT
    expect(evidenceDueBy('NG', at('2026-12-06T22:59:59Z'))).toEqual(at('2026-12-07T15:00:00Z')); // Sunday 23:59:59
  });

  it('48 h countries span the weekend (South Africa, opened Thursday 12:00 SAST)', () => {
    // Thursday 12 h + Friday 24 h + Monday 12 h.
    expect(evidenceDueBy('ZA', at('2026-12-03T10:00:00Z'))).toEqual(at('2026-12-07T10:00:00Z'));
  });

  it('the local date decides, not the UTC one (Nairobi, UTC+3: Monday 01:00 EAT is Sunday 22:00 UTC)', () => {
    // Monday 23 h + Tuesday 24 h + Wednesday 1 h → Wednesday 01:00 EAT.
    expect(evidenceDueBy('KE', at('2026-11-29T22:00:00Z'))).toEqual(at('2026-12-01T22:00:00Z'));
  });

  describe('zones with DST (Egypt is not supported; London and New York are)', () => {
    it('London: opened Friday 12:00 GMT, due Tuesday 12:00 BST after the change of 2026-03-29', () => {
      expect(evidenceDueBy('GB', at('2026-03-27T12:00:00Z'))).toEqual(at('2026-03-31T11:00:00Z'));
    });
    it('New York: opened Friday 12:00 EDT, due Tuesday 12:00 EST after the change of 2026-11-01', () => {
      expect(evidenceDueBy('US', at('2026-10-30T16:00:00Z'))).toEqual(at('2026-11-03T17:00:00Z'));
    });
  });

  it('a country the service does not support is refused', () => {
    expect(() => evidenceDueBy('FR', at('2026-12-01T12:00:00Z'))).toThrow('no dispute deadline for country FR');
  });
});

describe('addBusinessHours', () => {
  it('with a 09:00–17:00 day, Nigeria opened Friday 16:00 lands on Tuesday 16:00', () => {
    // Friday 1 h + Monday 8 h + Tuesday 7 h.
    expect(addBusinessHours(at('2026-12-04T15:00:00Z'), 16, LAGOS, ninetoFive)).toEqual(at('2026-12-08T15:00:00Z'));
  });

  it('a start at night begins at the next opening; a count ending at a closing is that closing', () => {
    // Tuesday 02:00 WAT → 09:00, 8 h to 17:00 Tuesday, 8 h to 17:00 Wednesday.
    expect(addBusinessHours(at('2026-12-01T01:00:00Z'), 16, LAGOS, ninetoFive)).toEqual(at('2026-12-02T16:00:00Z'));
    expect(addBusinessHours(at('2026-12-01T20:00:00Z'), 1, LAGOS, ninetoFive)).toEqual(at('2026-12-02T09:00:00Z'));
  });

  it('a start on the weekend begins on Monday morning; zero hours is the next opening, or the start when open', () => {
    expect(addBusinessHours(at('2026-12-06T12:00:00Z'), 0, LAGOS, ninetoFive)).toEqual(at('2026-12-07T08:00:00Z'));
    expect(addBusinessHours(at('2026-12-06T12:00:00Z'), 2.5, LAGOS, ninetoFive)).toEqual(at('2026-12-07T10:30:00Z'));
    expect(addBusinessHours(at('2026-12-07T10:00:00Z'), 0, LAGOS, ninetoFive)).toEqual(at('2026-12-07T10:00:00Z'));
  });

  it('a 09:00–17:00 day keeps its local hours across a DST change (London, 2026-03-29)', () => {
    // Friday 16:00 GMT: 1 h, then Monday 09:00 BST (08:00 UTC) + 7 h.
    expect(addBusinessHours(at('2026-03-27T16:00:00Z'), 8, 'Europe/London', ninetoFive)).toEqual(at('2026-03-30T15:00:00Z'));
  });

  describe('Cairo, whose clocks go back at the end of Thursday 2026-10-29 (24:00 +3 → 23:00 +2)', () => {
    const sundayToThursday: BusinessDay = { start: '00:00', end: '24:00', weekdays: [0, 1, 2, 3, 4] };
    const thursdayMidnight = at('2026-10-28T21:00:00Z'); // Thursday 00:00 +3
    it('the day is 25 real hours long, and they all count', () => {
      expect(addBusinessHours(thursdayMidnight, 24, 'Africa/Cairo', sundayToThursday)).toEqual(at('2026-10-29T21:00:00Z'));
      expect(addBusinessHours(thursdayMidnight, 25, 'Africa/Cairo', sundayToThursday)).toEqual(at('2026-10-29T22:00:00Z'));
    });
    it('the 26th hour is on Sunday, after the Friday–Saturday weekend', () => {
      expect(addBusinessHours(thursdayMidnight, 26, 'Africa/Cairo', sundayToThursday)).toEqual(at('2026-10-31T23:00:00Z'));
    });
  });

  it('refuses a day that never opens, a bad time, negative hours and an unknown zone', () => {
    const start = at('2026-12-01T12:00:00Z');
    expect(() => addBusinessHours(start, 1, LAGOS, { ...ninetoFive, weekdays: [] })).toThrow('no weekday is open');
    expect(() => addBusinessHours(start, 1, LAGOS, { ...ninetoFive, end: '08:00' })).toThrow('is not after start');
    expect(() => addBusinessHours(start, 1, LAGOS, { ...ninetoFive, start: '9:00' })).toThrow('start 9:00');
    expect(() => addBusinessHours(start, -1, LAGOS, ninetoFive)).toThrow('hours must be');
    expect(() => addBusinessHours(start, 1, 'Africa/Atlantis', ninetoFive)).toThrow('Africa/Atlantis');
  });
});

describe('the table', () => {
  it('every supported country has an entry, in its payout-schedule zone: Nigeria 16 h, the others 48 h', () => {
    const supported = countries.map((c) => c.country_code).sort();
    expect([...DISPUTE_DEADLINES.keys()].sort()).toEqual(supported);
    const zones: Record<string, string> = countryZones.zones;
    for (const code of supported) {
      const rule = deadlineRuleOf(code);
      expect(rule.zone).toBe(zones[code]);
      expect(rule.windowHours).toBe(code === 'NG' ? 16 : 48);
      expect(rule.businessDay).toEqual({ start: '00:00', end: '24:00', weekdays: [1, 2, 3, 4, 5] });
    }
  });

  it('keeps its source and notes', () => {
    expect(deadlineFile.source).toContain('Paystack');
    expect(deadlineFile.notes).toContain('Public holidays are not modelled');
  });

  it('a bad table fails loudly at load, naming the problem', () => {
    const zones = { NG: LAGOS, KE: 'Africa/Nairobi' };
    const good = { source: 's', notes: 'n', business_day: ninetoFive, countries: { NG: { window_hours: 16 }, KE: { window_hours: 48 } } };
    expect(parseDeadlineTable(good, zones).get('KE')?.windowHours).toBe(48);
    expect(() => parseDeadlineTable({ ...good, countries: { NG: { window_hours: 16 } } }, zones)).toThrow('KE has a time zone but no deadline');
    expect(() => parseDeadlineTable({ ...good, countries: { ...good.countries, FR: { window_hours: 48 } } }, zones)).toThrow('FR has no time zone');
    expect(() => parseDeadlineTable({ ...good, business_day: { ...ninetoFive, end: '25:00' } }, zones)).toThrow('business_day: end 25:00');
    expect(() => parseDeadlineTable({ ...good, countries: { ...good.countries, KE: { window_hours: -1 } } }, zones)).toThrow('countries.KE.window_hours');
    expect(() => parseDeadlineTable({ ...good, source: undefined }, zones)).toThrow('source');
    expect(() => parseDeadlineTable(good, { ...zones, NG: 'Mars/Olympus' })).toThrow('zone Mars/Olympus is unknown');
  });
});

describe('reminderTimes', () => {
  it('24 h and 4 h of elapsed time before the deadline, earliest first', () => {
    const openedAt = at('2026-12-03T10:00:00Z');
    const dueBy = evidenceDueBy('ZA', openedAt); // Monday 2026-12-07 10:00 UTC
    expect(reminderTimes(dueBy, openedAt)).toEqual([at('2026-12-06T10:00:00Z'), at('2026-12-07T06:00:00Z')]);
  });

  it('leaves out a reminder that would fall before the opening (Nigeria on a weekday: 16 real hours)', () => {
    const openedAt = at('2026-12-01T09:00:00Z'); // Tuesday 10:00 WAT
    const dueBy = evidenceDueBy('NG', openedAt);
    expect(dueBy).toEqual(at('2026-12-02T01:00:00Z'));
    expect(reminderTimes(dueBy, openedAt)).toEqual([at('2026-12-01T21:00:00Z')]);
  });

  it('keeps a reminder exactly at the opening, and gives none when the deadline is under 4 h away', () => {
    const openedAt = at('2026-12-01T09:00:00Z');
    expect(reminderTimes(at('2026-12-01T13:00:00Z'), openedAt)).toEqual([openedAt]);
    expect(reminderTimes(at('2026-12-01T12:00:00Z'), openedAt)).toEqual([]);
  });
});
