import type { FastifyInstance } from 'fastify';
import type { PaymentService } from '../../../modules/transactions/kinds/payment/payment.service';
import { paymentSchema } from '../../../modules/transactions/kinds/payment/payment.service';
import type { Transaction } from '../../../modules/transactions/transaction.record';
import { PaymentRecord, serializePayment } from '../../../modules/transactions/transaction.serializer';
import { authOf } from '../auth';
import { fromRest } from '../field-names';
import { operation } from '../openapi/operation';

/** The services this file calls (the composition root passes them). */
type UsedServices = { payments: PaymentService };

const INITIATED: Record<string, string> = {
  processing: 'Payment initiated: the payer approves it on their phone, or pays into bank_info; the final status comes by webhook or verification',
  successful: 'Payment successful',
  requires_action: 'Payment requires 3-D Secure authentication: send the cardholder to next_action.url',
  failed: 'Payment failed',
};

const initiated = (t: Transaction) => INITIATED[t.status] ?? 'Payment initiated; the final status comes by webhook or verification';

const initiatePayment = operation({
  operationId: 'initiatePayment',
  tag: 'Payments',
  access: 'bearer',
  permission: 'payments:create',
  summary: 'Take a domestic payment: card, mobile money or bank transfer',
  description:
    'The answer is 200 whatever the outcome: `status` says it (`successful`, `failed`, `requires_action` with `next_action.url` for 3-D Secure, or `processing`). ' +
    '`card`: the card is checked (Luhn, brand length, expiry, CVC) before anything is stored, and is never stored, logged or echoed. ' +
    'Sandbox cards: 4242424242424242 succeeds, 4000002500003155 needs 3-D Secure, 4000000000009995 fails (insufficient_funds). ' +
    '`momo` and `bank_transfer` are for a payer in your own country, in its currency, with no customer or KYC (CONTRACT §7): ' +
    '`momo` sends a payment prompt to `phone` (the network is predicted from the number, or named in `network`) and is `processing` until the payer approves; ' +
    '`bank_transfer` answers `bank_info`, an account unique to this payment, open until `expires_at`. Sandbox: a wallet ending in 000 declines; a bank transfer is paid with simulate.',
  body: {
    name: 'PaymentRequest',
    schema: paymentSchema,
    example: {
      reference: 'order-1001',
      amount: '2500.00',
      currency: 'NGN',
      payment_method: 'card',
      card: { number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123' },
      redirect_url: 'https://shop.example/return',
      description: 'Order 1001',
    },
  },
  fields: { customer_uuid: { description: 'Optional: one of your customers (no KYC needed for a domestic payment)' } },
  ok: { message: 'Payment successful', data: PaymentRecord },
  errors: {
    NOT_FOUND: 'customer_uuid is not a customer of yours',
    DUPLICATE_REQUEST: 'reference already used',
    INVALID_STATE: 'a checkout session’s payment is already under way or complete',
    ROUTE_UNAVAILABLE:
      'no provider serves the method here (production: no card processor, or no connector for the country’s mobile money or banks); nothing was written or charged',
    SERVER_ERROR: 'the processor’s answer is unknown (reconciled later)',
  },
});

const verifyPayment = operation({
  operationId: 'verifyPayment',
  tag: 'Payments',
  access: 'bearer',
  permission: 'transactions:read',
  summary: 'Verify a payment',
  description: 'The payment’s current record; `next_action` is shown again while it awaits 3-D Secure.',
  params: { reference: 'The payment’s reference (`pay_…`) or yours' },
  ok: { message: 'Payment successful', data: PaymentRecord },
  errors: { NOT_FOUND: 'no payment of yours has this reference' },
});

/** Domestic card payments (spec §4.4, CONTRACT §7); registered in the bearer-protected scope. */
export async function paymentRoutes(app: FastifyInstance, { services }: { services: UsedServices }) {
  app.post('/payments/initiate', initiatePayment.route, async (request, reply) => {
    const payment = await services.payments.initiatePayment(authOf(request).merchantId, fromRest(request.body));
    return initiatePayment.send(reply, serializePayment(payment), { message: initiated(payment) });
  });

  app.get<{ Params: { reference: string } }>('/payments/verify/:reference', verifyPayment.route, async (request, reply) => {
    const payment = await services.payments.verifyPayment(authOf(request).merchantId, request.params.reference);
    return verifyPayment.send(reply, serializePayment(payment), { message: `Payment ${payment.status}` });
  });
}
