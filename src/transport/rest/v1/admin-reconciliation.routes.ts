import type { FastifyInstance } from 'fastify';
import { listRunsSchema, resolveItemSchema } from '../../../modules/reconciliation/reconciliation.inputs';
import {
  ReconciliationItemRecord,
  ReconciliationRunDetailRecord,
  ReconciliationRunRecord,
  serializeItem,
  serializeRun,
} from '../../../modules/reconciliation/reconciliation.serializer';
import type { ReconciliationService } from '../../../modules/reconciliation/reconciliation.service';
import { operatorAuditOf } from '../audit-context';
import { fromRest } from '../field-names';
import { operation } from '../openapi/operation';

/** The services this file calls (the composition root passes them). */
type UsedServices = { reconciliation: ReconciliationService };

const listReconciliationRuns = operation({
  operationId: 'listReconciliationRuns',
  tag: 'Admin',
  access: 'admin',
  summary: 'List reconciliation runs, newest first',
  description: 'Each run compared one connector’s UTC day with the provider’s records (docs/reconciliation.md).',
  query: listRunsSchema,
  ok: { message: 'Reconciliation runs, newest first', data: ReconciliationRunRecord, list: 'count', noStore: true },
});

const getReconciliationRun = operation({
  operationId: 'getReconciliationRun',
  tag: 'Admin',
  access: 'admin',
  summary: 'A reconciliation run with everything it found',
  params: { runId: 'The run id (a UUID)' },
  ok: { message: 'Reconciliation run retrieved', data: ReconciliationRunDetailRecord, noStore: true },
  errors: { NOT_FOUND: 'no such run' },
});

const resolveReconciliationItem = operation({
  operationId: 'resolveReconciliationItem',
  tag: 'Admin',
  access: 'admin',
  summary: 'Resolve a reconciliation exception with a note',
  description: 'Recorded on the item and in the audit log (`reconciliation.exception_resolved`). Nothing else changes: no money moves.',
  params: { itemId: 'The item id (a UUID)' },
  body: {
    name: 'ResolveReconciliationItemRequest',
    schema: resolveItemSchema,
    example: { note: 'Flutterwave reversed the charge on 2 Dec; refunded the payer' },
  },
  fields: { note: { required: true, description: 'What was found and done: 1–1000 characters' } },
  ok: { message: 'Reconciliation exception resolved', data: ReconciliationItemRecord, noStore: true },
  errors: { NOT_FOUND: 'no such item', INVALID_STATE: 'the item is not an exception, or is resolved already' },
});

/** Reconciliation's operator routes (docs/reconciliation.md), inside the admin scope: its key check applies here. */
export async function adminReconciliationRoutes(app: FastifyInstance, { services }: { services: UsedServices }) {
  app.get('/admin/reconciliation/runs', listReconciliationRuns.route, async (request, reply) => {
    const runs = await services.reconciliation.listRuns(fromRest(request.query));
    return listReconciliationRuns.send(reply, runs.map(serializeRun));
  });

  app.get<{ Params: { runId: string } }>('/admin/reconciliation/runs/:runId', getReconciliationRun.route, async (request, reply) => {
    const { run, items } = await services.reconciliation.getRun(request.params.runId);
    return getReconciliationRun.send(reply, { ...serializeRun(run), items: items.map(serializeItem) });
  });

  app.post<{ Params: { itemId: string } }>('/admin/reconciliation/items/:itemId/resolve', resolveReconciliationItem.route, async (request, reply) => {
    const item = await services.reconciliation.resolve(request.params.itemId, fromRest(request.body), operatorAuditOf(request));
    return resolveReconciliationItem.send(reply, serializeItem(item));
  });
}
