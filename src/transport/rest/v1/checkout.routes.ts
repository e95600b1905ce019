import type { FastifyInstance } from 'fastify';
import { CheckoutSessionRecord, PaymentLinkRecord, serializeCheckoutSession, serializePaymentLink } from '../../../modules/checkout/checkout.records';
import { checkoutSessionSchema, paymentLinkSchema } from '../../../modules/checkout/checkout.schemas';
import type { CheckoutService } from '../../../modules/checkout/checkout.service';
import type { PaymentLinkService, PaymentLinkWithQr } from '../../../modules/checkout/payment-link.service';
import { pageRequestSchema } from '../../../shared/pagination';
import { auditOf } from '../audit-context';
import { authOf } from '../auth';
import { pageMeta } from '../envelope';
import { fromRest } from '../field-names';
import { operation } from '../openapi/operation';

/** The services this file calls (the composition root passes them). */
type UsedServices = { checkout: CheckoutService; paymentLinks: PaymentLinkService };

const createCheckoutSession = operation({
  operationId: 'createCheckoutSession',
  tag: 'Checkout',
  access: 'bearer',
  permission: 'payments:create',
  summary: 'Open a hosted checkout session: send the payer to its `url`',
  description:
    'The payer pays on our page (mobile money, card, bank transfer: what your country, currency and our connectors allow), so your server never ' +
    'touches card data. One session yields at most one successful payment; `checkout.session.completed` tells you it is paid ' +
    '(confirm with GET, never by the redirect). Each attempt on the page is a payment whose reference is yours with `-1`, `-2`… ' +
    'The currency is your country’s. `expires_in`: 60 to 86400 seconds (default 3600). GraphQL: createCheckoutSession.',
  body: {
    name: 'CheckoutSessionRequest',
    schema: checkoutSessionSchema,
    example: {
      amount: '2500.00',
      currency: 'NGN',
      reference: 'order-1001',
      customer: { email: 'ada@example.com', phone: '08012345678', name: 'Ada Obi' },
      redirect_url: 'https://shop.example/orders/1001',
      cancel_url: 'https://shop.example/cart',
      metadata: { order_id: '1001' },
    },
  },
  fields: { metadata: { description: 'Your own flat key → string values (up to 20 keys, values up to 500 characters), sent back as they are' } },
  ok: { message: 'Checkout session created', data: CheckoutSessionRecord },
  errors: { DUPLICATE_REQUEST: 'reference already used by another of your sessions' },
});

const getCheckoutSession = operation({
  operationId: 'getCheckoutSession',
  tag: 'Checkout',
  access: 'bearer',
  permission: 'transactions:read',
  summary: 'A checkout session',
  params: { id: 'The session’s id (`cs_…`)' },
  ok: { message: 'Checkout session retrieved', data: CheckoutSessionRecord },
  errors: { NOT_FOUND: 'no session of yours has this id' },
});

const createPaymentLink = operation({
  operationId: 'createPaymentLink',
  tag: 'Checkout',
  access: 'bearer',
  permission: 'payments:create',
  summary: 'Make a payment link: share its `url` or QR code; each visit opens a checkout session',
  description:
    'A fixed `amount`, or none: the payer chooses, within `min_amount` and `max_amount`. The payer’s email is always asked; `collect` adds phone and name. ' +
    '`slug` (3–64 lowercase letters, digits, -) is the link’s address, generated when left out. `max_payments` counts completed sessions. GraphQL: createPaymentLink.',
  body: {
    name: 'PaymentLinkRequest',
    schema: paymentLinkSchema,
    example: { name: 'Donation', currency: 'NGN', min_amount: '500.00', max_amount: '100000.00', collect: ['email', 'name'], slug: 'give-to-ada' },
  },
  ok: { message: 'Payment link created', data: PaymentLinkRecord },
  errors: { DUPLICATE_REQUEST: 'slug already taken' },
});

const listPaymentLinks = operation({
  operationId: 'listPaymentLinks',
  tag: 'Checkout',
  access: 'bearer',
  permission: 'transactions:read',
  summary: 'Your payment links, newest first',
  query: pageRequestSchema,
  fields: { after: { description: 'The `meta.next_cursor` of the previous page' } },
  ok: { message: 'Payment links retrieved', data: PaymentLinkRecord, list: 'page' },
});

const getPaymentLink = operation({
  operationId: 'getPaymentLink',
  tag: 'Checkout',
  access: 'bearer',
  permission: 'transactions:read',
  summary: 'A payment link, with its count of payments',
  params: { id: 'The link’s id (`plink_…`)' },
  ok: { message: 'Payment link retrieved', data: PaymentLinkRecord },
  errors: { NOT_FOUND: 'no link of yours has this id' },
});

const deactivatePaymentLink = operation({
  operationId: 'deactivatePaymentLink',
  tag: 'Checkout',
  access: 'bearer',
  permission: 'payments:create',
  summary: 'Deactivate a payment link for good: its page says so, and opens no session',
  description: 'Sessions already opened through it may still be paid until they expire. Deactivating twice changes nothing.',
  params: { id: 'The link’s id (`plink_…`)' },
  ok: { message: 'Payment link deactivated', data: PaymentLinkRecord },
  errors: { NOT_FOUND: 'no link of yours has this id' },
});

type IdParams = { Params: { id: string } };
type Body = { Body: Record<string, unknown> | undefined };

const link = (l: PaymentLinkWithQr) => serializePaymentLink(l, l.qrSvg);

/** Hosted checkout sessions and payment links (issue 37); registered in the bearer-protected scope. The pages are elsewhere. */
export async function checkoutRoutes(app: FastifyInstance, { services }: { services: UsedServices }) {
  app.post<Body>('/checkout/sessions', createCheckoutSession.route, async (request, reply) => {
    // Metadata keys are the merchant's own: passed as they are, not renamed.
    const body = request.body && typeof request.body === 'object' ? { ...fromRest<object>(request.body), metadata: request.body.metadata } : request.body;
    const session = await services.checkout.createSession(authOf(request).merchantId, body as never);
    return createCheckoutSession.send(reply, serializeCheckoutSession(session));
  });

  app.get<IdParams>('/checkout/sessions/:id', getCheckoutSession.route, async (request, reply) => {
    const session = await services.checkout.getSession(authOf(request).merchantId, request.params.id);
    return getCheckoutSession.send(reply, serializeCheckoutSession(session));
  });

  app.post('/payment-links', createPaymentLink.route, async (request, reply) => {
    const created = await services.paymentLinks.createLink(authOf(request).merchantId, fromRest(request.body), auditOf(request));
    return createPaymentLink.send(reply, link(created));
  });

  app.get<{ Querystring: Record<string, string | undefined> }>('/payment-links', listPaymentLinks.route, async (request, reply) => {
    const page = await services.paymentLinks.listLinks(authOf(request).merchantId, fromRest(request.query));
    return listPaymentLinks.send(
      reply,
      page.items.map((i) => link(i.node)),
      { meta: pageMeta(page) },
    );
  });

  app.get<IdParams>('/payment-links/:id', getPaymentLink.route, async (request, reply) => {
    return getPaymentLink.send(reply, link(await services.paymentLinks.getLink(authOf(request).merchantId, request.params.id)));
  });

  app.post<IdParams>('/payment-links/:id/deactivate', deactivatePaymentLink.route, async (request, reply) => {
    const deactivated = await services.paymentLinks.deactivateLink(authOf(request).merchantId, request.params.id, auditOf(request));
    return deactivatePaymentLink.send(reply, link(deactivated));
  });
}
