import fc from 'fast-check';
import { feeFor, parseFeeDefaults } from '../../src/modules/ledger/fee-schedule';
import { isBalanced, merchantAccount, move, posting, type Posting } from '../../src/modules/ledger/ledger.model';
import { statementCsv } from '../../src/modules/ledger/ledger.serializer';
import type { BalanceTransaction, Statement } from '../../src/modules/ledger/ledger.service';
import { moneyInLedger, moneyInLegs, moneyOutLedger, moneyOutLegs } from '../../src/modules/transactions/transaction.ledger';
import { BLANK, type TransactionColumns, type TransactionOf, type TransferTransaction } from '../../src/modules/transactions/transaction.record';
import type { TransactionKind, TransactionStatus } from '../../src/modules/transactions/transaction.state';
import { Decimal } from '../../src/shared/money';

const D = (v: string | number) => new Decimal(v);
const M = '5b0e7c1a-3f2d-4b8e-9a61-0c2f4d8e7b19';
const NOW = new Date('2026-11-25T12:00:00Z');

/** A record of kind `K` (a collection unless given) with the fields the ledger reads; the rest blank. */
function txn<K extends TransactionKind = 'collection'>(fields: Partial<TransactionColumns> & { kind?: K }): TransactionOf<K> {
  return {
    ...BLANK,
    id: '0f0f0f0f-0000-4000-8000-000000000001',
    merchantId: M,
    connector: 'sandbox',
    kind: 'collection',
    reference: 'col_1',
    externalReference: 'ext-1',
    status: 'successful',
    createdAt: NOW,
    updatedAt: NOW,
    ...fields,
  } as TransactionOf<K>;
}

/** Sum of lines per account over every posting. */
function sums(postings: Posting[]): Record<string, string> {
  const out: Record<string, Decimal> = {};
  for (const p of postings) for (const l of p.lines) out[l.account.replace(M, 'M')] = (out[l.account.replace(M, 'M')] ?? D(0)).plus(l.amount);
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, v.toFixed()]));
}

describe('the ledger model', () => {
  it('a move is a debit and a credit of the same amount; nothing for zero', () => {
    expect(move('a:X:USD', 'b:X:USD', 'USD', D('10.5')).map((l) => [l.account, l.amount.toFixed()])).toEqual([
      ['a:X:USD', '-10.5'],
      ['b:X:USD', '10.5'],
    ]);
    expect(move('a', 'b', 'USD', D(0))).toEqual([]);
  });

  it('balances per currency: a USD debit is not offset by a KES credit', () => {
    expect(isBalanced([...move('a', 'b', 'USD', D(1)), ...move('c', 'd', 'KES', D(129))])).toBe(true);
    expect(
      isBalanced([
        { account: 'a', currency: 'USD', amount: D(-1) },
        { account: 'b', currency: 'KES', amount: D(1) },
      ]),
    ).toBe(false);
  });

  it('posting() refuses an unbalanced entry before the database has to', () => {
    const base = {
      key: 'k',
      leg: 'x',
      merchantId: M,
      transactionId: null,
      type: 'adjustment' as const,
      sourceReference: null,
      fee: D(0),
      description: null,
      createdAt: NOW,
    };
    expect(() => posting({ ...base, lines: [{ account: 'a', currency: 'USD', amount: D(-1) }] })).toThrow(/does not balance/);
    expect(posting({ ...base, lines: [...move('a', 'b', 'USD', D(1)), { account: 'c', currency: 'USD', amount: D(0) }] }).lines).toHaveLength(2);
  });
});

describe('what each kind posts', () => {
  it('money in, successful, delay 0: clearing → pending (net) and fee revenue, then pending → available', () => {
    const effect = moneyInLedger(txn({ amount: D('1500'), fee: D('15'), currency: 'KES' }), 'sandbox', 0);
    expect(effect.postings.map((p) => [p.leg, p.type, p.key])).toEqual([
      ['settle', 'collection', '0f0f0f0f-0000-4000-8000-000000000001:settle'],
      ['release', 'release', '0f0f0f0f-0000-4000-8000-000000000001:release'],
    ]);
    expect(sums(effect.postings)).toEqual({
      'p:provider_clearing:sandbox:KES': '-1500',
      'm:M:pending:KES': '0',
      'p:fee_revenue:KES': '15',
      'm:M:available:KES': '1485',
    });
    expect(effect.jobs).toBeUndefined();
  });

  it('money in with a settlement delay: the settle entry now, the release by a job', () => {
    const effect = moneyInLedger(txn({ kind: 'payment', amount: D('100'), fee: D('1.5'), currency: 'NGN' }), 'sandbox', 3_600_000);
    expect(effect.postings.map((p) => p.leg)).toEqual(['settle']);
    expect(effect.jobs).toEqual([{ name: 'release-funds', payload: { transactionId: '0f0f0f0f-0000-4000-8000-000000000001' }, delayMs: 3_600_000 }]);
    expect(moneyInLegs(3_600_000)('successful')).toEqual({ required: ['settle'], optional: ['release'] });
  });

  it.each(['processing', 'failed', 'expired', 'initiating'] as TransactionStatus[])('money in posts nothing when %s', (status) => {
    expect(moneyInLedger(txn({ status, amount: D(1), fee: D(0), currency: 'KES' }), 'sandbox', 0).postings).toEqual([]);
    expect(moneyInLegs(0)(status)).toEqual({ required: [] });
  });

  const transfer = (status: TransactionStatus, destinationCurrency = 'KES') =>
    txn({
      kind: 'transfer',
      status,
      sourceAmount: D('100'),
      sourceCurrency: 'USD',
      fee: D('1'),
      destinationAmount: destinationCurrency === 'USD' ? D('100') : D('12830.47'),
      destinationCurrency,
    });
  const out = (t: TransferTransaction) =>
    moneyOutLedger(t, 'sandbox', {
      type: 'transfer',
      currency: t.sourceCurrency,
      amount: t.sourceAmount,
      fee: t.fee,
      payoutCurrency: t.destinationCurrency,
      payoutAmount: t.destinationAmount,
    });

  it('a transfer reserves amount + fee at insert, then posts it (success) or voids it (failure)', () => {
    expect(sums(out(transfer('initiating')).postings)).toEqual({ 'm:M:available:USD': '-101', 'm:M:reserved:USD': '101' });
    expect(sums([...out(transfer('initiating')).postings, ...out(transfer('failed')).postings])).toEqual({
      'm:M:available:USD': '0',
      'm:M:reserved:USD': '0',
    });
    expect(out(transfer('failed')).postings[0]).toMatchObject({ leg: 'void', type: 'transfer_reversal' });
    expect(out(transfer('failed')).postings[0]!.fee.toFixed()).toBe('-1');
  });

  it('a cross-currency transfer balances each currency through the FX positions; a same-currency one pays clearing directly', () => {
    const cross = [...out(transfer('initiating')).postings, ...out(transfer('successful')).postings];
    for (const p of cross) expect(isBalanced(p.lines)).toBe(true);
    expect(sums(cross)).toEqual({
      'm:M:available:USD': '-101',
      'm:M:reserved:USD': '0',
      'p:fee_revenue:USD': '1',
      'p:fx_position:USD': '100',
      'p:fx_position:KES': '-12830.47',
      'p:provider_clearing:sandbox:KES': '12830.47',
    });
    expect(sums(out(transfer('successful', 'USD')).postings)).toEqual({
      'm:M:reserved:USD': '-101',
      'p:fee_revenue:USD': '1',
      'p:provider_clearing:sandbox:USD': '100',
    });
    expect(moneyOutLegs('successful')).toEqual({ required: ['reserve', 'post'] });
    expect(moneyOutLegs('processing')).toEqual({ required: ['reserve'] });
  });

  it('property: whatever the amounts, every posting of every kind balances, and a failure returns exactly what was held', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 ** 12 }),
        fc.integer({ min: 0, max: 10 ** 6 }),
        fc.integer({ min: 1, max: 10 ** 12 }),
        (amountMinor, feeMinor, payoutMinor) => {
          const t = txn({
            kind: 'transfer',
            sourceAmount: D(amountMinor).div(100),
            fee: D(feeMinor).div(100),
            sourceCurrency: 'USD',
            destinationAmount: D(payoutMinor).div(100),
            destinationCurrency: 'KES',
          });
          const all = (['initiating', 'successful', 'failed'] as const).flatMap((status) => out({ ...t, status }).postings);
          for (const p of all) expect(isBalanced(p.lines)).toBe(true);
          const failed = sums([...out({ ...t, status: 'initiating' }).postings, ...out({ ...t, status: 'failed' }).postings]);
          expect(Object.values(failed).every((v) => v === '0')).toBe(true);
          const collected = moneyInLedger(txn({ amount: D(amountMinor).div(100), fee: D(Math.min(feeMinor, amountMinor)).div(100), currency: 'NGN' }), 'x', 0);
          for (const p of collected.postings) expect(isBalanced(p.lines)).toBe(true);
        },
      ),
    );
  });

  it('account ids name the owner, the code and the currency', () => {
    expect(merchantAccount(M, 'available', 'NGN')).toBe(`m:${M}:available:NGN`);
  });
});

describe('fees', () => {
  it('percent of the amount, half-up to the minor unit, plus the fixed part; never more than the amount', () => {
    expect(feeFor({ percent: D('1.5'), fixed: D(0) }, D('2500'), 2).toFixed()).toBe('37.5');
    expect(feeFor({ percent: D('1'), fixed: D(0) }, D('1500.50'), 2).toFixed()).toBe('15.01');
    expect(feeFor({ percent: D('1.4'), fixed: D('100') }, D('10000'), 2).toFixed()).toBe('240');
    expect(feeFor({ percent: D('1'), fixed: D(0) }, D('149'), 0).toFixed()).toBe('1');
    expect(feeFor({ percent: D('1'), fixed: D('50') }, D('20'), 2).toFixed()).toBe('20');
  });

  it('FEE_DEFAULTS: kind:percent pairs over the built-in defaults; anything else refuses to start', () => {
    expect(Object.fromEntries(Object.entries(parseFeeDefaults('')).map(([k, v]) => [k, v.toFixed()]))).toEqual({
      collection: '1',
      transfer: '1',
      payment: '1.5',
      // Payouts to the merchant's own account are free unless priced (issue 38).
      payout: '0',
      // Disputes cost nothing unless priced (issue 39).
      dispute: '0',
    });
    expect(parseFeeDefaults('dispute:1').dispute.toFixed()).toBe('1');
    expect(parseFeeDefaults('payment:2.9, transfer:0').payment.toFixed()).toBe('2.9');
    expect(parseFeeDefaults('payout:0.5').payout.toFixed()).toBe('0.5');
    expect(parseFeeDefaults('payment:2.9, transfer:0').transfer.toFixed()).toBe('0');
    expect(() => parseFeeDefaults('payments:2')).toThrow(/FEE_DEFAULTS/);
    expect(() => parseFeeDefaults('payment:-1')).toThrow(/FEE_DEFAULTS/);
  });
});

describe('the statement CSV', () => {
  const entry = (fields: Partial<BalanceTransaction>): BalanceTransaction => ({
    id: 'b1',
    type: 'adjustment',
    currency: 'NGN',
    amount: D('-2.5'),
    fee: D(0),
    net: D('-2.5'),
    balanceAfter: D('97.5'),
    sourceReference: null,
    externalReference: null,
    createdAt: NOW,
    ...fields,
  });
  const statement = (entries: BalanceTransaction[], totals: Statement['totals']): Statement => ({
    currency: 'NGN',
    minorUnit: 2,
    from: NOW,
    to: new Date('2026-11-26T00:00:00Z'),
    openingBalance: D('100'),
    closingBalance: entries.at(-1)!.balanceAfter,
    entryCount: entries.length,
    entries: (async function* () {
      yield entries;
    })(),
    totals,
  });
  const adjustment = (sourceReference: string) =>
    statement([entry({ sourceReference })], [{ type: 'adjustment', count: 1, amount: D('-2.5'), fee: D(0), net: D('-2.5') }]);
  const csvOf = async (s: Statement) => {
    let text = '';
    for await (const chunk of statementCsv(s)) text += chunk;
    return text;
  };

  it('two sections, each with its header: the balances and their entries, then the totals with their own columns (the count in `count`)', async () => {
    const s = statement(
      [
        entry({ sourceReference: 'ADJ-1' }),
        entry({
          id: 'b2',
          type: 'payment',
          amount: D('2000'),
          fee: D('30'),
          net: D('1970'),
          balanceAfter: D('2067.5'),
          sourceReference: 'pay_1',
          externalReference: 'order-1001',
        }),
      ],
      [
        { type: 'adjustment', count: 1, amount: D('-2.5'), fee: D(0), net: D('-2.5') },
        { type: 'payment', count: 1, amount: D('2000'), fee: D('30'), net: D('1970') },
      ],
    );
    expect((await csvOf(s)).split('\r\n')).toEqual([
      'row,id,type,currency,amount,fee,net,balance_after,source_reference,external_reference,created_at',
      'opening_balance,,,NGN,,,,100.00,,,2026-11-25T12:00:00.000Z',
      'entry,b1,adjustment,NGN,-2.50,0.00,-2.50,97.50,"ADJ-1",,2026-11-25T12:00:00.000Z',
      // The merchant's reference beside the gateway's.
      'entry,b2,payment,NGN,2000.00,30.00,1970.00,2067.50,pay_1,"order-1001",2026-11-25T12:00:00.000Z',
      'closing_balance,,,NGN,,,,2067.50,,,2026-11-26T00:00:00.000Z',
      '',
      'row,type,currency,count,amount,fee,net',
      'total,adjustment,NGN,1,-2.50,0.00,-2.50',
      'total,payment,NGN,1,2000.00,30.00,1970.00',
      '',
    ]);
  });

  it('a reference a spreadsheet would run as a formula is written as text, the merchant’s as the gateway’s', async () => {
    expect((await csvOf(adjustment('=HYPERLINK(1)'))).split('\r\n')[2]).toContain(`,"'=HYPERLINK(1)",`);
    expect((await csvOf(adjustment('-1+2'))).split('\r\n')[2]).toContain(`,"'-1+2",`);
    expect((await csvOf(adjustment('a,"b"'))).split('\r\n')[2]).toContain(`,"a,""b""",`);
    // A piece after a separator of another locale (`;`, Excel's in much of Europe) that starts a formula is guarded too.
    expect((await csvOf(adjustment('Ann;=2+3; Lee'))).split('\r\n')[2]).toContain(`,"Ann;'=2+3; Lee",`);
    // A tab: a tab-separated reading splits on it, and a cell starting with one is a formula's start.
    expect((await csvOf(adjustment('Tab\t=1+1'))).split('\r\n')[2]).toContain(`,"Tab\t'=1+1",`);
    expect((await csvOf(adjustment('\t@x'))).split('\r\n')[2]).toContain(`,"'\t'@x",`);
    expect((await csvOf(adjustment('a\tb'))).split('\r\n')[2]).toContain(`,"a\tb",`);
    const payment = statement([entry({ type: 'payment', sourceReference: 'pay_1', externalReference: '@SUM(A1)' })], []);
    expect((await csvOf(payment)).split('\r\n')[2]).toContain(`,pay_1,"'@SUM(A1)",`);
  });
});
