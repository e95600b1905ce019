import type { FastifyInstance } from 'fastify';
import type { Services } from '../../../container';
import type { Transaction } from '../../../modules/transactions/transaction.record';
import { serializePayment } from '../../../modules/transactions/transaction.serializer';
import { authOf } from '../auth';
import { sendSuccess } from '../envelope';
import { fromRest } from '../field-names';

const INITIATED: Record<string, string> = {
  successful: 'Payment successful',
  requires_action: 'Payment requires 3-D Secure authentication: send the cardholder to next_action.url',
  failed: 'Payment failed',
};

const initiated = (t: Transaction) => INITIATED[t.status] ?? 'Payment initiated; the final status comes by webhook or verification';

/** Domestic card payments (spec §4.4, CONTRACT §7); registered in the bearer-protected scope. */
export async function paymentRoutes(app: FastifyInstance, { services }: { services: Services }) {
  app.post('/payments/initiate', async (request, reply) => {
    const payment = await services.payments.initiatePayment(authOf(request).merchantId, fromRest(request.body));
    return sendSuccess(reply, initiated(payment), serializePayment(payment));
  });

  app.get<{ Params: { reference: string } }>('/payments/verify/:reference', async (request, reply) => {
    const payment = await services.payments.verifyPayment(authOf(request).merchantId, request.params.reference);
    return sendSuccess(reply, `Payment ${payment.status}`, serializePayment(payment));
  });
}
