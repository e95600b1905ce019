import { z } from 'zod';
import countryZones from '../../payouts/schedule/country-zones.json';
import { canonicalTimeZone } from '../../payouts/schedule/zoned-time';
import { addBusinessHours, businessDayProblem, type BusinessDay } from './business-hours';
import deadlineFile from './dispute-deadlines.json';

/**
 * When a dispute's evidence is due: the country's response window, counted on its business-hour clock in the
 * country's zone. The table is data (dispute-deadlines.json, with its source); the zones are the payout schedule's.
 * Paystack's support pages define the clock definitely (whole weekdays, weekends paused); Flutterwave's "working
 * hours" are not defined, so the table follows Paystack.
 */

/** One country's rule, ready to count. */
export interface DeadlineRule {
  country: string;
  zone: string;
  windowHours: number;
  businessDay: BusinessDay;
}

export type DeadlineTable = ReadonlyMap<string, DeadlineRule>;

const businessDaySchema = z
  .object({
    start: z.string(),
    end: z.string(),
    weekdays: z.array(z.number().int()).min(1),
  })
  .strict()
  .superRefine((day, ctx) => {
    const problem = businessDayProblem(day);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const tableFileSchema = z
  .object({
    source: z.string().min(1),
    notes: z.string().min(1),
    business_day: businessDaySchema,
    countries: z.record(
      z.string().regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code in capitals'),
      z
        .object({
          window_hours: z
            .number()
            .positive()
            .max(24 * 7 * 4),
          business_day: businessDaySchema.optional(),
        })
        .strict(),
    ),
  })
  .strict();

/**
 * Parses the deadline table against the country zones; throws a plain Error naming every problem, so a bad table
 * stops the service at start-up instead of giving a wrong deadline later.
 */
export function parseDeadlineTable(raw: unknown, zones: Readonly<Record<string, string>>): DeadlineTable {
  const parsed = tableFileSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new Error(`dispute-deadlines.json is invalid: ${problems}`);
  }
  const problems: string[] = [];
  const rules = new Map<string, DeadlineRule>();
  for (const [country, entry] of Object.entries(parsed.data.countries)) {
    const zone = zones[country];
    if (!zone) problems.push(`${country} has no time zone in country-zones.json`);
    else if (canonicalTimeZone(zone) === null) problems.push(`${country}: zone ${zone} is unknown to this platform`);
    else rules.set(country, { country, zone, windowHours: entry.window_hours, businessDay: entry.business_day ?? parsed.data.business_day });
  }
  for (const country of Object.keys(zones)) {
    if (!(country in parsed.data.countries)) problems.push(`${country} has a time zone but no deadline`);
  }
  if (problems.length > 0) throw new Error(`dispute-deadlines.json is invalid: ${problems.join('; ')}`);
  return rules;
}

/** The bundled table, read once at load. */
export const DISPUTE_DEADLINES: DeadlineTable = parseDeadlineTable(deadlineFile, countryZones.zones);

/** The rule for a country code ('NG'); throws for a country the service does not support. */
export function deadlineRuleOf(country: string, table: DeadlineTable = DISPUTE_DEADLINES): DeadlineRule {
  const rule = table.get(country);
  if (!rule) throw new RangeError(`no dispute deadline for country ${country}`);
  return rule;
}

/** When evidence for a dispute opened at `openedAt` is due, on the country's business-hour clock. */
export function evidenceDueBy(country: string, openedAt: Date, table: DeadlineTable = DISPUTE_DEADLINES): Date {
  const rule = deadlineRuleOf(country, table);
  return addBusinessHours(openedAt, rule.windowHours, rule.zone, rule.businessDay);
}

/** How long before the deadline `dispute.evidence_due_soon` fires, in elapsed hours (not business hours). */
const REMINDER_HOURS_BEFORE = [24, 4] as const;

/**
 * The moments the due-soon reminders fire: 24 h and 4 h of elapsed time before `dueBy`, earliest first. A moment
 * before `openedAt` is left out: a short window (16 business hours can be 16 real hours) has no 24 h reminder.
 */
export function reminderTimes(dueBy: Date, openedAt: Date): Date[] {
  return REMINDER_HOURS_BEFORE.map((h) => new Date(dueBy.getTime() - h * 3_600_000)).filter((t) => t.getTime() >= openedAt.getTime());
}
