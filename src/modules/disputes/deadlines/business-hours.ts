import { addDays, canonicalTimeZone, instantOf, localDateOf, weekdayOf, type LocalDate } from '../../payouts/schedule/zoned-time';

/**
 * A business day in a zone's local time: open from `start` to `end` ('HH:MM', 24 h; `end` may be '24:00', the
 * next midnight) on the given weekdays (0 Sunday .. 6 Saturday).
 */
export interface BusinessDay {
  start: string;
  end: string;
  weekdays: readonly number[];
}

const HOUR = 3_600_000;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$|^24:00$/;
/** No business day is more than a week away; a month of days with no opening is a bad `day`, not a long wait. */
const MAX_DAYS = 31;

/** Minutes after local midnight of an 'HH:MM' (00:00 .. 24:00), or null. */
function minutesOfTime(time: string): number | null {
  if (!TIME.test(time)) return null;
  const [h, m] = time.split(':').map(Number);
  return h! * 60 + m!;
}

/** Why `day` cannot be counted on, or null when it can. */
export function businessDayProblem(day: BusinessDay): string | null {
  const start = minutesOfTime(day.start);
  const end = minutesOfTime(day.end);
  if (start === null || start === 24 * 60) return `start ${day.start} is not a time as HH:MM from 00:00 to 23:59`;
  if (end === null) return `end ${day.end} is not a time as HH:MM from 00:00 to 24:00`;
  if (end <= start) return `end ${day.end} is not after start ${day.start}`;
  if (day.weekdays.length === 0) return 'no weekday is open';
  if (day.weekdays.some((d) => !Number.isInteger(d) || d < 0 || d > 6)) return 'a weekday is not a whole number from 0 (Sunday) to 6 (Saturday)';
  return null;
}

/** The instant `minutes` after local midnight of `date` (24:00 is the next day's midnight, whatever the day's length). */
function instantAt(date: LocalDate, minutes: number, zone: string): Date {
  if (minutes === 24 * 60) return instantOf(addDays(date, 1), 0, 0, zone);
  return instantOf(date, Math.floor(minutes / 60), minutes % 60, zone);
}

/**
 * The instant `hours` of business time after `start`: only time inside `day` in `zone` counts. A start outside
 * business hours begins at the next opening; closed days are skipped. Each opening and closing is a local time
 * turned into an instant through the zone's own offset that day, so a span across a DST change counts the hours
 * that really pass (an open day of 00:00–24:00 on a change is 23 or 25 hours long). Deadlines ending exactly at a
 * closing are that closing, not the next opening. Public holidays are not known here.
 */
export function addBusinessHours(start: Date, hours: number, zone: string, day: BusinessDay): Date {
  if (!Number.isFinite(hours) || hours < 0) throw new RangeError(`hours must be a finite number ≥ 0, not ${hours}`);
  if (!Number.isFinite(start.getTime())) throw new RangeError('start is not a valid date');
  if (canonicalTimeZone(zone) === null) throw new RangeError(`${zone} is not a time zone this platform knows`);
  const problem = businessDayProblem(day);
  if (problem) throw new RangeError(`business day: ${problem}`);

  const open = minutesOfTime(day.start)!;
  const close = minutesOfTime(day.end)!;
  const weekdays = new Set(day.weekdays);
  let remaining = Math.round(hours * HOUR);
  let cursor = start.getTime();
  // The local day before start's as well: an opening before midnight UTC can still be open in the zone.
  let date = addDays(localDateOf(start, zone), -1);
  for (let idle = 0; idle <= MAX_DAYS; date = addDays(date, 1)) {
    if (!weekdays.has(weekdayOf(date))) {
      idle++;
      continue;
    }
    const opensAt = instantAt(date, open, zone).getTime();
    const closesAt = instantAt(date, close, zone).getTime();
    const from = Math.max(cursor, opensAt);
    if (from >= closesAt) continue;
    idle = 0;
    if (remaining <= closesAt - from) return new Date(from + remaining);
    remaining -= closesAt - from;
    cursor = closesAt;
  }
  throw new Error(`business day ${JSON.stringify(day)} never opens in ${zone}`);
}
