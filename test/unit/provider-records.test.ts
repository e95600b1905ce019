import type { Connector } from '../../src/providers/connector';
import { providerRecords } from '../../src/modules/reconciliation/provider-records';
import type { OurTransaction } from '../../src/modules/reconciliation/matching';
import { Decimal } from '../../src/shared/money';

/**
 * A connector that lists nothing (MTN MoMo, M-Pesa, the sandbox) is asked about each of our transactions: the record
 * it gives is ours, with the provider's verdict, and money in or out by our transaction's kind.
 */
describe('provider records from status queries', () => {
  const connector = { name: 'sandbox', inProcess: true } as unknown as Connector;
  const window = { from: new Date('2026-12-01T00:00:00Z'), to: new Date('2026-12-02T00:00:00Z') };
  const ours = (kind: string): OurTransaction => ({
    id: `id-${kind}`,
    reference: `ref-${kind}`,
    kind,
    status: 'successful',
    providerReference: `p-${kind}`,
    amount: new Decimal('100.50'),
    currency: 'NGN',
  });

  it('collections, payments and fundings are money in; transfers, refunds and payouts money out', async () => {
    const kinds = ['collection', 'payment', 'funding', 'transfer', 'refund', 'payout'];
    const records = await providerRecords(connector, kinds.map(ours), window, async () => ({ outcome: 'successful' }));
    expect(records.map((r) => [r.ourReference, r.kind, r.status, r.amount.toFixed()])).toEqual([
      ['id-collection', 'in', 'successful', '100.5'],
      ['id-payment', 'in', 'successful', '100.5'],
      ['id-funding', 'in', 'successful', '100.5'],
      ['id-transfer', 'out', 'successful', '100.5'],
      ['id-refund', 'out', 'successful', '100.5'],
      ['id-payout', 'out', 'successful', '100.5'],
    ]);
  });

  it('a kind whose provider is asked nothing gives no record', async () => {
    expect(await providerRecords(connector, [ours('funding')], window, async () => null)).toEqual([]);
  });
});
