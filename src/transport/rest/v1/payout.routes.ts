import type { FastifyInstance } from 'fastify';
import { createPayoutSchema, payoutListSchema, upcomingPayoutSchema, type PayoutService } from '../../../modules/payouts/payout.service';
import {
  PayoutRecord,
  PayoutReportRecord,
  UpcomingPayoutRecord,
  payoutReportCsv,
  serializePayout,
  serializePayoutReport,
  serializeUpcomingPayout,
} from '../../../modules/payouts/payout.serializer';
import type { ReferenceService } from '../../../modules/reference/reference.service';
import { BalanceTransactionRecord, serializeBalanceTransaction } from '../../../modules/ledger/ledger.serializer';
import { authOf } from '../auth';
import { pageMeta } from '../envelope';
import { fromRest } from '../field-names';
import { operation } from '../openapi/operation';
import type { RateLimits } from '../../rate-limits';
import { STREAM_COST, STREAM_ERRORS, sendStreamedFile } from '../streaming';

/** The services this file calls (the composition root passes them). */
type UsedServices = { payouts: PayoutService; reference: ReferenceService };

const NOT_FOUND = 'no payout of yours has this id';

const createPayout = operation({
  operationId: 'createPayout',
  tag: 'Payouts',
  access: 'bearer',
  permission: 'payouts:create',
  summary: 'Pay out part of your available balance to your active payout destination now',
  description:
    'Within what is available (402 INSUFFICIENT_FUNDS otherwise, and nothing is held), at least the currency’s minimum payout, to the destination ' +
    'active in that currency (409 INVALID_STATE when there is none). `payout.created`, then `payout.paid` or `payout.failed` follow; a failed ' +
    'payout gives its money back. Automatic payouts follow your schedule (PUT /v1/payout-schedule). GraphQL: createPayout.',
  body: { name: 'PayoutRequest', schema: createPayoutSchema, example: { currency: 'NGN', amount: '50000.00' } },
  ok: { status: 201, message: 'Payout created', data: PayoutRecord },
  errors: {
    INSUFFICIENT_FUNDS: 'available does not cover the amount (`details` says the shortfall: available, needed, missing)',
    INVALID_STATE: 'no active payout destination in the currency',
  },
});

const listPayouts = operation({
  operationId: 'listPayouts',
  tag: 'Payouts',
  access: 'bearer',
  permission: 'balances:read',
  summary: 'Your payouts, newest first',
  query: payoutListSchema,
  fields: { after: { description: 'The `meta.next_cursor` of the previous page' } },
  ok: { message: 'Payouts retrieved', data: PayoutRecord, list: 'page' },
});

const getUpcomingPayout = operation({
  operationId: 'getUpcomingPayout',
  tag: 'Payouts',
  access: 'bearer',
  permission: 'balances:read',
  summary: 'Your next automatic payout in a currency: when, and what it would pay were its window to close now',
  description: 'An estimate: the window pays what is there at its cut-off. GraphQL: upcomingPayout.',
  query: upcomingPayoutSchema,
  ok: { message: 'Upcoming payout retrieved', data: UpcomingPayoutRecord },
});

const getPayout = operation({
  operationId: 'getPayout',
  tag: 'Payouts',
  access: 'bearer',
  permission: 'balances:read',
  summary: 'A payout',
  params: { id: 'The payout’s id (`po_…`)' },
  ok: { message: 'Payout retrieved', data: PayoutRecord },
  errors: { NOT_FOUND },
});

const listPayoutBalanceTransactions = operation({
  operationId: 'listPayoutBalanceTransactions',
  tag: 'Payouts',
  access: 'bearer',
  permission: 'balances:read',
  summary: 'The balance transactions an automatic payout settles, in posting order',
  description: 'Their net, plus what the payout carried in and less what it carried out, is its amount. A manual payout settles none.',
  params: { id: 'The payout’s id (`po_…`)' },
  ok: { message: 'Balance transactions retrieved', data: BalanceTransactionRecord, list: 'count' },
  errors: { NOT_FOUND },
});

const getPayoutReport = operation({
  operationId: 'getPayoutReport',
  tag: 'Payouts',
  access: 'bearer',
  permission: 'balances:read',
  summary: 'A payout’s report: CSV, or JSON with Accept: application/json',
  description:
    'Gross collected, fees, refunds, transfers, adjustments, payouts, carried in and out, and net, which equals the payout’s amount to the ' +
    'minor unit (a report that would not add up is refused, never served). The CSV has a line per balance transaction, then the carried ' +
    'amounts, then the payout’s line: the net column of the lines before it adds up to its net. ' +
    STREAM_COST,
  params: { id: 'The payout’s id (`po_…`)' },
  ok: { message: 'Payout report retrieved', data: PayoutReportRecord },
  errors: { NOT_FOUND, ...STREAM_ERRORS },
});

type IdParams = { Params: { id: string } };

/** Payouts to the merchant's own account (issue 38); registered in the bearer-protected scope. */
export async function payoutRoutes(app: FastifyInstance, { services, rateLimits }: { services: UsedServices; rateLimits: RateLimits }) {
  app.post('/payouts', createPayout.route, async (request, reply) => {
    return createPayout.send(reply, serializePayout(await services.payouts.createManual(authOf(request).merchantId, fromRest(request.body))));
  });

  app.get<{ Querystring: Record<string, string | undefined> }>('/payouts', listPayouts.route, async (request, reply) => {
    const page = await services.payouts.list(authOf(request).merchantId, fromRest(request.query));
    return listPayouts.send(
      reply,
      page.items.map((i) => serializePayout(i.node)),
      { meta: pageMeta(page) },
    );
  });

  app.get<{ Querystring: Record<string, string | undefined> }>('/payouts/upcoming', getUpcomingPayout.route, async (request, reply) => {
    return getUpcomingPayout.send(reply, serializeUpcomingPayout(await services.payouts.upcoming(authOf(request).merchantId, fromRest(request.query))));
  });

  app.get<IdParams>('/payouts/:id', getPayout.route, async (request, reply) => {
    return getPayout.send(reply, serializePayout(await services.payouts.get(authOf(request).merchantId, request.params.id)));
  });

  app.get<IdParams>('/payouts/:id/balance-transactions', listPayoutBalanceTransactions.route, async (request, reply) => {
    const entries = await services.payouts.balanceTransactions(authOf(request).merchantId, request.params.id);
    return listPayoutBalanceTransactions.send(reply, entries.map(serializeBalanceTransaction));
  });

  app.get<IdParams>('/payouts/:id/report', getPayoutReport.route, async (request, reply) => {
    const merchantId = authOf(request).merchantId;
    const wantsJson = /application\/json/i.test(request.headers.accept ?? '');
    return sendStreamedFile(reply, rateLimits, merchantId, async () => {
      const { payout, report, entries } = await services.payouts.report(merchantId, request.params.id);
      const rows = entries.length;
      if (wantsJson) {
        const body = JSON.stringify({ success: true, message: 'Payout report retrieved', data: serializePayoutReport(payout, report, entries) });
        return { rows, contentType: 'application/json; charset=utf-8', body: oneChunk(body) };
      }
      const csv = payoutReportCsv(payout, report, entries, services.reference.currencyMinorUnit(payout.currency) ?? 2);
      return { rows, contentType: 'text/csv; charset=utf-8', filename: `payout-${payout.id}.csv`, body: oneChunk(csv) };
    });
  });
}

async function* oneChunk(text: string): AsyncGenerator<string> {
  yield text;
}
