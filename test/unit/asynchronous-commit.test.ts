import { Decimal } from '../../src/shared/money';
import { BLANK, type Transaction } from '../../src/modules/transactions/transaction.record';
import { commitsAsynchronously, type StatusChange } from '../../src/modules/transactions/transaction.store';

/** Issue 22: which status changes may commit without waiting for the disk (docs/design.md, "Asynchronous commit of the first answer"). */
describe('asynchronous commit: only a first answer that nothing outside can act on', () => {
  const now = new Date('2026-11-25T12:00:00Z');
  const txn: Transaction = {
    ...BLANK,
    id: '00000000-0000-4000-8000-000000000001',
    merchantId: '00000000-0000-4000-8000-000000000002',
    kind: 'collection',
    reference: 'col_000000000000000000000000',
    externalReference: 'inv-1',
    status: 'processing',
    connector: 'sandbox',
    customerId: '00000000-0000-4000-8000-000000000003',
    accountType: 'momo',
    countryCode: 'KE',
    channelId: 'ch-ke-momo',
    networkId: 'nw-ke-mpesa',
    accountNumber: '712345678',
    dialCode: '+254',
    reason: 'invoice 1',
    amount: new Decimal('1500'),
    currency: 'KES',
    createdAt: now,
    updatedAt: now,
  };
  const first: StatusChange = { next: txn, from: 'initiating', history: { from: null, reason: 'initiated' } };
  const event = { type: 'collection.failed', merchantId: txn.merchantId, subjectId: txn.reference, payload: {}, id: 'evt_1', createdAt: now } as never;

  const processingEvent = { ...(event as object), type: 'collection.processing' } as never;

  it('a processing first answer with no posting or page, and at most its own processing event: asynchronous', () => {
    expect(commitsAsynchronously(first)).toBe(true);
    expect(commitsAsynchronously({ ...first, history: { from: null, reason: 'reconciled' } })).toBe(true);
    // Issue 24: its event only repeats the request's answer, and its id is derived from the transaction (recorded again, the same event).
    expect(commitsAsynchronously({ ...first, event: processingEvent })).toBe(true);
  });

  it('anything else waits for the disk', () => {
    expect(commitsAsynchronously({ ...first, from: 'processing', history: { from: 'processing', reason: 'provider' } })).toBe(false);
    expect(commitsAsynchronously({ ...first, next: { ...txn, status: 'failed' }, event })).toBe(false);
    expect(commitsAsynchronously({ ...first, next: { ...txn, status: 'requires_action', nextActionUrl: 'http://127.0.0.1/3ds' } })).toBe(false);
    expect(commitsAsynchronously({ ...first, next: { ...txn, nextActionUrl: 'http://127.0.0.1/approve' } })).toBe(false);
    expect(commitsAsynchronously({ ...first, event })).toBe(false);
    expect(commitsAsynchronously({ ...first, event: { ...(processingEvent as object), type: 'transfer.processing' } as never })).toBe(false);
    const posting = { postings: [{ key: 'k', kind: 'settlement', lines: [] }] } as never;
    expect(commitsAsynchronously({ ...first, ledger: posting })).toBe(false);
    expect(commitsAsynchronously({ ...first, ledger: { postings: [], parentClaim: { parentId: txn.id, amount: new Decimal('1') } } })).toBe(false);
  });
});
