import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DisputeFileRecord, DisputeRecord, serializeDispute, serializeEvidenceFile } from '../../../modules/disputes/dispute.record';
import { DISPUTE_FILE_MAX_BYTES } from '../../../modules/disputes/files/file-type';
import { AppError } from '../../../shared/errors';
import { disputeListSchema, evidenceSchema, sandboxDisputeSchema, simulateOutcomeSchema, type DisputeService } from '../../../modules/disputes/dispute.service';
import { auditOf } from '../audit-context';
import { authOf } from '../auth';
import { pageMeta } from '../envelope';
import { fromRest } from '../field-names';
import { operation } from '../openapi/operation';

/** The services this file calls (the composition root passes them). */
type UsedServices = { disputes: DisputeService };

const NOT_FOUND = 'no dispute of yours has this id';
const ID = 'The dispute’s id (`dp_…`)';

const listDisputes = operation({
  operationId: 'listDisputes',
  tag: 'Disputes',
  access: 'bearer',
  permission: 'disputes:read',
  summary: 'Your disputes, newest first',
  description: 'Filter by status, by a deadline before a time (`due_before`), or by the disputed payment. GraphQL: disputes.',
  query: disputeListSchema,
  fields: { after: { description: 'The `meta.next_cursor` of the previous page' } },
  ok: { message: 'Disputes retrieved', data: DisputeRecord, list: 'page' },
});

const getDispute = operation({
  operationId: 'getDispute',
  tag: 'Disputes',
  access: 'bearer',
  permission: 'disputes:read',
  summary: 'A dispute',
  params: { id: ID },
  ok: { message: 'Dispute retrieved', data: DisputeRecord },
  errors: { NOT_FOUND },
});

const updateEvidence = operation({
  operationId: 'updateDisputeEvidence',
  tag: 'Disputes',
  access: 'bearer',
  permission: 'disputes:manage',
  summary: 'Add to a dispute’s evidence (before it is submitted)',
  description:
    'Each field given replaces its value (null clears it); fields left out stay. `files` names files uploaded with POST /v1/disputes/{id}/files ' +
    '(the list given replaces the list). Then POST /v1/disputes/{id}/submit. GraphQL: updateDisputeEvidence.',
  params: { id: ID },
  body: {
    name: 'DisputeEvidenceRequest',
    schema: evidenceSchema,
    example: { product_description: 'A pair of shoes, size 42', service_date: '2026-11-20', service_details: 'Delivered by GIG, tracking 123456' },
  },
  ok: { message: 'Evidence updated', data: DisputeRecord },
  errors: { NOT_FOUND, INVALID_STATE: 'the dispute no longer takes a response' },
});

const submitDispute = operation({
  operationId: 'submitDispute',
  tag: 'Disputes',
  access: 'bearer',
  permission: 'disputes:manage',
  summary: 'Send the evidence to the card network (once)',
  description: 'The dispute goes under review; `dispute.updated` follows, then `dispute.closed` when it is decided. GraphQL: submitDispute.',
  params: { id: ID },
  ok: { message: 'Evidence submitted', data: DisputeRecord },
  errors: { NOT_FOUND, INVALID_STATE: 'submitted already, or no longer open', INVALID_REQUEST: 'no evidence yet' },
});

const acceptDispute = operation({
  operationId: 'acceptDispute',
  tag: 'Disputes',
  access: 'bearer',
  permission: 'disputes:manage',
  summary: 'Accept a dispute: a chargeback is lost (its amount and fee are not given back); an inquiry is closed',
  params: { id: ID },
  ok: { message: 'Dispute accepted', data: DisputeRecord },
  errors: { NOT_FOUND, INVALID_STATE: 'the dispute no longer takes a response' },
});

const uploadDisputeFile = operation({
  operationId: 'uploadDisputeFile',
  tag: 'Disputes',
  access: 'bearer',
  permission: 'disputes:manage',
  summary: 'Upload a file for a dispute’s evidence (multipart/form-data, one part named `file`)',
  description:
    'A PDF, PNG or JPEG of at most 5 MB: its type is read from its content, and the filename’s extension must agree. Then name it in ' +
    '`files` of POST /v1/disputes/{id}/evidence. Stored in PostgreSQL, or S3-compatible storage when configured. GraphQL: uploadDisputeFile ' +
    '(base64, up to about 700 KB: the GraphQL body limit).',
  params: { id: ID },
  ok: { status: 201, message: 'File uploaded', data: DisputeFileRecord },
  errors: { NOT_FOUND, INVALID_STATE: 'the dispute no longer takes a response', INVALID_REQUEST: 'no file, too large, or not a PDF, PNG or JPEG' },
});

const downloadDisputeFile = operation({
  operationId: 'downloadDisputeFile',
  tag: 'Disputes',
  access: 'bearer',
  permission: 'disputes:read',
  summary: 'A file of a dispute’s evidence: its bytes, with its content type',
  params: { id: ID, file_id: 'The file’s id (`file_…`)' },
  ok: { message: 'The file', data: DisputeFileRecord },
  errors: { NOT_FOUND: 'no file of this dispute of yours has this id' },
});

const createSandboxDispute = operation({
  operationId: 'createSandboxDispute',
  tag: 'Sandbox',
  access: 'bearer',
  permission: 'payments:create',
  summary: 'Sandbox: a cardholder disputes a successful card payment',
  description:
    'A chargeback (`needs_response`: its amount and the dispute fee are held from available at once) or, with `inquiry: true`, an inquiry ' +
    '(`warning_needs_response`: no money moves). `amount` defaults to what is left of the payment after its refunds. The card ' +
    '4000 0000 0000 0259 is disputed by itself after it succeeds. GraphQL: simulateDispute.',
  body: { name: 'SandboxDisputeRequest', schema: sandboxDisputeSchema, example: { payment_reference: 'PAY-…', reason: 'fraudulent' } },
  ok: { status: 201, message: 'Dispute opened', data: DisputeRecord },
  errors: { NOT_FOUND: 'no successful card payment of yours has this reference', INVALID_STATE: 'the payment has an open dispute' },
});

const simulateDisputeOutcome = operation({
  operationId: 'simulateDisputeOutcome',
  tag: 'Sandbox',
  access: 'bearer',
  permission: 'payments:create',
  summary: 'Sandbox: the card network decides a submitted dispute',
  description: 'won gives the hold back to available; lost pays it out. An inquiry won closes; lost becomes a chargeback. GraphQL: simulateDisputeOutcome.',
  params: { id: ID },
  body: { name: 'SimulateDisputeOutcomeRequest', schema: simulateOutcomeSchema, example: { outcome: 'won' } },
  ok: { message: 'Dispute decided', data: DisputeRecord },
  errors: { NOT_FOUND, INVALID_STATE: 'not under review (submit evidence first)' },
});

type IdParams = { Params: { id: string } };

/** The one file part of a multipart upload; a missing or misnamed part, or a non-multipart body, is a 400 on `file`. */
async function uploadedFile(request: FastifyRequest): Promise<{ filename: string; bytes: Buffer }> {
  if (!request.isMultipart()) throw AppError.invalidField('file', 'send multipart/form-data with one part named file');
  const part = await request.file().catch(() => undefined);
  if (!part || part.fieldname !== 'file') throw AppError.invalidField('file', 'is required: one part named file');
  // Read at most one byte past the limit: a larger file is cut there and refused by its size (never held whole).
  return { filename: part.filename, bytes: await part.toBuffer() };
}

/** Disputes and chargebacks (issue 39); registered in the bearer-protected scope. */
export async function disputeRoutes(app: FastifyInstance, { services }: { services: UsedServices }) {
  // Multipart in this scope only (other routes still refuse it); the global body limit does not apply to its parts.
  await app.register(multipart, { limits: { fileSize: DISPUTE_FILE_MAX_BYTES + 1, files: 1, fields: 0, parts: 1 }, throwFileSizeLimit: false });

  app.get<{ Querystring: Record<string, string | undefined> }>('/disputes', listDisputes.route, async (request, reply) => {
    const page = await services.disputes.list(authOf(request).merchantId, fromRest(request.query));
    return listDisputes.send(
      reply,
      page.items.map((i) => serializeDispute(i.node)),
      { meta: pageMeta(page) },
    );
  });

  app.get<IdParams>('/disputes/:id', getDispute.route, async (request, reply) => {
    return getDispute.send(reply, serializeDispute(await services.disputes.get(authOf(request).merchantId, request.params.id)));
  });

  app.post<IdParams>('/disputes/:id/evidence', updateEvidence.route, async (request, reply) => {
    const d = await services.disputes.updateEvidence(authOf(request).merchantId, request.params.id, fromRest(request.body), auditOf(request));
    return updateEvidence.send(reply, serializeDispute(d));
  });

  app.post<IdParams>('/disputes/:id/files', uploadDisputeFile.route, async (request, reply) => {
    const merchantId = authOf(request).merchantId;
    // Another merchant's (or no) dispute is 404 before a byte of the body is read.
    await services.disputes.get(merchantId, request.params.id);
    const file = await uploadedFile(request);
    const stored = await services.disputes.uploadFile(merchantId, request.params.id, file, auditOf(request));
    return uploadDisputeFile.send(reply, serializeEvidenceFile(stored));
  });

  app.get<{ Params: { id: string; file_id: string } }>('/disputes/:id/files/:file_id', downloadDisputeFile.route, async (request, reply) => {
    const { record, bytes } = await services.disputes.file(authOf(request).merchantId, request.params.id, request.params.file_id);
    return reply
      .header('content-type', record.contentType)
      .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(record.filename)}`)
      .header('x-content-type-options', 'nosniff')
      .send(bytes);
  });

  app.post<IdParams>('/disputes/:id/submit', submitDispute.route, async (request, reply) => {
    return submitDispute.send(reply, serializeDispute(await services.disputes.submit(authOf(request).merchantId, request.params.id, auditOf(request))));
  });

  app.post<IdParams>('/disputes/:id/accept', acceptDispute.route, async (request, reply) => {
    return acceptDispute.send(reply, serializeDispute(await services.disputes.accept(authOf(request).merchantId, request.params.id, auditOf(request))));
  });
}

/** Sandbox only: disputes on demand, and the network's decision (absent in production: 404). */
export async function sandboxDisputeRoutes(app: FastifyInstance, { services }: { services: UsedServices }) {
  app.post('/sandbox/disputes', createSandboxDispute.route, async (request, reply) => {
    return createSandboxDispute.send(
      reply,
      serializeDispute(await services.disputes.simulate(authOf(request).merchantId, fromRest(request.body), auditOf(request))),
    );
  });

  app.post<IdParams>('/sandbox/disputes/:id/simulate', simulateDisputeOutcome.route, async (request, reply) => {
    const d = await services.disputes.simulateOutcome(authOf(request).merchantId, request.params.id, fromRest(request.body));
    return simulateDisputeOutcome.send(reply, serializeDispute(d));
  });
}
