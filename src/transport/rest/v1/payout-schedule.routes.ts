import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { PayoutScheduleService, PayoutScheduleView } from '../../../modules/payouts/schedule/payout-schedule.service';
import { PAYOUT_INTERVALS, WEEKDAYS } from '../../../modules/payouts/schedule/schedule.rules';
import { scheduleQuerySchema, updateScheduleSchema } from '../../../modules/payouts/schedule/schedule.schemas';
import { toJsonMoney } from '../../../shared/money';
import { currency, money, nullableTimestamp, record } from '../../../shared/records';
import { auditOf } from '../audit-context';
import { authOf } from '../auth';
import { fromRest } from '../field-names';
import { operation } from '../openapi/operation';

/** The services this file calls (the composition root passes them). */
type UsedServices = { payoutSchedules: PayoutScheduleService };

const PayoutScheduleRecord = record(
  'PayoutSchedule',
  z.object({
    currency,
    interval: z.enum(PAYOUT_INTERVALS).describe('daily, weekly (on weekly_anchor), monthly (on monthly_anchor) or manual (only when you ask)'),
    weekly_anchor: z.enum(WEEKDAYS).nullable().describe('Weekly: the weekday of the cut-off; else null'),
    monthly_anchor: z.int().min(1).max(31).nullable().describe('Monthly: the date of the cut-off (a month without it pays on its last day); else null'),
    delay_days: z.int().min(0).max(30).describe('A balance change is paid in the first window whose cut-off is at least this many days after it was posted'),
    cutoff_time: z.string().describe('HH:MM (24 h) in time_zone: a window closes then'),
    time_zone: z.string().describe('An IANA time zone, e.g. Africa/Lagos'),
    minimum_amount: money.describe('The least paid out at once in this currency (set by the service’s configuration, not by you)'),
    next_payout_at: nullableTimestamp.describe('The next cut-off; null for a manual schedule'),
    is_default: z.boolean().describe('true: you have not set a schedule in this currency, and this is the default'),
  }),
  'When your balance in one currency is paid out to you (docs/payouts.md, “Schedules”).',
);

const serialize = ({ schedule: s, nextPayoutAt, isDefault }: PayoutScheduleView) => ({
  currency: s.currency,
  interval: s.interval,
  weekly_anchor: s.weeklyAnchor,
  monthly_anchor: s.monthlyAnchor,
  delay_days: s.delayDays,
  cutoff_time: s.cutoffTime,
  time_zone: s.timeZone,
  minimum_amount: toJsonMoney(s.minimumAmount),
  next_payout_at: nextPayoutAt?.toISOString() ?? null,
  is_default: isDefault,
});

const getPayoutSchedule = operation({
  operationId: 'getPayoutSchedule',
  tag: 'Payouts',
  access: 'bearer',
  permission: 'balances:read',
  summary: 'Your payout schedule in one currency',
  description: 'Yours, or the default when you have not set one (`is_default`). GraphQL: payoutSchedule.',
  query: scheduleQuerySchema,
  ok: { message: 'Payout schedule retrieved', data: PayoutScheduleRecord },
});

const setPayoutSchedule = operation({
  operationId: 'setPayoutSchedule',
  tag: 'Payouts',
  access: 'bearer',
  permission: 'payouts:manage',
  summary: 'Set your payout schedule in one currency',
  description:
    'interval is always given; a field left out keeps its current value. weekly_anchor belongs to a weekly schedule and monthly_anchor to a monthly one: either given with another interval is a 400 naming it. People only: an API key cannot change where or when money goes. GraphQL: updatePayoutSchedule.',
  body: {
    name: 'PayoutScheduleRequest',
    schema: updateScheduleSchema,
    example: { currency: 'NGN', interval: 'weekly', weekly_anchor: 'friday', delay_days: 1, cutoff_time: '16:00', time_zone: 'Africa/Lagos' },
  },
  ok: { message: 'Payout schedule saved', data: PayoutScheduleRecord },
});

/** Payout schedules (issue 38); bearer-protected. */
export async function payoutScheduleRoutes(app: FastifyInstance, { services }: { services: UsedServices }) {
  app.get('/payout-schedule', getPayoutSchedule.route, async (request, reply) => {
    return getPayoutSchedule.send(reply, serialize(await services.payoutSchedules.view(authOf(request).merchantId, fromRest(request.query))));
  });

  app.put('/payout-schedule', setPayoutSchedule.route, async (request, reply) => {
    const saved = await services.payoutSchedules.update(authOf(request).merchantId, fromRest(request.body), auditOf(request));
    return setPayoutSchedule.send(reply, serialize(saved));
  });
}
