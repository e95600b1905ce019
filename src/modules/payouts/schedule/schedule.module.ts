import { defineModule, type ModuleInfra } from '../../module';
import type { AuditLog } from '../../audit/audit-log';
import type { ReferenceService } from '../../reference/reference.service';
import { PayoutScheduleService } from './payout-schedule.service';

/** Payout schedules (issue 38): when each merchant is paid, per currency. The payouts module builds on it. */
export const payoutScheduleModule = defineModule({
  name: 'payoutSchedule',
  create: ({ orm, sql, clock, config }: ModuleInfra, { audit, reference }: { audit: AuditLog; reference: ReferenceService }) => {
    const payoutSchedules = new PayoutScheduleService({ orm, sql, clock, audit, reference, env: config.env, minimums: config.payoutMinimums });
    return { services: { payoutSchedules } };
  },
});
