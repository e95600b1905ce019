/**
 * Wall-clock arithmetic in an IANA time zone with the platform's ICU (Intl.DateTimeFormat), no library: a payout
 * cut-off is a local time on a local date, and the instant it falls on moves with the zone's offset (DST).
 */

/** A local calendar date. */
export interface LocalDate {
  year: number;
  month: number; // 1..12
  day: number;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The zone's canonical name ('africa/lagos' → 'Africa/Lagos'), or null when ICU does not know it. */
export function canonicalTimeZone(name: string): string | null {
  // Only names shaped like IANA ones: ICU also takes offsets ('+01:00') in some versions, which are not zones.
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/.test(name) || name.length > 64) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** The local wall time at `ms`, as if it were UTC (milliseconds), to the second. */
function wallAt(ms: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const p of formatterOf(timeZone).formatToParts(ms)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
}

/** The zone's offset from UTC at the instant `ms`, in milliseconds (whole minutes). */
function offsetAt(ms: number, timeZone: string): number {
  const whole = Math.floor(ms / 1000) * 1000;
  return Math.round((wallAt(whole, timeZone) - whole) / MINUTE) * MINUTE;
}

/** The local date at the instant `at`. */
export function localDateOf(at: Date, timeZone: string): LocalDate {
  const wall = new Date(wallAt(at.getTime(), timeZone));
  return { year: wall.getUTCFullYear(), month: wall.getUTCMonth() + 1, day: wall.getUTCDate() };
}

/**
 * The instant of a local date and time. A time the clocks skip (spring forward) is moved on by the gap (00:30 in a
 * gap from 00:00 to 01:00 is 01:30); a time that happens twice (fall back) is its first occurrence. Temporal's
 * `compatible` disambiguation does the same. Zone transitions are days apart, so the offsets a day either side are
 * the only candidates.
 */
export function instantOf(date: LocalDate, hour: number, minute: number, timeZone: string): Date {
  const wall = Date.UTC(date.year, date.month - 1, date.day, hour, minute);
  const before = offsetAt(wall - DAY, timeZone);
  const after = offsetAt(wall + DAY, timeZone);
  const fits = [before, after].map((o) => wall - o).filter((t) => offsetAt(t, timeZone) === wall - t);
  if (fits.length > 0) return new Date(Math.min(...fits));
  return new Date(wall - before);
}

/** `date` moved by `days` calendar days (negative: back). */
export function addDays(date: LocalDate, days: number): LocalDate {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** 0 Sunday .. 6 Saturday. */
export function weekdayOf(date: LocalDate): number {
  return new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay();
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** 'YYYY-MM-DD'. */
export function isoDate(date: LocalDate): string {
  return `${String(date.year).padStart(4, '0')}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;
}
