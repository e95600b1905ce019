import type { BalanceTransaction } from '../../src/modules/ledger/ledger.service';
import type { BalanceTransactionType } from '../../src/modules/ledger/ledger.model';
import { payoutReport } from '../../src/modules/payouts/payout.report';
import type { PayoutRow } from '../../src/modules/payouts/payout.store';
import { Decimal } from '../../src/shared/money';

const d = (v: string | number) => new Decimal(v);
let n = 0;
const bt = (type: BalanceTransactionType, amount: string, fee = '0'): BalanceTransaction => ({
  id: `bt-${++n}`,
  type,
  currency: 'NGN',
  amount: d(amount),
  fee: d(fee),
  net: d(amount).minus(fee),
  balanceAfter: d(0),
  sourceReference: null,
  externalReference: null,
  createdAt: new Date('2026-12-01T10:00:00Z'),
});
const row = (amount: string, over: Partial<PayoutRow> = {}): PayoutRow => ({
  id: 'po_x',
  merchantId: 'm',
  currency: 'NGN',
  amount: d(amount),
  automatic: true,
  windowKey: '2026-12-01',
  afterSeq: '0',
  throughSeq: '9',
  carriedIn: d(0),
  carriedOut: d(0),
  destinationId: 'pdest_x',
  transactionId: null,
  canceledReason: null,
  expectedArrivalAt: new Date(),
  createdAt: new Date(),
  ...over,
});

describe('a payout report', () => {
  it('itemises gross, fees, refunds, transfers, adjustments and payouts, and its net is the amount', () => {
    const entries = [
      bt('collection', '1000.00', '10.00'),
      bt('payment', '500.00', '7.50'),
      bt('refund', '-100.00'),
      bt('transfer', '-200.00', '2.00'),
      bt('transfer_reversal', '200.00', '-2.00'),
      bt('adjustment', '-50.00'),
      bt('payout', '-300.00'),
      bt('payout_reversal', '120.00'),
    ];
    const r = payoutReport(row('1152.50'), entries);
    expect(r.grossCollected.toFixed(2)).toBe('1500.00');
    expect(r.fees.toFixed(2)).toBe('-17.50');
    expect(r.refunds.toFixed(2)).toBe('-100.00');
    expect(r.transfers.toFixed(2)).toBe('0.00');
    expect(r.adjustments.toFixed(2)).toBe('-50.00');
    expect(r.payouts.toFixed(2)).toBe('-180.00');
    expect(r.net.toFixed(2)).toBe('1152.50');
  });

  it('adds what the window before carried in and takes away what it carries out', () => {
    const entries = [bt('collection', '1000.00', '10.00')];
    const r = payoutReport(row('900.00', { carriedIn: d('60'), carriedOut: d('150') }), entries);
    expect(r.net.toFixed(2)).toBe('900.00');
    expect([r.carriedIn.toFixed(2), r.carriedOut.toFixed(2)]).toEqual(['60.00', '150.00']);
  });

  it('refuses to report figures that do not add up to the amount', () => {
    expect(() => payoutReport(row('999.99'), [bt('collection', '1000.00', '0')])).toThrow(/adds up to 1000, not its amount 999.99/);
  });

  it('a manual payout settles no balance transactions: its report is its amount', () => {
    const r = payoutReport(row('75.00', { automatic: false, windowKey: null, afterSeq: null, throughSeq: null }), []);
    expect([r.net.toFixed(2), r.count]).toEqual(['75.00', 0]);
  });
});
