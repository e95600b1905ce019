import { unwrap, type PaymentsClient } from '../src';
import { clientFromEnv, env, runIfMain } from './run';

/** Collects KES 1,500 from a Kenyan M-Pesa wallet: the sender gets a payment prompt on their phone. */
export async function collectByMobileMoney(client: PaymentsClient, customerUuid: string, reference = `inv-${Date.now()}`) {
  // The channel and the network come from the lookups (spec §1's call order).
  const channels = unwrap(await client.GET('/v1/crossborder/channels', { params: { query: { country_code: 'KE', ramptype: 'deposit' } } }));
  const channel = channels.find((c) => c.channel_type === 'momo')!;
  const networks = unwrap(await client.GET('/v1/crossborder/networks', { params: { query: { country_code: 'KE', channel: 'momo' } } }));
  const mpesa = networks.find((n) => n.name === 'M-Pesa')!;

  // A create: the SDK sends an Idempotency-Key, and the same one if it has to send the request again.
  const collection = unwrap(
    await client.POST('/v1/crossborder/global-collection', {
      body: {
        customer_uuid: customerUuid, // KYC-approved
        amount: '1500',
        currency: channel.currency,
        country_code: 'KE',
        channel_id: channel.channel_id,
        network_id: mpesa.network_id,
        account_type: 'momo',
        dial_code: '+254',
        account_number: '712345678',
        reason: 'Invoice 42',
        reference,
      },
    }),
  );
  // `processing` until the sender approves: the outcome comes by webhook, or from the status endpoint.
  return unwrap(await client.GET('/v1/crossborder/global-transfer/{reference}', { params: { path: { reference: collection.reference } } }));
}

runIfMain(module, () => collectByMobileMoney(clientFromEnv(), env('CUSTOMER_UUID')));
