import type { PublicAddress } from '../../shared/public-address';
import type { FeeSchedule } from '../ledger/fee-schedule';
import type { Mailer } from '../mail/mailer';
import { defineModule, type ModuleInfra } from '../module';
import type { ReferenceService } from '../reference/reference.service';
import type { TransactionLifecycle } from '../transactions/lifecycle.service';
import type { TransactionQueries } from '../transactions/queries.service';
import { payoutFailureSql } from './payout.follow-ups';
import { PAYOUT_JOBS, type PayoutJobQueue } from './payout.jobs';
import { PayoutNotices } from './payout.notices';
import { PayoutRuns } from './payout.runs';
import { PayoutService, type PayoutDestinations, type PayoutSchedules } from './payout.service';
import { PayoutStore } from './payout.store';

type PayoutsInfra = Pick<ModuleInfra, 'sql' | 'clock' | 'logger' | 'config' | 'faults'> & { jobs: PayoutJobQueue };

interface PayoutsDeps {
  reference: ReferenceService;
  fees: FeeSchedule;
  mailer: Mailer;
  publicAddress: PublicAddress;
  transactions: Pick<TransactionLifecycle, 'initiate'>;
  transactionQueries: Pick<TransactionQueries, 'getTransaction'>;
  destinations: PayoutDestinations;
  schedules: PayoutSchedules;
}

/**
 * Payouts to the merchant's own account (issue 38, docs/payouts.md): the run (a chain of one-minute slots, one per
 * slot in the whole cluster) pays each due schedule window once; a payout's failure emails the owners, from the
 * failure's own statement (the outbox follow-up).
 */
export const payoutsModule = defineModule({
  name: 'payouts',
  jobs: PAYOUT_JOBS,
  outboxFollowUps: ({ jobs }: Pick<PayoutsInfra, 'jobs'>) => payoutFailureSql(jobs),
  create: (infra: PayoutsInfra, deps: PayoutsDeps) => {
    const { sql, clock, logger, jobs, config, faults } = infra;
    const { reference, fees, mailer, publicAddress, transactions, transactionQueries, destinations, schedules } = deps;
    const store = new PayoutStore({ sql, networkName: (id) => reference.network(id)?.name ?? null });
    const payouts = new PayoutService({
      store,
      lifecycle: transactions,
      queries: transactionQueries,
      destinations,
      schedules,
      fees,
      reference,
      clock,
      logger,
      faults,
    });
    const payoutRuns = new PayoutRuns({ jobs, payouts, everyMs: config.payoutRunIntervalS * 1000 });
    const payoutNotices = new PayoutNotices({ sql, mailer, payouts, publicAddress, logger });
    return { services: { payouts, payoutRuns, payoutNotices }, start: () => payoutRuns.start() };
  },
});
