import { ManualKycReviewer } from '../../providers/manual-kyc-reviewer';
import { SandboxKycReviewer } from '../../providers/sandbox/sandbox-kyc-reviewer';
import type { AuditLog } from '../audit/audit-log';
import type { CustomerService } from '../customers/customer.service';
import { defineModule, type ModuleInfra } from '../module';
import type { Outbox } from '../outbox/outbox';
import { KYC_JOBS, type KycJobQueue } from './kyc.jobs';
import { KycService } from './kyc.service';
import { KycTopic } from './kyc.topics';

/** Customers' KYC: submissions, their review (a job), decisions with their events. */
export const kycModule = defineModule({
  name: 'kyc',
  jobs: KYC_JOBS,
  topics: Object.values(KycTopic),
  create: (
    infra: Pick<ModuleInfra, 'config' | 'orm' | 'clock' | 'pubsub' | 'secretBox' | 'logger'> & { jobs: KycJobQueue },
    { customers, outbox, audit }: { customers: CustomerService; outbox: Outbox; audit: AuditLog },
  ) => {
    const { config, orm, clock, pubsub, secretBox, logger, jobs } = infra;
    const sandbox = config.env === 'sandbox';
    // Sandbox: the id_number rule decides after SANDBOX_KYC_DELAY_MS. Production: operators decide (docs/kyc-review.md).
    const reviewer = sandbox ? new SandboxKycReviewer() : new ManualKycReviewer();
    const kyc = new KycService({
      orm,
      clock,
      customers,
      reviewer,
      jobs,
      outbox,
      pubsub,
      secretBox,
      reviewDelayMs: sandbox ? config.sandboxKycDelayMs : 0,
      logger,
      audit,
    });
    return { services: { kyc } };
  },
});
