import type { FastifyInstance } from 'fastify';
import type { KycService } from '../../../modules/kyc/kyc.service';
import { operatorDecisionSchema } from '../../../modules/kyc/kyc-review.inputs';
import {
  KycSubmissionDetailRecord,
  KycSubmissionRecord,
  serializeKycSubmission,
  serializeKycSubmissionDetail,
} from '../../../modules/kyc/kyc-review.serializer';
import { pageRequestSchema } from '../../../shared/pagination';
import { pageMeta } from '../envelope';
import { originOf } from '../audit-context';
import { fromRest } from '../field-names';
import { operation } from '../openapi/operation';

/** The services this file calls (the composition root passes them). */
type UsedServices = { kyc: KycService };

const listPendingKyc = operation({
  operationId: 'listPendingKyc',
  tag: 'Admin',
  access: 'admin',
  summary: 'List pending KYC submissions, oldest first',
  description: 'The id number shows only its last 4 characters here; open one submission to see it in full.',
  query: pageRequestSchema,
  ok: { message: 'Pending KYC submissions, oldest first', data: KycSubmissionRecord, list: 'page', noStore: true },
});

const getKycSubmission = operation({
  operationId: 'getKycSubmission',
  tag: 'Admin',
  access: 'admin',
  summary: 'Open a KYC submission for review',
  params: { submissionId: 'The submission id (a UUID)' },
  ok: { message: 'KYC submission retrieved', data: KycSubmissionDetailRecord, noStore: true },
  errors: { NOT_FOUND: 'no such submission' },
});

const approveKycSubmission = operation({
  operationId: 'approveKycSubmission',
  tag: 'Admin',
  access: 'admin',
  summary: 'Approve a pending KYC submission',
  params: { submissionId: 'The submission id (a UUID)' },
  body: { name: 'ApproveKycRequest', schema: operatorDecisionSchema, example: { operator: 'alice' } },
  fields: { reason: { description: 'Not used for an approval' }, operator: { description: 'Who decided, for the audit trail (self-declared)' } },
  ok: { message: 'KYC submission approved', data: KycSubmissionRecord, noStore: true },
  errors: { NOT_FOUND: 'no such submission', INVALID_STATE: 'the submission is already decided' },
});

const rejectKycSubmission = operation({
  operationId: 'rejectKycSubmission',
  tag: 'Admin',
  access: 'admin',
  summary: 'Reject a pending KYC submission, with a reason the merchant sees',
  params: { submissionId: 'The submission id (a UUID)' },
  body: { name: 'RejectKycRequest', schema: operatorDecisionSchema, example: { reason: 'document_unreadable', operator: 'alice' } },
  fields: {
    reason: {
      description: 'Why (shown to the merchant): 1–500 characters, no control characters',
      required: true,
      schema: { type: 'string', minLength: 1, maxLength: 500 },
    },
    operator: { description: 'Who decided, for the audit trail (self-declared)' },
  },
  ok: { message: 'KYC submission rejected', data: KycSubmissionRecord, noStore: true },
  errors: { NOT_FOUND: 'no such submission', INVALID_STATE: 'the submission is already decided' },
});

type SubmissionParams = { Params: { submissionId: string } };

/**
 * The KYC review queue (docs/kyc-review.md). Registered inside the admin scope, so
 * its ADMIN_API_KEY guard and `cache-control: no-store` apply to every route here.
 */
export async function adminKycRoutes(app: FastifyInstance, { services }: { services: UsedServices }) {
  app.get<{ Querystring: { limit?: string; after?: string } }>('/admin/kyc/pending', listPendingKyc.route, async (request, reply) => {
    const page = await services.kyc.listPendingSubmissions(fromRest(request.query));
    return listPendingKyc.send(
      reply,
      page.items.map((i) => serializeKycSubmission(i.node)),
      { meta: pageMeta(page) },
    );
  });

  app.get<SubmissionParams>('/admin/kyc/:submissionId', getKycSubmission.route, async (request, reply) => {
    const submission = await services.kyc.getSubmissionForReview(request.params.submissionId);
    return getKycSubmission.send(reply, serializeKycSubmissionDetail(submission));
  });

  app.post<SubmissionParams>('/admin/kyc/:submissionId/approve', approveKycSubmission.route, async (request, reply) => {
    const decided = await services.kyc.decideByOperator(request.params.submissionId, 'approved', fromRest(request.body), 'admin_api', originOf(request));
    return approveKycSubmission.send(reply, serializeKycSubmission(decided));
  });

  app.post<SubmissionParams>('/admin/kyc/:submissionId/reject', rejectKycSubmission.route, async (request, reply) => {
    const decided = await services.kyc.decideByOperator(request.params.submissionId, 'rejected', fromRest(request.body), 'admin_api', originOf(request));
    return rejectKycSubmission.send(reply, serializeKycSubmission(decided));
  });
}
