import { randomUUID } from 'node:crypto';
import { ApiError, type Api } from './api';

/** Sandbox test cards (CONTRACT §7, docs/api.md): succeeds; requires 3-D Secure. */
const CARD_SUCCEEDS = '4242424242424242';
const CARD_3DS = '4000002500003155';

interface Transaction {
  reference: string;
  status: string;
}

const ref = (kind: string) => `cli-${kind}-${randomUUID().slice(0, 8)}`;
const expYear = () => new Date().getFullYear() + 3;

/** A Kenyan customer, KYC-approved: enrolled, a document submitted, and the sandbox's review awaited. */
async function approvedCustomer(api: Api): Promise<string> {
  const customer = await api.request<{ customer_uuid: string }>('POST', '/v1/customer/enroll', {
    customerid: ref('customer'),
    first_name: 'Amina',
    last_name: 'Otieno',
    email: 'amina@example.com',
    phone_number: '712345678',
    dial_code: '+254',
    country_code: 'KE',
    date_of_birth: '1990-04-12',
  });
  const uuid = customer.customer_uuid;
  await api.request('POST', `/v1/customer/${uuid}/kyc`, {
    id_type: 'national_id',
    id_number: 'A12345678',
    id_country: 'KE',
    date_of_birth: '1990-04-12',
    address: { line1: '12 Moi Avenue', city: 'Nairobi', country_code: 'KE' },
  });
  // The sandbox decides a submission SANDBOX_KYC_DELAY_MS after it (default 2 s): wait for it, within a bound.
  const deadline = Date.now() + 60_000;
  for (;;) {
    const kyc = await api.request<{ kyc_status: string }>('GET', `/v1/customer/${uuid}/kyc`);
    if (kyc.kyc_status === 'approved') return uuid;
    if (kyc.kyc_status === 'rejected') throw new Error(`the sandbox rejected the KYC of customer ${uuid}`);
    if (Date.now() > deadline) throw new Error(`the KYC of customer ${uuid} is still ${kyc.kyc_status} after 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Decides a processing transaction now (sandbox simulate). The sandbox may have decided it already (SANDBOX_SETTLE_MS,
 * 3 s by default, may be 0): a 409 on a transaction already in the wanted status is that, and done.
 */
async function simulate(api: Api, reference: string, outcome: 'successful' | 'failed'): Promise<void> {
  try {
    await api.request<Transaction>('POST', `/v1/sandbox/transactions/${reference}/simulate`, { outcome });
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 409) throw err;
    const now = await api.request<Transaction>('GET', `/v1/crossborder/global-transfer/${reference}`);
    if (now.status !== outcome) throw err;
  }
}

const cardPayment = (api: Api, number: string) =>
  api.request<Transaction>('POST', '/v1/payments/initiate', {
    reference: ref('payment'),
    amount: '2500.00',
    currency: 'NGN',
    payment_method: 'card',
    card: { number, exp_month: 12, exp_year: expYear(), cvc: '123', postal_code: '100001' },
    description: 'payments-gateway trigger',
  });

const collection = async (api: Api) =>
  api.request<Transaction>('POST', '/v1/crossborder/global-collection', {
    customer_uuid: await approvedCustomer(api),
    amount: 1500,
    currency: 'KES',
    channel_id: 'ke_momo_deposit',
    account_number: '712345678',
    network_id: 'ke_mpesa',
    reason: 'payments-gateway trigger',
    reference: ref('collection'),
    dial_code: '+254',
    account_type: 'momo',
    country_code: 'KE',
  });

/** What each event takes: the sandbox objects made through the public API, and what was made (one line). */
const SCENARIOS: Record<string, (api: Api) => Promise<string>> = {
  'collection.successful': async (api) => {
    const created = await collection(api);
    await simulate(api, created.reference, 'successful');
    return `collection ${created.reference}, paid (sandbox simulate: successful)`;
  },
  'transfer.failed': async (api) => {
    const customer = await approvedCustomer(api);
    // A transfer is paid from the available balance: sandbox test money first.
    await api.request('POST', '/v1/sandbox/balance/top-up', { currency: 'USD', amount: '100.00' });
    const created = await api.request<Transaction>('POST', '/v1/crossborder/global-transfer', {
      customer_uuid: customer,
      amount: 10,
      source_currency: 'USD',
      destination_currency: 'KES',
      country_code: 'KE',
      channel_id: 'ke_momo_withdrawal',
      network_id: 'ke_mpesa',
      // The sandbox's rule (CONTRACT §6): an account number ending in 000 fails, whenever the sandbox decides it.
      account_number: '712345000',
      account_name: 'Amina Otieno',
      dial_code: '+254',
      account_type: 'momo',
      reason: 'payments-gateway trigger',
      reference: ref('transfer'),
    });
    await simulate(api, created.reference, 'failed');
    return `transfer ${created.reference}, failed (sandbox simulate: failed)`;
  },
  'payment.requires_action': async (api) => {
    const created = await cardPayment(api, CARD_3DS);
    return `card payment ${created.reference} with the 3-D Secure test card ${CARD_3DS}, ${created.status}`;
  },
  'refund.successful': async (api) => {
    const payment = await cardPayment(api, CARD_SUCCEEDS);
    // The refund is reserved from the available balance: sandbox test money first.
    await api.request('POST', '/v1/sandbox/balance/top-up', { currency: 'NGN', amount: '2500.00' });
    const refund = await api.request<Transaction>('POST', '/v1/refunds', {
      payment_reference: payment.reference,
      reason: 'payments-gateway trigger',
      reference: ref('refund'),
    });
    await simulate(api, refund.reference, 'successful');
    return `card payment ${payment.reference} and its refund ${refund.reference}, refunded (sandbox simulate: successful)`;
  },
  'funding.successful': async (api) => {
    const funding = await api.request<Transaction & { bankInfo?: { accountNumber: string } }>('POST', '/v1/balance/funding', {
      currency: 'NGN',
      amount: '50000.00',
      reference: ref('funding'),
    });
    await simulate(api, funding.reference, 'successful');
    return `funding ${funding.reference} of 50000.00 NGN into account ${funding.bankInfo?.accountNumber}, paid (sandbox simulate: successful)`;
  },
  'dispute.created': async (api) => {
    const payment = await cardPayment(api, CARD_SUCCEEDS);
    const dispute = await api.request<{ id: string }>('POST', '/v1/sandbox/disputes', { payment_reference: payment.reference, reason: 'fraudulent' });
    return `card payment ${payment.reference} and dispute ${dispute.id} (sandbox dispute: fraudulent)`;
  },
};

export const TRIGGERABLE = Object.keys(SCENARIOS);

/**
 * `trigger <event>`: makes the sandbox objects that produce the event, through the public API (test cards,
 * sandbox simulate, sandbox disputes), and says what it made; in production it refuses before making anything. The event follows, as any event: to the webhook
 * endpoint if one is set, and to every `listen`. Warns when the merchant's event choice leaves the event out
 * (it is then not recorded).
 */
export async function trigger(api: Api, event: string, print: (line: string) => void, warn: (line: string) => void): Promise<void> {
  const scenario = SCENARIOS[event];
  if (!scenario) throw new Error(`cannot trigger ${JSON.stringify(event)}: choose one of ${TRIGGERABLE.join(', ')}`);
  // Sandbox objects only: in production a collection or a payment would be real. Asked before anything is made.
  const { env } = await api.request<{ env: string }>('GET', '/health');
  if (env !== 'sandbox') throw new Error(`trigger makes sandbox objects, and ${api.credentials.baseUrl} runs in ${env}: nothing was made`);
  const merchant = await api.request<{ webhook_event_types: string[] }>('GET', '/v1/merchant');
  if (!merchant.webhook_event_types.includes(event)) {
    warn(
      `Note: ${event} is not among the event types you chose (webhook_event_types), so it will not be recorded or sent; add it with PUT /v1/webhooks/endpoint {"event_types": [...]}.`,
    );
  }
  print(`Trigger succeeded: ${await scenario(api)}. Expect ${event}.`);
}
