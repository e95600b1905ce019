import { unwrap, type PaymentsClient } from '../src';
import { clientFromEnv, runIfMain } from './run';

/** The sandbox's test card that asks for 3-D Secure. */
const THREE_DS_CARD = '4000002500003155';

/**
 * Charges a card. A card that needs 3-D Secure answers `requires_action` with `next_action.url`: send the
 * cardholder there; they come back to `redirect_url`, and verify tells the outcome.
 */
export async function payByCard(client: PaymentsClient, reference = `order-${Date.now()}`) {
  const payment = unwrap(
    await client.POST('/v1/payments/initiate', {
      body: {
        reference,
        amount: '2500.00',
        currency: 'NGN',
        payment_method: 'card',
        card: { number: THREE_DS_CARD, exp_month: 12, exp_year: 2030, cvc: '123', postal_code: '100001' },
        description: 'Order 1001',
        redirect_url: 'https://shop.example/orders/1001/paid',
      },
    }),
  );
  // requires_action: redirect the cardholder's browser to payment.next_action.url.
  const sendCardholderTo = payment.status === 'requires_action' ? payment.next_action?.url : undefined;

  // Later (back at redirect_url, or on a payment.* webhook), the outcome:
  const verified = unwrap(await client.GET('/v1/payments/verify/{reference}', { params: { path: { reference: payment.reference } } }));
  return { reference: verified.reference, status: verified.status, sendCardholderTo };
}

runIfMain(module, () => payByCard(clientFromEnv()));
