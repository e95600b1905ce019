import type { PaymentsClient } from '../src';
import { clientFromEnv, runIfMain } from './run';

/**
 * Takes a payment without touching card data: a checkout session for the order, the customer sent to its `url`
 * (mobile money, card or bank transfer on our page), and the order completed on `checkout.session.completed`.
 * A payment link needs no code at all: one page, one QR code, a session per visit.
 */
export async function checkoutForOrder(client: PaymentsClient, reference = `order-${Date.now()}`) {
  const session = await client.checkout.sessions.create({
    amount: '2500.00',
    currency: 'NGN',
    reference,
    customer: { email: 'ada@example.com', name: 'Ada Obi' },
    redirect_url: 'https://shop.example/orders/1001',
  });
  // Redirect the customer's browser to session.url. Later, on the webhook (or to check):
  const now = await client.checkout.sessions.retrieve(session.id);

  const link = await client.paymentLinks.create({ name: 'Donation', currency: 'NGN', min_amount: '100' });
  return { sendCustomerTo: session.url, status: now.status, linkUrl: link.url, qrSvg: link.qr_svg };
}

runIfMain(module, () => checkoutForOrder(clientFromEnv()));
