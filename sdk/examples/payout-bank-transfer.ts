import { unwrap, type PaymentsClient } from '../src';
import { clientFromEnv, env, runIfMain } from './run';

/** Pays USD 100 out to a Kenyan bank account (KES), at a rate locked by a fresh quote. */
export async function payOutByBankTransfer(client: PaymentsClient, customerUuid: string, reference = `payout-${Date.now()}`) {
  // Rates move: quote right before the transfer; its quote_id locks the rate for 60 s.
  const quote = unwrap(
    await client.GET('/v1/crossborder/rates', { params: { query: { source_currency: 'USD', destination_currency: 'KES', amount: '100' } } }),
  );

  const transfer = unwrap(
    await client.POST('/v1/crossborder/global-transfer', {
      body: {
        customer_uuid: customerUuid,
        amount: '100',
        source_currency: 'USD',
        destination_currency: 'KES',
        quote_id: quote.quote_id,
        country_code: 'KE',
        channel_id: 'ke_bank_withdrawal',
        network_id: 'ke_kcb',
        account_type: 'bank',
        account_number: '0123456789',
        account_name: 'Jane Wanjiru',
        dial_code: '+254',
        reason: 'Supplier payout',
        reference,
      },
    }),
  );
  // The fee is charged on top of the amount; destination_amount is what the beneficiary receives.
  return { reference: transfer.reference, status: transfer.status, rate: transfer.rate, fee: transfer.fee, receives: transfer.destination_amount };
}

runIfMain(module, () => payOutByBankTransfer(clientFromEnv(), env('CUSTOMER_UUID')));
