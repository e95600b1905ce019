import { BLANK, asTransaction, type TransactionColumns } from '../../src/modules/transactions/transaction.record';
import { Decimal } from '../../src/shared/money';

/** Issue 23: a row becomes the record of its kind, and one that lacks a column its kind always has fails at the read. */
describe('a transaction row → the record of its kind', () => {
  const now = new Date('2026-11-27T12:00:00Z');
  const refund: TransactionColumns = {
    ...BLANK,
    id: '00000000-0000-4000-8000-000000000001',
    merchantId: '00000000-0000-4000-8000-000000000002',
    kind: 'refund',
    reference: 'rfd_000000000000000000000000',
    externalReference: 'refund-1',
    status: 'processing',
    connector: 'sandbox',
    amount: new Decimal('10'),
    currency: 'NGN',
    fee: new Decimal('0'),
    reason: 'returned',
    parentId: '00000000-0000-4000-8000-000000000003',
    parentReference: 'pay_000000000000000000000000',
    createdAt: now,
    updatedAt: now,
  };

  it('a row with its kind’s columns is that record, as it is', () => {
    const txn = asTransaction(refund);
    expect(txn).toBe(refund);
    expect(txn.kind === 'refund' && txn.parentId).toBe(refund.parentId);
  });

  it('a row without one of its kind’s columns fails loudly, naming it', () => {
    expect(() => asTransaction({ ...refund, parentId: null })).toThrow(`refund ${refund.id} has no parentId`);
    expect(() => asTransaction({ ...refund, kind: 'payment' })).toThrow(`payment ${refund.id} has no paymentMethod`);
  });

  it('a column another kind has is not asked of this one', () => {
    expect(
      asTransaction({ ...refund, kind: 'payment', paymentMethod: 'card', cardBrand: 'visa', cardLast4: '4242', cardFingerprint: 'fp_1', fee: null }).kind,
    ).toBe('payment');
  });

  it('an unknown kind fails loudly', () => {
    expect(() => asTransaction({ ...refund, kind: 'loan' as never })).toThrow('unknown kind: loan');
  });
});
