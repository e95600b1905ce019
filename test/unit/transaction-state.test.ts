import {
  TRANSACTION_KINDS,
  TRANSACTION_STATUSES,
  isFinal,
  nextTransactionStatus,
  type TransactionKind,
  type TransactionStatus,
} from '../../src/modules/transactions/transaction.state';
import { sandboxSettlement } from '../../src/providers/sandbox';
import { AppError } from '../../src/shared/errors';

/**
 * Every change the state machine allows: out of initiating once the provider has
 * answered (accepted, or declined at once; a card may also be charged at once, or
 * wait for 3-D Secure), and out of processing (or requires_action) into a final
 * status the kind can reach.
 */
const allowed: Array<[TransactionKind, TransactionStatus, TransactionStatus]> = [
  ['collection', 'initiating', 'processing'],
  ['collection', 'initiating', 'failed'],
  ['transfer', 'initiating', 'processing'],
  ['transfer', 'initiating', 'failed'],
  ['payment', 'initiating', 'processing'],
  ['payment', 'initiating', 'requires_action'],
  ['payment', 'initiating', 'successful'],
  ['payment', 'initiating', 'failed'],
  ['payment', 'requires_action', 'successful'],
  ['payment', 'requires_action', 'failed'],
  ['collection', 'processing', 'successful'],
  ['collection', 'processing', 'failed'],
  ['collection', 'processing', 'expired'],
  ['transfer', 'processing', 'successful'],
  ['transfer', 'processing', 'failed'],
  ['payment', 'processing', 'successful'],
  ['payment', 'processing', 'failed'],
  // Issue 41: a bank transfer payment nobody paid into expires, as a bank collection does (its expiry job asked for this).
  ['payment', 'processing', 'expired'],
  ['refund', 'initiating', 'processing'],
  ['refund', 'initiating', 'failed'],
  ['refund', 'processing', 'successful'],
  ['refund', 'processing', 'failed'],
  // Issue 38: a payout to the merchant's own account moves as a transfer does.
  ['payout', 'initiating', 'processing'],
  ['payout', 'initiating', 'failed'],
  ['payout', 'processing', 'successful'],
  ['payout', 'processing', 'failed'],
  // Issue 41: a funding of the merchant's balance: an account to pay into, paid or expired.
  ['funding', 'initiating', 'processing'],
  ['funding', 'initiating', 'failed'],
  ['funding', 'processing', 'successful'],
  ['funding', 'processing', 'failed'],
  ['funding', 'processing', 'expired'],
];

const isAllowed = (kind: TransactionKind, from: TransactionStatus, to: TransactionStatus) => allowed.some(([k, f, t]) => k === kind && f === from && t === to);

/** Every (kind, from, to) triple that is not allowed. */
const forbidden = TRANSACTION_KINDS.flatMap((kind) =>
  TRANSACTION_STATUSES.flatMap((from) => TRANSACTION_STATUSES.filter((to) => !isAllowed(kind, from, to)).map((to) => [kind, from, to] as const)),
);

function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  return undefined;
}

function expectInvalidState(fn: () => unknown) {
  const err = thrownBy(fn);
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe('INVALID_STATE');
  expect((err as AppError).httpStatus).toBe(409);
}

describe('transaction state machine', () => {
  it('knows the six kinds and the six statuses', () => {
    expect([...TRANSACTION_KINDS]).toEqual(['collection', 'transfer', 'payment', 'refund', 'payout', 'funding']);
    expect([...TRANSACTION_STATUSES]).toEqual(['initiating', 'processing', 'requires_action', 'successful', 'failed', 'expired']);
  });

  it.each(allowed)('a %s may go %s → %s', (kind, from, to) => {
    expect(nextTransactionStatus(kind, from, to)).toBe(to);
  });

  it('forbids every other (kind, from, to) triple: 185 of the 216', () => {
    // 6 kinds × 6 × 6 = 216 triples, 31 allowed.
    expect(forbidden).toHaveLength(6 * 6 * 6 - allowed.length);
    expect(forbidden).toHaveLength(185);
  });

  it.each(forbidden)('a %s may not go %s → %s: INVALID_STATE (409)', (kind, from, to) => {
    expectInvalidState(() => nextTransactionStatus(kind, from, to));
  });

  describe.each(TRANSACTION_KINDS)('%s', (kind) => {
    it.each(['successful', 'failed', 'expired'] as const)('never leaves the final status %s, not even to itself', (from) => {
      for (const to of TRANSACTION_STATUSES) expectInvalidState(() => nextTransactionStatus(kind, from, to));
      expect(() => nextTransactionStatus(kind, from, 'successful')).toThrow(/final status never changes/);
    });

    it('never returns to (or stays in) processing, and never goes back to initiating', () => {
      for (const from of TRANSACTION_STATUSES.filter((s) => s !== 'initiating')) expectInvalidState(() => nextTransactionStatus(kind, from, 'processing'));
      for (const from of TRANSACTION_STATUSES) expectInvalidState(() => nextTransactionStatus(kind, from, 'initiating'));
    });

    it('never expires straight from initiating', () => {
      expectInvalidState(() => nextTransactionStatus(kind, 'initiating', 'expired'));
    });
  });

  it.each(['collection', 'transfer', 'refund', 'payout', 'funding'] as const)(
    'a %s cannot succeed straight from initiating, nor wait for 3-D Secure',
    (kind) => {
      expectInvalidState(() => nextTransactionStatus(kind, 'initiating', 'successful'));
      expectInvalidState(() => nextTransactionStatus(kind, 'initiating', 'requires_action'));
    },
  );

  it('a payment awaiting 3-D Secure ends successful or failed, never expired: an authentication not made in time fails it', () => {
    expectInvalidState(() => nextTransactionStatus('payment', 'requires_action', 'expired'));
    expectInvalidState(() => nextTransactionStatus('payment', 'requires_action', 'processing'));
  });

  it.each(['transfer', 'refund', 'payout'] as const)('only money asked into an account expires: a processing %s cannot become expired', (kind) => {
    expectInvalidState(() => nextTransactionStatus(kind, 'processing', 'expired'));
    expect(() => nextTransactionStatus(kind, 'processing', 'expired')).toThrow(`A ${kind} that is processing cannot become expired`);
  });

  it('calls initiating, processing and requires_action the only non-final statuses', () => {
    expect(TRANSACTION_STATUSES.filter((s) => !isFinal(s))).toEqual(['initiating', 'processing', 'requires_action']);
  });
});

describe('card payment transitions', () => {
  it.each<[TransactionStatus, TransactionStatus[]]>([
    ['initiating', ['processing', 'requires_action', 'successful', 'failed']],
    ['processing', ['successful', 'failed', 'expired']],
    ['requires_action', ['successful', 'failed']],
    ['successful', []],
    ['failed', []],
    ['expired', []],
  ])('a payment that is %s may become exactly %p', (from, tos) => {
    const reachable = TRANSACTION_STATUSES.filter((to) => thrownBy(() => nextTransactionStatus('payment', from, to)) === undefined);
    expect(reachable).toEqual(tos);
  });

  it.each<[TransactionStatus, TransactionStatus]>([
    ['requires_action', 'expired'],
    ['requires_action', 'requires_action'],
    ['requires_action', 'processing'],
    ['requires_action', 'initiating'],
    ['processing', 'requires_action'],
    ['processing', 'processing'],
    ['initiating', 'expired'],
    ['initiating', 'initiating'],
  ])('refuses %s → %s with INVALID_STATE, naming both', (from, to) => {
    expectInvalidState(() => nextTransactionStatus('payment', from, to));
    expect(() => nextTransactionStatus('payment', from, to)).toThrow(`A payment that is ${from} cannot become ${to}`);
  });

  it('expires only from processing (a bank transfer nobody paid into), never from any other status', () => {
    for (const from of TRANSACTION_STATUSES.filter((s) => s !== 'processing')) expectInvalidState(() => nextTransactionStatus('payment', from, 'expired'));
    expect(nextTransactionStatus('payment', 'processing', 'expired')).toBe('expired');
  });

  it.each(['successful', 'failed', 'expired'] as const)('a %s payment never goes back to requires_action', (from) => {
    expectInvalidState(() => nextTransactionStatus('payment', from, 'requires_action'));
    expect(() => nextTransactionStatus('payment', from, 'requires_action')).toThrow(`The transaction is already ${from}; a final status never changes`);
  });

  describe.each(['collection', 'transfer'] as const)('a %s (no 3-D Secure)', (kind) => {
    it.each(TRANSACTION_STATUSES)('cannot enter requires_action from %s', (from) => {
      expectInvalidState(() => nextTransactionStatus(kind, from, 'requires_action'));
    });

    it.each(TRANSACTION_STATUSES)('cannot leave requires_action (were it ever there) for %s', (to) => {
      expectInvalidState(() => nextTransactionStatus(kind, 'requires_action', to));
      expect(() => nextTransactionStatus(kind, 'requires_action', to)).toThrow(`A ${kind} that is requires_action cannot become ${to}`);
    });
  });
});

describe('sandbox settlement rule (sandboxSettlement)', () => {
  const decide = (kind: 'collection' | 'transfer', accountType: 'bank' | 'momo', accountNumber: string) =>
    sandboxSettlement({ kind, accountType, accountNumber });

  describe.each([
    ['collection', 'momo', 'payment_declined_by_sender'],
    ['transfer', 'momo', 'beneficiary_account_unavailable'],
    ['transfer', 'bank', 'beneficiary_account_unavailable'],
  ] as const)('a %s over %s', (kind, accountType, reason) => {
    it.each(['254712345000', '1000', '0000', 'AB000'])('fails for account %s (ends in 000), with a reason', (accountNumber) => {
      expect(decide(kind, accountType, accountNumber)).toEqual({ outcome: 'failed', reason });
    });

    it.each(['254712345678', '254712340001', '0001', '00', '000123', '254712345600', 'ABCD'])('succeeds for account %s', (accountNumber) => {
      expect(decide(kind, accountType, accountNumber)).toEqual({ outcome: 'successful' });
    });
  });

  it.each(['0123456789', '0123456000'])('leaves a bank collection pending (the sender pays, or it expires), whatever the account (%s)', (accountNumber) => {
    expect(decide('collection', 'bank', accountNumber)).toEqual({ outcome: 'pending' });
  });
});
