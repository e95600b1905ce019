import type { Decimal } from '../../../shared/money';
import { addDays, daysInMonth, instantOf, isoDate, localDateOf, weekdayOf, type LocalDate } from './zoned-time';

/*
 * When a merchant is paid (issue 38): the pure rules of a payout schedule. A window closes at each cut-off; the
 * payout run pays, per window, what was posted up to the cut-off less the delay. No I/O here.
 */

export const PAYOUT_INTERVALS = ['daily', 'weekly', 'monthly', 'manual'] as const;
export type PayoutInterval = (typeof PAYOUT_INTERVALS)[number];

/** In the order of Date.getUTCDay (0 is Sunday). */
export const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const MAX_DELAY_DAYS = 30;

export interface PayoutSchedule {
  merchantId: string;
  currency: string;
  interval: PayoutInterval;
  /** Weekly only. */
  weeklyAnchor: Weekday | null;
  /** 1..31, monthly only; a month without that date pays on its last day. */
  monthlyAnchor: number | null;
  /** 0..30: a balance change is paid out in the first window whose cut-off is at least delayDays days after it was posted. */
  delayDays: number;
  /** 'HH:MM' (24 h), in timeZone. */
  cutoffTime: string;
  /** IANA, e.g. 'Africa/Lagos'. */
  timeZone: string;
  /** From configuration (PAYOUT_MINIMUMS), per currency; not the merchant's to set. */
  minimumAmount: Decimal;
}

/** The fields of a schedule's timing (what latestCutoff and nextCutoff read). */
type Timing = Pick<PayoutSchedule, 'interval' | 'weeklyAnchor' | 'monthlyAnchor' | 'cutoffTime' | 'timeZone'>;

/** 'HH:MM', 00:00 to 23:59. */
export const CUTOFF_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

function hoursAndMinutes(cutoffTime: string): [number, number] {
  if (!CUTOFF_TIME.test(cutoffTime)) throw new Error(`Not an HH:MM cut-off time: ${cutoffTime}`);
  return [Number(cutoffTime.slice(0, 2)), Number(cutoffTime.slice(3, 5))];
}

/** Whether a window closes on this local date. */
function closesOn(s: Timing, date: LocalDate): boolean {
  switch (s.interval) {
    case 'daily':
      return true;
    case 'weekly':
      return WEEKDAYS[weekdayOf(date)] === s.weeklyAnchor;
    case 'monthly':
      // The 31st of a 30-day month (or February) is its last day.
      return date.day === Math.min(s.monthlyAnchor ?? 1, daysInMonth(date.year, date.month));
    case 'manual':
      return false;
  }
}

function cutoffOn(s: Timing, date: LocalDate): Date {
  const [hour, minute] = hoursAndMinutes(s.cutoffTime);
  return instantOf(date, hour, minute, s.timeZone);
}

/** A monthly schedule closes at least once in any 31 days; a margin either side of today's date covers the zone. */
const SEARCH_DAYS = 40;

/** The latest cut-off at or before `now` (null for manual), and its window key: the cut-off's local date, e.g. '2026-12-01'. */
export function latestCutoff(s: Timing, now: Date): { cutoff: Date; windowKey: string } | null {
  if (s.interval === 'manual') return null;
  const today = localDateOf(now, s.timeZone);
  for (let back = 0; back <= SEARCH_DAYS; back++) {
    const date = addDays(today, -back);
    if (!closesOn(s, date)) continue;
    const cutoff = cutoffOn(s, date);
    if (cutoff.getTime() <= now.getTime()) return { cutoff, windowKey: isoDate(date) };
  }
  throw new Error('No cut-off found within the search range');
}

/** The next cut-off strictly after `now` (null for manual). */
export function nextCutoff(s: Timing, now: Date): Date | null {
  if (s.interval === 'manual') return null;
  const today = localDateOf(now, s.timeZone);
  for (let ahead = 0; ahead <= SEARCH_DAYS; ahead++) {
    const date = addDays(today, ahead);
    if (!closesOn(s, date)) continue;
    const cutoff = cutoffOn(s, date);
    if (cutoff.getTime() > now.getTime()) return cutoff;
  }
  throw new Error('No cut-off found within the search range');
}

/**
 * The posting instant a window covers up to: the cut-off less delayDays days. Days are the zone's calendar days (the
 * same wall-clock time, delayDays dates earlier), so a delay across a DST change is still whole days to the merchant.
 */
export function coversUpTo(s: Pick<PayoutSchedule, 'delayDays' | 'cutoffTime' | 'timeZone'>, cutoff: Date): Date {
  if (s.delayDays === 0) return cutoff;
  const [hour, minute] = hoursAndMinutes(s.cutoffTime);
  return instantOf(addDays(localDateOf(cutoff, s.timeZone), -s.delayDays), hour, minute, s.timeZone);
}
