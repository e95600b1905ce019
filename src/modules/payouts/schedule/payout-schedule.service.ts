import type { PaymentsEnv } from '../../../config';
import type { Orm } from '../../../db/orm';
import type { Sql } from '../../../db/sql';
import type { Clock } from '../../../shared/clock';
import { AppError } from '../../../shared/errors';
import { Decimal } from '../../../shared/money';
import { parseInput } from '../../../shared/validation';
import type { AuditContext, AuditLog } from '../../audit/audit-log';
import type { ReferenceService } from '../../reference/reference.service';
import countryZones from './country-zones.json';
import { coversUpTo, latestCutoff, nextCutoff, type PayoutInterval, type PayoutSchedule, type Weekday } from './schedule.rules';
import { scheduleQuerySchema, updateScheduleSchema, type ScheduleQuery, type UpdateScheduleCommand } from './schedule.schemas';
import { canonicalTimeZone } from './zoned-time';

/** What PayoutScheduleService is built with (the composition root passes it). */
export interface PayoutScheduleDeps {
  orm: Orm;
  sql: Sql;
  clock: Clock;
  audit: AuditLog;
  reference: ReferenceService;
  env: PaymentsEnv;
  /** Per currency, in major units (config.payoutMinimums). */
  minimums: Readonly<Record<string, string>>;
}

/** A schedule as the doors show it: the schedule, when it next pays, and whether it is the merchant's own or the default. */
export interface PayoutScheduleView {
  schedule: PayoutSchedule;
  nextPayoutAt: Date | null;
  isDefault: boolean;
}

const ZONES: Readonly<Record<string, string>> = countryZones.zones;
const DEFAULT_CUTOFF = '16:00';

interface Row {
  interval: PayoutInterval;
  weekly_anchor: Weekday | null;
  monthly_anchor: number | null;
  delay_days: number;
  cutoff_time: string;
  time_zone: string;
}

/**
 * When each merchant is paid, per currency (issue 38; docs/payouts.md, "Schedules"): a merchant's own schedule, or the
 * default. The payout run reads `schedule` and the pure rules (schedule.rules.ts) decide its windows.
 */
export class PayoutScheduleService {
  constructor(private readonly deps: PayoutScheduleDeps) {}

  /** The merchant's schedule in the currency, or the default (stored or not). */
  async schedule(merchantId: string, currency: string): Promise<PayoutSchedule> {
    return (await this.load(merchantId, this.supported(currency))).schedule;
  }

  /** The payout run's question: the window due at `now` (the latest cut-off's), what it covers and the least it pays; null when manual. */
  async dueWindow(merchantId: string, currency: string, now: Date): Promise<{ windowKey: string; coversUpTo: Date; minimum: Decimal } | null> {
    const schedule = await this.schedule(merchantId, currency);
    const latest = latestCutoff(schedule, now);
    return latest && { windowKey: latest.windowKey, coversUpTo: coversUpTo(schedule, latest.cutoff), minimum: schedule.minimumAmount };
  }

  /** The next cut-off after `now` and what it would cover; null when manual. */
  async nextWindow(merchantId: string, currency: string, now: Date): Promise<{ at: Date; coversUpTo: Date; minimum: Decimal } | null> {
    const schedule = await this.schedule(merchantId, currency);
    const at = nextCutoff(schedule, now);
    return at && { at, coversUpTo: coversUpTo(schedule, at), minimum: schedule.minimumAmount };
  }

  /** The least paid out at once in a currency (PAYOUT_MINIMUMS): a manual payout's floor too. */
  minimum(currency: string): Decimal {
    return new Decimal(this.deps.minimums[currency] ?? '0');
  }

  /** GET: the schedule with its next cut-off. */
  async view(merchantId: string, query: ScheduleQuery): Promise<PayoutScheduleView> {
    const { currency } = parseInput(scheduleQuerySchema, query);
    return this.viewOf(await this.load(merchantId, this.supported(currency)));
  }

  /** PUT: sets the merchant's schedule in a currency; a change (and only a change) writes one `payout_schedule.changed` entry. */
  async update(merchantId: string, command: UpdateScheduleCommand, audit?: AuditContext): Promise<PayoutScheduleView> {
    const body = parseInput(updateScheduleSchema, command);
    const currency = this.supported(body.currency);
    const timeZone = body.timeZone === undefined ? undefined : canonicalTimeZone(body.timeZone);
    if (timeZone === null) throw AppError.invalidField('timeZone', 'must be an IANA time zone, e.g. Africa/Lagos');
    if (body.interval !== 'weekly' && body.weeklyAnchor != null) throw AppError.invalidField('weeklyAnchor', 'applies to a weekly schedule only');
    if (body.interval !== 'monthly' && body.monthlyAnchor != null) throw AppError.invalidField('monthlyAnchor', 'applies to a monthly schedule only');
    return this.deps.orm.em.fork().transactional(async (em) => {
      // The merchant, locked (no key update: inserts that reference it go on): two changes at once, even the first two
      // when no row exists yet, apply one after the other, each audited against what it replaced.
      const merchant = await em.execute<Array<{ id: string }>>('select id from merchant where id = ? for no key update', [merchantId]);
      if (merchant.length === 0) throw AppError.notFound('Merchant');
      const rows = await em.execute<Row[]>(
        'select interval, weekly_anchor, monthly_anchor, delay_days, cutoff_time, time_zone from payout_schedule where merchant_id = ? and currency = ?',
        [merchantId, currency],
      );
      const before = await this.load(merchantId, currency, rows[0]);
      const current = before.schedule;
      const keep = <T>(given: T | null | undefined, interval: PayoutInterval, held: T | null): T | null =>
        given ?? (current.interval === interval ? held : null);
      const after: PayoutSchedule = {
        ...current,
        interval: body.interval,
        weeklyAnchor: body.interval === 'weekly' ? keep(body.weeklyAnchor, 'weekly', current.weeklyAnchor) : null,
        monthlyAnchor: body.interval === 'monthly' ? keep(body.monthlyAnchor, 'monthly', current.monthlyAnchor) : null,
        delayDays: body.delayDays ?? current.delayDays,
        cutoffTime: body.cutoffTime ?? current.cutoffTime,
        timeZone: timeZone ?? current.timeZone,
      };
      if (after.interval === 'weekly' && after.weeklyAnchor === null) throw AppError.invalidField('weeklyAnchor', 'is required for a weekly schedule');
      if (after.interval === 'monthly' && after.monthlyAnchor === null) throw AppError.invalidField('monthlyAnchor', 'is required for a monthly schedule');
      const changed = before.isDefault || JSON.stringify(record(current)) !== JSON.stringify(record(after));
      if (changed) {
        await em.execute(
          `insert into payout_schedule (merchant_id, currency, interval, weekly_anchor, monthly_anchor, delay_days, cutoff_time, time_zone, updated_at, updated_by)
           values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           on conflict (merchant_id, currency) do update set interval = excluded.interval, weekly_anchor = excluded.weekly_anchor,
             monthly_anchor = excluded.monthly_anchor, delay_days = excluded.delay_days, cutoff_time = excluded.cutoff_time,
             time_zone = excluded.time_zone, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
          [
            merchantId,
            currency,
            after.interval,
            after.weeklyAnchor,
            after.monthlyAnchor,
            after.delayDays,
            after.cutoffTime,
            after.timeZone,
            this.deps.clock.now(),
            audit ? (audit.actor.id ?? audit.actor.type) : null,
          ],
        );
        if (audit) {
          await this.deps.audit.recordOn(em, {
            merchantId,
            ...audit,
            action: 'payout_schedule.changed',
            target: { type: 'payout_schedule', id: currency },
            before: { ...record(current), default: before.isDefault },
            after: record(after),
          });
        }
      }
      return this.viewOf({ schedule: after, isDefault: false });
    });
  }

  private viewOf({ schedule, isDefault }: { schedule: PayoutSchedule; isDefault: boolean }): PayoutScheduleView {
    return { schedule, isDefault, nextPayoutAt: nextCutoff(schedule, this.deps.clock.now()) };
  }

  /** A currency the service has (its minor unit known), or 400 naming `currency`. */
  private supported(currency: string): string {
    if (this.deps.reference.currencyMinorUnit(currency) === undefined) throw AppError.invalidField('currency', 'is not a supported currency');
    return currency;
  }

  /** The stored schedule (`row`, when the caller read it already), else the default. */
  private async load(merchantId: string, currency: string, row?: Row): Promise<{ schedule: PayoutSchedule; isDefault: boolean }> {
    const minimumAmount = this.minimum(currency);
    const stored =
      row ??
      (
        await this.deps.sql.query<Row>(
          'select interval, weekly_anchor, monthly_anchor, delay_days, cutoff_time, time_zone from payout_schedule where merchant_id = $1 and currency = $2',
          [merchantId, currency],
          'payout_schedule',
        )
      )[0];
    if (stored) {
      const schedule: PayoutSchedule = {
        merchantId,
        currency,
        interval: stored.interval,
        weeklyAnchor: stored.weekly_anchor,
        monthlyAnchor: stored.monthly_anchor,
        delayDays: stored.delay_days,
        cutoffTime: stored.cutoff_time,
        timeZone: stored.time_zone,
        minimumAmount,
      };
      return { schedule, isDefault: false };
    }
    const [merchant] = await this.deps.sql.query<{ country: string | null }>(
      'select country from merchant where id = $1',
      [merchantId],
      'payout_schedule_country',
    );
    if (!merchant) throw AppError.notFound('Merchant');
    const schedule: PayoutSchedule = {
      merchantId,
      currency,
      // Daily in both environments: a merchant who added a destination expects to be paid without asking.
      interval: 'daily',
      weeklyAnchor: null,
      monthlyAnchor: null,
      // Production holds funds a day (T+1, as Flutterwave settles local payments); the sandbox pays at once.
      delayDays: this.deps.env === 'production' ? 1 : 0,
      cutoffTime: DEFAULT_CUTOFF,
      timeZone: (merchant.country && ZONES[merchant.country]) || 'UTC',
      minimumAmount,
    };
    return { schedule, isDefault: true };
  }
}

/** A schedule's settable fields, as the audit log records them. */
function record(s: PayoutSchedule): Record<string, unknown> {
  return {
    interval: s.interval,
    weekly_anchor: s.weeklyAnchor,
    monthly_anchor: s.monthlyAnchor,
    delay_days: s.delayDays,
    cutoff_time: s.cutoffTime,
    time_zone: s.timeZone,
  };
}
