import { FlutterwaveFake } from '../../fakes/flutterwave.fake';
import { booksAndTransactions, day, reconciliation, seedOurs } from '../../helpers/reconciliation';
import { flutterwaveApp, railsMerchant, type RailsMerchant } from '../../helpers/rails';
import type { TestApp } from '../../helpers/test-app';

/**
 * Reconciliation against Flutterwave's fake (docs/reconciliation.md): its transaction and transfer lists matched one
 * to one with our transactions of a UTC day; a day with one of each exception finds each once, a clean day is all
 * matched, the clearing check compares the wallet's movement with our clearing account's; nothing else is written.
 */

describe('reconciliation with Flutterwave (production, against the fake)', () => {
  let flw: FlutterwaveFake;
  let app: TestApp;
  let m: RailsMerchant;

  beforeAll(async () => {
    flw = await FlutterwaveFake.start({ decisionDelayMs: 30 });
    app = await flutterwaveApp(flw);
    m = await railsMerchant(app);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await flw?.close();
  });

  const at = (date: string, hour: number) => new Date(`${date}T${String(hour).padStart(2, '0')}:15:00.000Z`);
  const ours = (date: string, hour: number, kind: 'collection' | 'transfer', status: string, amount: string) =>
    seedOurs(app, m.merchantId, { kind, status, amount, currency: 'NGN', connector: 'flutterwave', createdAt: at(date, hour) });

  it('a day with one of each exception finds each exactly once, and writes neither the books nor a transaction', async () => {
    const date = '2026-11-10';
    const matched = await ours(date, 1, 'collection', 'successful', '1000');
    flw.seedTransaction({ tx_ref: matched.id, amount: 1000, currency: 'NGN', status: 'successful', created_at: at(date, 1) });
    const amount = await ours(date, 2, 'collection', 'successful', '500');
    flw.seedTransaction({ tx_ref: amount.id, amount: 450, currency: 'NGN', status: 'successful', created_at: at(date, 2) });
    const status = await ours(date, 3, 'transfer', 'successful', '2000');
    flw.seedTransfer({ reference: status.id, amount: 2000, currency: 'NGN', status: 'FAILED', created_at: at(date, 3) });
    const missingThere = await ours(date, 4, 'collection', 'successful', '300');
    flw.seedTransaction({ tx_ref: 'not-ours-at-all', amount: 75, currency: 'NGN', status: 'successful', created_at: at(date, 5) });
    const flying = await ours(date, 6, 'collection', 'processing', '800');
    flw.seedTransaction({ tx_ref: flying.id, amount: 800, currency: 'NGN', status: 'pending', created_at: at(date, 6) });
    // The day after's records are another window's.
    flw.seedTransaction({ tx_ref: 'next-day', amount: 1, currency: 'NGN', status: 'successful', created_at: at('2026-11-11', 0) });

    const before = await booksAndTransactions(app);
    const outcome = await reconciliation(app).reconcile('flutterwave', day(date));
    expect(await booksAndTransactions(app)).toBe(before);

    expect(outcome.ran).toBe(true);
    expect(outcome.run).toMatchObject({ status: 'completed', connector: 'flutterwave' });
    expect(outcome.run!.counts).toEqual({
      matched: 1,
      amount_mismatch: 1,
      status_mismatch: 1,
      missing_at_provider: 1,
      missing_here: 1,
      in_flight: 1,
      balance_mismatch: 0,
    });
    const { items } = await reconciliation(app).getRun(outcome.run!.id);
    const classOf = (id: string) => items.find((i) => i.transactionId === id)?.class;
    expect(classOf(matched.id)).toBe('matched');
    expect(classOf(amount.id)).toBe('amount_mismatch');
    expect(classOf(status.id)).toBe('status_mismatch');
    expect(classOf(missingThere.id)).toBe('missing_at_provider');
    expect(classOf(flying.id)).toBe('in_flight');
    const stranger = items.find((i) => i.class === 'missing_here')!;
    expect(stranger).toMatchObject({ transactionId: null, theirs: { currency: 'NGN', status: 'successful' } });
    expect(stranger.theirs!.amount!.toString()).toBe('75');
    const amountItem = items.find((i) => i.class === 'amount_mismatch')!;
    expect([amountItem.ours!.amount!.toString(), amountItem.theirs!.amount!.toString()]).toEqual(['500', '450']);
    // Both lists were read, with the documented paths and the secret key.
    const lists = flw.requests.filter((r) => r.path.startsWith('/v3/transactions?') || r.path.startsWith('/v3/transfers?'));
    expect(lists.map((r) => r.path)).toEqual(expect.arrayContaining(['/v3/transactions?from=2026-11-10&to=2026-11-10&page=1', '/v3/transfers?page=1']));
    // The clearing check recorded both balances (the wallet's as Flutterwave reports it).
    expect(outcome.run!.clearing).toEqual([
      expect.objectContaining({ currency: 'NGN', ours: '0', theirs: '100000000', difference: '100000000', oursMoved: null }),
    ]);

    // The same day again is not reconciled twice.
    const again = await reconciliation(app).reconcile('flutterwave', day(date));
    expect(again).toMatchObject({ ran: false, run: { id: outcome.run!.id } });
  });

  it('a clean day reports all matched; a wallet that then moves unlike our clearing account is a balance_mismatch', async () => {
    const date = '2026-11-12';
    for (const [hour, kind, status, amount] of [
      [1, 'collection', 'successful', '120'],
      [2, 'transfer', 'successful', '60.5'],
      [3, 'collection', 'failed', '10'],
    ] as const) {
      const t = await ours(date, hour, kind, status, amount);
      if (kind === 'collection') flw.seedTransaction({ tx_ref: t.id, amount: Number(amount), currency: 'NGN', status, created_at: at(date, hour) });
      else flw.seedTransfer({ reference: t.id, amount: Number(amount), currency: 'NGN', status: 'SUCCESSFUL', created_at: at(date, hour) });
    }
    const clean = await reconciliation(app).reconcile('flutterwave', day(date));
    expect(clean.run!.counts).toEqual({
      matched: 3,
      amount_mismatch: 0,
      status_mismatch: 0,
      missing_at_provider: 0,
      missing_here: 0,
      in_flight: 0,
      balance_mismatch: 0,
    });
    // Since the previous run, neither side moved.
    expect(clean.run!.clearing[0]).toMatchObject({ currency: 'NGN', oursMoved: '0', theirsMoved: '0' });

    // The wallet loses 250 that our books never saw go.
    flw.setBalance('NGN', 100_000_000 - 250);
    const next = await reconciliation(app).reconcile('flutterwave', day('2026-11-13'));
    expect(next.run!.counts).toMatchObject({ matched: 0, balance_mismatch: 1 });
    expect(next.run!.clearing[0]).toMatchObject({ currency: 'NGN', oursMoved: '0', theirsMoved: '-250' });
    const { items } = await reconciliation(app).getRun(next.run!.id);
    expect(items).toEqual([expect.objectContaining({ class: 'balance_mismatch', currency: 'NGN' })]);
  });

  it('a provider that does not answer fails the run (recorded with its error); the day can then be run again', async () => {
    const date = '2026-11-14';
    flw.failNext('503', { path: '/v3/transactions?', count: 1 });
    await expect(reconciliation(app).reconcile('flutterwave', day(date))).rejects.toThrow(/transactions list/);
    const [failed] = await reconciliation(app).listRuns({ connector: 'flutterwave', limit: 1 });
    expect(failed).toMatchObject({ status: 'failed', error: expect.stringContaining('transactions list') });
    const retried = await reconciliation(app).reconcile('flutterwave', day(date));
    expect(retried).toMatchObject({ ran: true, run: { status: 'completed' } });
  });
});
