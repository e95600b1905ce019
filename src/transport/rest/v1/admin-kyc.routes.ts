import type { FastifyInstance } from 'fastify';
import type { Services } from '../../../container';
import { pageMeta, sendSuccess } from '../envelope';
import { serializeKycSubmission, serializeKycSubmissionDetail } from './admin-kyc.serializer';
import { fromRest } from '../field-names';

type SubmissionParams = { Params: { submissionId: string } };

/**
 * The KYC review queue (docs/kyc-review.md). Registered inside the admin scope, so
 * its ADMIN_API_KEY guard and `cache-control: no-store` apply to every route here.
 */
export async function adminKycRoutes(app: FastifyInstance, { services }: { services: Services }) {
  app.get<{ Querystring: { limit?: string; after?: string } }>('/admin/kyc/pending', async (request, reply) => {
    const page = await services.kyc.listPendingSubmissions(fromRest(request.query));
    return sendSuccess(
      reply,
      'Pending KYC submissions, oldest first',
      page.items.map((i) => serializeKycSubmission(i.node)),
      200,
      pageMeta(page),
    );
  });

  app.get<SubmissionParams>('/admin/kyc/:submissionId', async (request, reply) => {
    const submission = await services.kyc.getSubmissionForReview(request.params.submissionId);
    return sendSuccess(reply, 'KYC submission retrieved', serializeKycSubmissionDetail(submission));
  });

  app.post<SubmissionParams>('/admin/kyc/:submissionId/approve', async (request, reply) => {
    const decided = await services.kyc.decideByOperator(request.params.submissionId, 'approved', fromRest(request.body), 'admin_api');
    return sendSuccess(reply, 'KYC submission approved', serializeKycSubmission(decided));
  });

  app.post<SubmissionParams>('/admin/kyc/:submissionId/reject', async (request, reply) => {
    const decided = await services.kyc.decideByOperator(request.params.submissionId, 'rejected', fromRest(request.body), 'admin_api');
    return sendSuccess(reply, 'KYC submission rejected', serializeKycSubmission(decided));
  });
}
