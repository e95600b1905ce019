import { LockMode } from '@mikro-orm/core';
import { z } from 'zod';
import type { Orm } from '../../db/orm';
import type { KycReviewer } from '../../providers/kyc-reviewer';
import type { Clock } from '../../shared/clock';
import type { SecretBox } from '../../shared/crypto';
import type { Logger } from '../../shared/logger';
import { countryCodeField, isoDateField, optionalText, requiredIdentifier, requiredText } from '../../shared/fields';
import { encodeCursor, decodeCursor, pageRequestSchema, type Page, type PageQuery, UUID_ID } from '../../shared/pagination';
import { parseInput, type Command } from '../../shared/validation';
import type { AuditActor, AuditLog, RequestOrigin } from '../audit/audit-log';
import { Customer } from '../customers/customer.entity';
import type { CustomerService } from '../customers/customer.service';
import { publishAfterCommit } from '../../events/merchant-events';
import type { PubSub } from '../../events/pubsub';
import { KycTopic } from './kyc.topics';
import { AppError } from '../../shared/errors';
import type { Outbox } from '../outbox/outbox';
import { KycSubmission } from './kyc-submission.entity';
import { KycJob, type KycJobQueue } from './kyc.jobs';
import {
  decisionSchema,
  deciderLabel,
  operatorDecisionSchema,
  type OperatorDecisionCommand,
  parseSubmissionId,
  toSummary,
  type KycDecider,
  type KycSubmissionDetail,
  type KycSubmissionSummary,
} from './kyc-review.inputs';
import { serializeKycRecord } from './kyc.serializer';
import { ID_TYPES, ID_TYPE_ISSUE, readIdDocument } from './id-documents';
import { nextKycStatus, overallKycStatus, type KycStatus } from './kyc.state';

/** The fields a document's own rules read: they are checked against the table only once each is valid on its own. */
const ID_DOCUMENT_FIELDS = new Set<PropertyKey>(['idType', 'idNumber', 'idCountry']);

/**
 * CONTRACT §4's KYC submission, in the domain's names. A local document (id-documents.ts) must be
 * of its own country and in its format (a refinement: the schema stays an object, whose fields the
 * OpenAPI document and the junk tests walk); the service keeps its number in its one form.
 */
export const submitKycSchema = z
  .object({
    idType: z.enum(ID_TYPES, { error: ID_TYPE_ISSUE }),
    // An identity number is digits by nature (a South African one is 13 with a Luhn check digit): no card-number rule.
    idNumber: requiredIdentifier(64),
    idCountry: countryCodeField,
    dateOfBirth: isoDateField,
    address: z.object(
      {
        line1: requiredText(200),
        city: requiredText(100),
        countryCode: countryCodeField,
        postalCode: optionalText(20),
      },
      { error: 'is required' },
    ),
  })
  .superRefine(
    (body, ctx) => {
      for (const { field, issue } of readIdDocument(body.idType, body.idNumber, body.idCountry).issues) {
        ctx.addIssue({ code: 'custom', path: [field], message: issue });
      }
    },
    // Also when another field (the address) is wrong, so one answer names every problem; not when the body is no object.
    { when: (payload) => !payload.issues.some((issue) => !issue.path?.length || ID_DOCUMENT_FIELDS.has(issue.path[0]!)) },
  );
export type SubmitKycCommand = Command<typeof submitKycSchema>;

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

/** What KycService is built with (the composition root passes it). */
export interface KycServiceDeps {
  orm: Orm;
  clock: Clock;
  customers: CustomerService;
  reviewer: KycReviewer;
  jobs: KycJobQueue;
  outbox: Outbox;
  pubsub: PubSub;
  secretBox: SecretBox;
  reviewDelayMs: number;
  logger: Logger;
  /** The audit log's writer: every decision writes `kyc.decided`. */
  audit: AuditLog;
}

/** The audit log's actor of a decision: the operator (named when they said who they are), or the reviewer as the system. */
function deciderActor(by: KycDecider): AuditActor {
  if (by.kind === 'reviewer') return { type: 'system', label: `reviewer:${by.name}` };
  return { type: 'operator', id: by.operator ?? null, label: by.via === 'cli' ? 'kyc:review' : 'admin_api' };
}

export class KycService {
  constructor(private readonly deps: KycServiceDeps) {}

  /**
   * Submits KYC: load → check the transition → save the submission and the new
   * status, and schedule its review, in one transaction.
   */
  async submitKyc(merchantId: string, customerUuid: string, command: SubmitKycCommand): Promise<KycRecord> {
    await this.deps.customers.getCustomer(merchantId, customerUuid); // NOT_FOUND before validation details leak anything
    const body = parseInput(submitKycSchema, command);
    // The schema checked the document; a local one's number is kept in its one form (GHA-123456789-0).
    const { idNumber } = readIdDocument(body.idType, body.idNumber, body.idCountry);
    const { line1, city, countryCode, postalCode } = body.address;
    const now = this.deps.clock.now();
    const record = await this.deps.orm.em.fork().transactional(async (em) => {
      const customer = await em.findOneOrFail(Customer, { id: customerUuid, merchantId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      customer.kycStatus = nextKycStatus(customer.kycStatus, 'submit');
      customer.updatedAt = now;
      const submission = em.create(KycSubmission, {
        customerId: customer.id,
        merchantId,
        idType: body.idType,
        idNumberSealed: this.deps.secretBox.seal(idNumber),
        idNumberLast4: idNumber.slice(-4),
        idCountry: body.idCountry,
        dateOfBirth: body.dateOfBirth,
        // Stored as it always was (the column's JSON keeps snake_case).
        address: { line1, city, country_code: countryCode, ...(postalCode ? { postal_code: postalCode } : {}) },
        status: 'pending',
        submittedAt: now,
      });
      await em.flush();
      await this.deps.jobs.enqueue(em, {
        name: KycJob.KycReview,
        payload: { submissionId: submission.id },
        delayMs: this.deps.reviewDelayMs,
        key: `kyc-review:${submission.id}`,
      });
      return this.toRecord(customer, submission);
    });
    this.deps.jobs.nudgeLocal();
    publishAfterCommit(this.deps.pubsub, this.deps.logger, KycTopic.StatusChanged, { merchantId, customerUuid });
    return record;
  }

  async getKyc(merchantId: string, customerUuid: string): Promise<KycRecord> {
    const customer = await this.deps.customers.getCustomer(merchantId, customerUuid);
    const latest = await this.deps.orm.em.findOne(KycSubmission, { customerId: customer.id }, { orderBy: { submittedAt: 'desc' } });
    return this.toRecord(customer, latest);
  }

  /**
   * The review job: asks the reviewer. A decision now (the sandbox) is written by
   * `decideSubmission`; `pending` (an operator's queue, a provider's open case)
   * leaves the submission waiting. Idempotent: a job run twice finds the
   * submission decided and does nothing, so each decision and its event happen once.
   */
  async reviewSubmission(submissionId: string): Promise<void> {
    const pending = await this.deps.orm.em.fork().findOne(KycSubmission, { id: submissionId });
    if (!pending || pending.status !== 'pending') return;
    const answer = await this.deps.reviewer.review({
      submissionId,
      idType: pending.idType,
      idNumber: this.deps.secretBox.open(pending.idNumberSealed),
      idCountry: pending.idCountry,
      dateOfBirth: pending.dateOfBirth,
    });
    if (answer.outcome === 'pending') {
      this.deps.logger.info({ submissionId, reviewer: this.deps.reviewer.name }, 'KYC submission awaits a decision');
      return;
    }
    try {
      await this.decideSubmission(submissionId, answer, { kind: 'reviewer', name: this.deps.reviewer.name });
    } catch (err) {
      // Decided meanwhile (an operator, or this job's first run): nothing left to do.
      if (err instanceof AppError && err.code === 'INVALID_STATE') return;
      throw err;
    }
  }

  /**
   * The one path that writes a KYC decision, whoever makes it: the review job
   * (the sandbox), an operator (admin API, CLI), a provider's callback. Lock the
   * submission → check it is pending → save the decision, the customer's status,
   * the outbox event and the job that tells subscribers, in one transaction.
   * Deciding a decided submission is INVALID_STATE (409) and changes nothing, so
   * concurrent deciders get one decision and one event.
   * `decision` is a KycDecision, validated here: operators and providers supply it.
   * Every decision writes one `kyc.decided` entry in the same transaction (the actor: the operator,
   * or the reviewer as the system); `origin`: where an operator's request came from.
   */
  async decideSubmission(submissionId: string, decision: unknown, by: KycDecider, origin?: RequestOrigin): Promise<KycSubmissionSummary> {
    const id = parseSubmissionId(submissionId);
    const decided = parseInput(decisionSchema, decision);
    const reviewedBy = deciderLabel(by);
    const result = await this.deps.orm.em.fork().transactional(async (tx) => {
      const submission = await tx.findOne(KycSubmission, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!submission) throw AppError.notFound('KYC submission');
      if (submission.status !== 'pending') {
        throw new AppError(
          'INVALID_STATE',
          `This KYC submission was already ${submission.status} (${submission.reviewedBy ?? 'unknown'}, ${submission.reviewedAt?.toISOString()})`,
        );
      }
      const customer = await tx.findOneOrFail(Customer, { id: submission.customerId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      const now = this.deps.clock.now();
      const approved = decided.outcome === 'approved';
      customer.kycStatus = nextKycStatus(customer.kycStatus, approved ? 'approve' : 'reject');
      customer.updatedAt = now;
      submission.status = approved ? 'approved' : 'rejected';
      submission.rejectionReason = decided.outcome === 'rejected' ? decided.reason : null;
      submission.reviewedAt = now;
      submission.reviewedBy = reviewedBy;
      const record = this.toRecord(customer, submission);
      await this.deps.outbox.record(tx, {
        merchantId: customer.merchantId,
        type: approved ? 'customer.kyc.approved' : 'customer.kyc.rejected',
        subjectId: customer.id,
        payload: serializeKycRecord(record),
      });
      await this.deps.jobs.enqueue(tx, { name: KycJob.PublishKycStatus, payload: { merchantId: customer.merchantId, customerUuid: customer.id } });
      await this.deps.audit.recordOn(tx, {
        merchantId: customer.merchantId,
        actor: deciderActor(by),
        origin,
        action: 'kyc.decided',
        target: { type: 'kyc_submission', id },
        before: { status: 'pending' },
        after: { status: submission.status, customer_uuid: customer.id, ...(submission.rejectionReason ? { reason: submission.rejectionReason } : {}) },
      });
      this.deps.logger.info(
        { merchantId: customer.merchantId, customerUuid: customer.id, submissionId: id, outcome: decided.outcome, reviewedBy },
        'KYC decided',
      );
      return toSummary(submission);
    });
    // The event's delivery job was added by the outbox's statement, which does not notify.
    this.deps.jobs.wake();
    return result;
  }

  /** An operator's decision (admin API, CLI): `input` is the request body, `{reason?, operator?}`. */
  async decideByOperator(
    submissionId: string,
    outcome: 'approved' | 'rejected',
    command: OperatorDecisionCommand,
    via: 'admin_api' | 'cli',
    origin?: RequestOrigin,
  ): Promise<KycSubmissionSummary> {
    const id = parseSubmissionId(submissionId); // the path first: a bad id is a 400 before anything else
    const body = parseInput(operatorDecisionSchema, command);
    const decision = outcome === 'approved' ? { outcome } : { outcome, reason: body.reason };
    return this.decideSubmission(id, decision, { kind: 'operator', via, operator: body.operator }, origin);
  }

  /** The review queue: pending submissions of every merchant, oldest first, by keyset (submitted_at, id). */
  async listPendingSubmissions(query: PageQuery): Promise<Page<KycSubmissionSummary>> {
    const { limit, after } = parseInput(pageRequestSchema, query, 'query');
    const where: Record<string, unknown> = { status: 'pending' };
    if (after) {
      const cursor = decodeCursor(after, UUID_ID);
      where.$or = [{ submittedAt: { $gt: cursor.createdAt } }, { submittedAt: cursor.createdAt, id: { $gt: cursor.id } }];
    }
    const rows = await this.deps.orm.em.find(KycSubmission, where, { orderBy: { submittedAt: 'asc', id: 'asc' }, limit: limit + 1 });
    return {
      items: rows.slice(0, limit).map((s) => ({ node: toSummary(s), cursor: encodeCursor(s.submittedAt, s.id) })),
      hasMore: rows.length > limit,
    };
  }

  /** One submission opened by an operator, with its identity number in full (the opening is logged, the number never). */
  async getSubmissionForReview(submissionId: string): Promise<KycSubmissionDetail> {
    const id = parseSubmissionId(submissionId);
    const submission = await this.deps.orm.em.findOne(KycSubmission, { id });
    if (!submission) throw AppError.notFound('KYC submission');
    const customer = await this.deps.orm.em.findOneOrFail(Customer, { id: submission.customerId });
    this.deps.logger.info({ submissionId: id, merchantId: submission.merchantId }, 'KYC submission opened for review');
    return {
      ...toSummary(submission),
      idNumber: this.deps.secretBox.open(submission.idNumberSealed),
      dateOfBirth: submission.dateOfBirth,
      address: submission.address,
      customer: {
        customerid: customer.customerid,
        firstName: customer.firstName,
        lastName: customer.lastName,
        dateOfBirth: customer.dateOfBirth,
        countryCode: customer.countryCode,
      },
    };
  }

  /** Tells subscribers a customer's KYC changed (the job a decision enqueues); a failed publish is retried by the job. */
  async publishStatus(merchantId: string, customerUuid: string): Promise<void> {
    await this.deps.pubsub.publish(KycTopic.StatusChanged, { merchantId, customerUuid });
  }

  /** The KYC record on its own EntityManager (for subscriptions, outside any request). */
  async getKycDetached(merchantId: string, customerUuid: string): Promise<KycRecord> {
    const em = this.deps.orm.em.fork();
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
