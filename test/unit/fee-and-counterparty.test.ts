import { counterpartyIsCustomer, counterpartyOf, maskAccount } from '../../src/modules/transactions/counterparty';
import { TRANSACTION_CSV_COLUMNS, transactionsCsv } from '../../src/modules/transactions/transaction.csv';
import { feeCharged } from '../../src/modules/transactions/transaction.fee';
import { moneyOutLedger } from '../../src/modules/transactions/transaction.ledger';
import { BLANK, type TransactionColumns, type TransactionOf } from '../../src/modules/transactions/transaction.record';
import { TRANSACTION_STATUSES, type TransactionKind, type TransactionStatus } from '../../src/modules/transactions/transaction.state';
import { Decimal } from '../../src/shared/money';

const D = (v: string | number) => new Decimal(v);
const NOW = new Date('2026-12-11T12:00:00Z');

function txn<K extends TransactionKind>(kind: K, fields: Partial<TransactionColumns> = {}): TransactionOf<K> {
  return {
    ...BLANK,
    id: '00000000-0000-4000-8000-000000000001',
    merchantId: '00000000-0000-4000-8000-000000000002',
    kind,
    reference: 'ref_1',
    externalReference: 'ext-1',
    status: 'processing',
    connector: 'sandbox',
    createdAt: NOW,
    updatedAt: NOW,
    ...fields,
  } as TransactionOf<K>;
}

/** Issue 41: a failed or expired transaction shows no fee, as the books charged none. */
describe('feeCharged', () => {
  it('is the fee while open or successful, 0 once failed or expired; null stays null', () => {
    const shown = Object.fromEntries(TRANSACTION_STATUSES.map((status) => [status, feeCharged({ status, fee: D('1.50') })?.toFixed()]));
    expect(shown).toEqual({ initiating: '1.5', processing: '1.5', requires_action: '1.5', successful: '1.5', failed: '0', expired: '0' });
    for (const status of TRANSACTION_STATUSES) expect(feeCharged({ status, fee: null })).toBeNull();
  });

  it('agrees with the books: what a money-out transaction’s entries charge, net, is its feeCharged', () => {
    const fee = D('0.75');
    const out = { type: 'transfer', currency: 'USD', amount: D(50), fee, payoutCurrency: 'USD', payoutAmount: D(50) } as const;
    for (const final of ['successful', 'failed'] as const) {
      const reserve = moneyOutLedger(txn('transfer', { status: 'initiating' }), 'sandbox', out);
      const end = moneyOutLedger(txn('transfer', { status: final as TransactionStatus }), 'sandbox', out);
      // What fee revenue keeps in the end is what was charged.
      const revenue = [...reserve.postings, ...end.postings]
        .flatMap((p) => p.lines)
        .filter((l) => l.account === 'p:fee_revenue:USD')
        .reduce((sum, l) => sum.plus(l.amount), D(0));
      expect([final, revenue.toFixed()]).toEqual([final, feeCharged({ status: final, fee }).toFixed()]);
    }
  });
});

describe('counterpartyOf', () => {
  const amina = { firstName: 'Amina', lastName: 'Otieno' };

  it('a transfer’s and a payout’s is the beneficiary’s account, masked, never the customer', () => {
    const transfer = txn('transfer', { accountName: 'Jane Wanjiru', accountNumber: '712345678', customerId: 'c1' });
    expect(counterpartyOf(transfer, amina)).toEqual({ name: 'Jane Wanjiru', account: '••••5678' });
    expect(counterpartyOf(txn('payout', { accountName: 'Adaeze Okafor', accountNumber: '0123456780' }), undefined)).toEqual({
      name: 'Adaeze Okafor',
      account: '••••6780',
    });
    expect([counterpartyIsCustomer('transfer'), counterpartyIsCustomer('payout')]).toEqual([false, false]);
  });

  it('a collection’s is its sender, the customer, from its account; a payment’s its payer, with the card or wallet', () => {
    expect(counterpartyOf(txn('collection', { accountNumber: '712345678', customerId: 'c1' }), amina)).toEqual({ name: 'Amina Otieno', account: '••••5678' });
    expect(counterpartyOf(txn('payment', { cardLast4: '4242' }), undefined)).toEqual({ name: null, account: '••••4242' });
    expect(counterpartyOf(txn('payment', { accountNumber: '241234567' }), amina)).toEqual({ name: 'Amina Otieno', account: '••••4567' });
    expect(counterpartyOf(txn('payment', {}), amina)).toEqual({ name: 'Amina Otieno', account: null });
    expect(counterpartyOf(txn('refund', {}), amina)).toEqual({ name: 'Amina Otieno', account: null });
    expect(['collection', 'payment', 'refund'].map((k) => counterpartyIsCustomer(k as TransactionKind))).toEqual([true, true, true]);
  });

  it('masks all but the last four characters', () => {
    expect(maskAccount('0123456789')).toBe('••••6789');
    expect(maskAccount('12')).toBe('••••12');
  });
});

describe('the transaction export’s new columns', () => {
  it('come last, after every column it had, so a reader by position reads those as before', () => {
    expect(TRANSACTION_CSV_COLUMNS.slice(-2)).toEqual(['counterparty_name', 'counterparty_account']);
    expect(TRANSACTION_CSV_COLUMNS.indexOf('completed_at')).toBe(TRANSACTION_CSV_COLUMNS.length - 3);
  });

  it('a failed transfer’s row: fee 0.00, the beneficiary as its counterparty', async () => {
    const failed = txn('transfer', {
      status: 'failed',
      customerId: 'c1',
      accountName: 'Jane Wanjiru',
      accountNumber: '712345678',
      sourceAmount: D(100),
      sourceCurrency: 'USD',
      destinationAmount: D(12900),
      destinationCurrency: 'KES',
      fee: D(1),
    });
    let text = '';
    const batches = (async function* () {
      yield [failed];
    })();
    const customers = async () => new Map([['c1', { firstName: 'Amina', lastName: 'Otieno', email: 'amina@example.com' }]]);
    for await (const chunk of transactionsCsv(batches, customers, () => 2)) text += chunk;
    const [header, row] = text.split('\r\n').map((line) => line.split(','));
    const cells = Object.fromEntries(header!.map((h, i) => [h, row![i]]));
    expect(cells).toMatchObject({ fee: '0.00', customer_name: 'Amina Otieno', counterparty_name: 'Jane Wanjiru', counterparty_account: '••••5678' });
  });
});
