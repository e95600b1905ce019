import type { PublicAddress } from '../../shared/public-address';
import { publishAfterCommit } from '../../events/merchant-events';
import type { AuditLog } from '../audit/audit-log';
import type { FeeSchedule } from '../ledger/fee-schedule';
import { LedgerTopic } from '../ledger/ledger.topics';
import type { Mailer } from '../mail/mailer';
import { defineModule, type ModuleInfra } from '../module';
import type { Outbox } from '../outbox/outbox';
import type { ReferenceService } from '../reference/reference.service';
import type { TransactionQueries } from '../transactions/queries.service';
import { DISPUTE_JOBS, type DisputeJobQueue } from './dispute.jobs';
import { DisputeNotices } from './dispute.notices';
import { disputeToWire } from './dispute.record';
import { DisputeService, type DisputeAnswers, type EvidenceFiles } from './dispute.service';
import { DisputeStore } from './dispute.store';
import { DisputeSweeps } from './dispute.sweeps';
import { DisputeTopic } from './dispute.topics';

type DisputesInfra = Pick<ModuleInfra, 'sql' | 'clock' | 'logger' | 'config' | 'pubsub'> & { jobs: DisputeJobQueue };

interface DisputesDeps {
  reference: ReferenceService;
  fees: FeeSchedule;
  mailer: Mailer;
  publicAddress: PublicAddress;
  outbox: Outbox;
  audit: AuditLog;
  transactionQueries: TransactionQueries;
  files: EvidenceFiles;
  /** The providers' side: answers sent on, and the poll of their disputes (docs/disputes.md). */
  providers: DisputeAnswers & { poll(): Promise<void> };
}

/**
 * Disputes and chargebacks (issue 39, docs/disputes.md): the dispute, its money (a hold, reinstated or paid out), the
 * merchant's answer, the deadlines (a sweep: reminders, automatic acceptance), the sandbox's triggers.
 */
export const disputesModule = defineModule({
  name: 'disputes',
  jobs: DISPUTE_JOBS,
  topics: [DisputeTopic.Changed],
  create: (infra: DisputesInfra, deps: DisputesDeps) => {
    const { sql, clock, logger, jobs, config, pubsub } = infra;
    const { reference, fees, mailer, publicAddress, outbox, audit, transactionQueries, files, providers } = deps;
    const minorUnit = (currency: string) => reference.currencyMinorUnit(currency) ?? 2;
    const disputeNotices = new DisputeNotices({ sql, mailer, publicAddress, logger, minorUnit });
    const disputes = new DisputeService({
      store: new DisputeStore({ sql, outbox }),
      sql,
      outbox,
      queries: transactionQueries,
      fees,
      reference,
      audit,
      files,
      answers: providers,
      clock,
      logger,
      sandbox: config.env === 'sandbox',
      remind: (d) => disputeNotices.dueSoon(d),
      afterCommit: (d, write) => {
        // The change's webhook deliveries were added without a notification (several statements in one transaction).
        if (write.events.length > 0) jobs.wake();
        publishAfterCommit(pubsub, logger, DisputeTopic.Changed, { merchantId: d.merchantId, dispute: disputeToWire(d) });
        if (write.moves.length > 0) publishAfterCommit(pubsub, logger, LedgerTopic.BalanceChanged, { merchantId: d.merchantId, currency: d.currency });
      },
    });
    const disputeSweeps = new DisputeSweeps({ jobs, disputes, poll: () => providers.poll(), everyMs: config.disputeSweepIntervalS * 1000, logger });
    return { services: { disputes, disputeSweeps, disputeNotices }, start: () => disputeSweeps.start() };
  },
});
