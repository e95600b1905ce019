import { z } from 'zod';
import { currencyField, upperCased } from '../../../shared/fields';
import type { Command } from '../../../shared/validation';
import { CUTOFF_TIME, MAX_DELAY_DAYS, PAYOUT_INTERVALS, WEEKDAYS } from './schedule.rules';

/** GET /v1/payout-schedule?currency=NGN: whose schedule, in which currency. */
export const scheduleQuerySchema = z.object({ currency: upperCased(currencyField) });
export type ScheduleQuery = Command<typeof scheduleQuerySchema>;

/**
 * PUT /v1/payout-schedule: the interval is always named; a field left out keeps its current value (the stored one, or
 * the default). An anchor belongs to its interval: given with another, it is refused, not ignored.
 */
export const updateScheduleSchema = z.object({
  currency: upperCased(currencyField),
  interval: z.enum(PAYOUT_INTERVALS, { error: 'must be daily, weekly, monthly or manual' }),
  weeklyAnchor: z.enum(WEEKDAYS, { error: 'must be a weekday in lower case, e.g. friday' }).nullish(),
  monthlyAnchor: z.number({ error: 'must be a whole number from 1 to 31' }).int('must be a whole number from 1 to 31').min(1).max(31).nullish(),
  delayDays: z
    .number({ error: `must be a whole number from 0 to ${MAX_DELAY_DAYS}` })
    .int(`must be a whole number from 0 to ${MAX_DELAY_DAYS}`)
    .min(0)
    .max(MAX_DELAY_DAYS)
    .optional(),
  cutoffTime: z.string({ error: 'must be a time as HH:MM (24 h), e.g. 16:00' }).regex(CUTOFF_TIME, 'must be a time as HH:MM (24 h), e.g. 16:00').optional(),
  timeZone: z.string({ error: 'must be an IANA time zone, e.g. Africa/Lagos' }).min(1).max(64).optional(),
});
export type UpdateScheduleCommand = Command<typeof updateScheduleSchema>;
