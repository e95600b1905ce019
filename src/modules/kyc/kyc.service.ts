import { LockMode } from '@mikro-orm/core';
import { z } from 'zod';
import type { Orm } from '../../db/orm';
import { JobName, type JobRunner } from '../../jobs/job-runner';
import type { KycReviewer } from '../../providers/kyc-reviewer';
import type { Clock } from '../../shared/clock';
import type { SecretBox } from '../../shared/crypto';
import type { Logger } from '../../shared/logger';
import { parseInput } from '../../shared/validation';
import { Customer } from '../customers/customer.entity';
import type { CustomerService } from '../customers/customer.service';
import { publishAfterCommit } from '../../events/merchant-events';
import { Topic, type PubSub } from '../../events/pubsub';
import { AppError } from '../../shared/errors';
import type { Outbox } from '../outbox/outbox';
import { KycSubmission } from './kyc-submission.entity';
import { serializeKycRecord } from './kyc.serializer';
import { nextKycStatus, overallKycStatus, type KycStatus } from './kyc.state';

const isoDate = z.string({ error: 'is required' }).regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as YYYY-MM-DD');
const required = (max: number) => z.string({ error: 'is required' }).trim().min(1, 'must not be empty').max(max);

export const submitKycSchema = z.object({
  id_type: z.enum(['passport', 'national_id', 'drivers_license'], { error: 'must be passport, national_id or drivers_license' }),
  id_number: required(64),
  id_country: z.string({ error: 'is required' }).regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code'),
  date_of_birth: isoDate,
  address: z.object(
    {
      line1: required(200),
      city: required(100),
      country_code: z.string({ error: 'is required' }).regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code'),
      postal_code: z.string().trim().max(20).optional(),
    },
    { error: 'is required' },
  ),
});

/** The KYC status record (GET /v1/customer/{uuid}/kyc), also the payload of KYC events. */
export interface KycRecord {
  customerUuid: string;
  merchantId: string;
  kycStatus: KycStatus;
  overallKycStatus: KycStatus;
  submittedAt: Date | null;
  reviewedAt: Date | null;
  rejectionReason: string | null;
}

export class KycService {
  constructor(
    private readonly orm: Orm,
    private readonly clock: Clock,
    private readonly customers: CustomerService,
    private readonly reviewer: KycReviewer,
    private readonly jobs: JobRunner,
    private readonly outbox: Outbox,
    private readonly pubsub: PubSub,
    private readonly secretBox: SecretBox,
    private readonly reviewDelayMs: number,
    private readonly logger: Logger,
  ) {}

  /**
   * Submits KYC: load → check the transition → save the submission and the new
   * status, and schedule its review, in one transaction.
   */
  async submitKyc(merchantId: string, customerUuid: string, input: unknown): Promise<KycRecord> {
    await this.customers.getCustomer(merchantId, customerUuid); // NOT_FOUND before validation details leak anything
    const body = parseInput(submitKycSchema, input);
    const now = this.clock.now();
    const record = await this.orm.em.fork().transactional(async (em) => {
      const customer = await em.findOneOrFail(Customer, { id: customerUuid, merchantId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      customer.kycStatus = nextKycStatus(customer.kycStatus, 'submit');
      customer.updatedAt = now;
      const submission = em.create(KycSubmission, {
        customerId: customer.id,
        merchantId,
        idType: body.id_type,
        idNumberSealed: this.secretBox.seal(body.id_number),
        idNumberLast4: body.id_number.slice(-4),
        idCountry: body.id_country,
        dateOfBirth: body.date_of_birth,
        address: body.address,
        status: 'pending',
        submittedAt: now,
      });
      await em.flush();
      await this.jobs.enqueue(em, { name: JobName.KycReview, payload: { submissionId: submission.id }, delayMs: this.reviewDelayMs, key: `kyc-review:${submission.id}` });
      return this.toRecord(customer, submission);
    });
    this.jobs.wake();
    publishAfterCommit(this.pubsub, this.logger, Topic.KycStatusChanged, { merchantId, customerUuid });
    return record;
  }

  async getKyc(merchantId: string, customerUuid: string): Promise<KycRecord> {
    const customer = await this.customers.getCustomer(merchantId, customerUuid);
    const latest = await this.orm.em.findOne(KycSubmission, { customerId: customer.id }, { orderBy: { submittedAt: 'desc' } });
    return this.toRecord(customer, latest);
  }

  /**
   * The review job. Idempotent: a job run twice (a worker died after committing)
   * finds the submission decided and does nothing, so each decision and its event
   * happen exactly once.
   */
  async reviewSubmission(submissionId: string): Promise<void> {
    const em = this.orm.em.fork();
    const pending = await em.findOne(KycSubmission, { id: submissionId });
    if (!pending || pending.status !== 'pending') return;
    const decision = await this.reviewer.review({
      idType: pending.idType,
      idNumber: this.secretBox.open(pending.idNumberSealed),
      idCountry: pending.idCountry,
      dateOfBirth: pending.dateOfBirth,
    });
    const decided = await em.transactional(async (tx) => {
      const submission = await tx.findOneOrFail(KycSubmission, { id: submissionId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (submission.status !== 'pending') return null;
      const customer = await tx.findOneOrFail(Customer, { id: submission.customerId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      const now = this.clock.now();
      const approved = decision.outcome === 'approved';
      customer.kycStatus = nextKycStatus(customer.kycStatus, approved ? 'approve' : 'reject');
      customer.updatedAt = now;
      submission.status = approved ? 'approved' : 'rejected';
      submission.rejectionReason = decision.outcome === 'rejected' ? decision.reason : null;
      submission.reviewedAt = now;
      const record = this.toRecord(customer, submission);
      await this.outbox.record(tx, {
        merchantId: customer.merchantId,
        type: approved ? 'customer.kyc.approved' : 'customer.kyc.rejected',
        subjectId: customer.id,
        payload: serializeKycRecord(record),
      });
      this.logger.info({ merchantId: customer.merchantId, customerUuid: customer.id, outcome: decision.outcome }, 'KYC reviewed');
      return record;
    });
    if (decided) this.jobs.wake();
    if (decided) publishAfterCommit(this.pubsub, this.logger, Topic.KycStatusChanged, { merchantId: decided.merchantId, customerUuid: decided.customerUuid });
  }

  /** The KYC record on its own EntityManager (for subscriptions, outside any request). */
  async getKycDetached(merchantId: string, customerUuid: string): Promise<KycRecord> {
    const em = this.orm.em.fork();
    const customer = await em.findOne(Customer, { id: customerUuid, merchantId });
    if (!customer) throw AppError.notFound('Customer');
    const latest = await em.findOne(KycSubmission, { customerId: customer.id }, { orderBy: { submittedAt: 'desc' } });
    return this.toRecord(customer, latest);
  }

  private toRecord(customer: Customer, submission: KycSubmission | null): KycRecord {
    return {
      customerUuid: customer.id,
      merchantId: customer.merchantId,
      kycStatus: customer.kycStatus,
      overallKycStatus: overallKycStatus(customer.kycStatus),
      submittedAt: submission?.submittedAt ?? null,
      reviewedAt: submission?.reviewedAt ?? null,
      rejectionReason: submission?.rejectionReason ?? null,
    };
  }
}
