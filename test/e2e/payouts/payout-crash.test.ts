import { randomUUID } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { adminMerchant, hasExited, ledgerVerify, stopIfRunning } from '../../helpers/engine';
import { assertBuilt, serviceEnv, startServiceProcess, type ServiceProcess } from '../../helpers/process';
import { eventually } from '../../helpers/wait';
import { dbQuery } from '../../helpers/webhooks';

/**
 * Issue 38: kill -9 in the middle of a payout run gives exactly one payout per window. Real processes on one database,
 * each running the payout chain every second (PAYOUT_RUN_INTERVAL_S=1) on the system clock; the merchant's daily cut-off
 * is set at the next minute, so its window (holding the opening balance) is due once that minute has come:
 * 1. a process dies right after claiming the window (FAULT_INJECT=crash-after-payout-claim): a payout row, nothing sent;
 * 2. the next dies right after the provider accepted the payout, before the answer is recorded
 *    (crash-after-provider-call): the transaction is left initiating;
 * 3. a healthy one finishes it: reconciliation records the provider's answer, the run links it, and no second payout
 *    or transaction is made for the window. The books verify.
 */
const COMMON = { PAYMENTS_ENV: 'sandbox', JOB_POLL_INTERVAL_MS: '200', PAYOUT_RUN_INTERVAL_S: '1', SANDBOX_SETTLE_MS: '600000' };

describe('payouts: a crash mid-run', () => {
  let db: TestDatabase;
  const running: ServiceProcess[] = [];
  const start = async (extra: Record<string, string>) => {
    const proc = await startServiceProcess(serviceEnv(db.url, { ...COMMON, ...extra }));
    running.push(proc);
    return proc;
  };
  /** Starts a process armed to die at `point`, and waits for it to: before it listens, or after. */
  const dies = async (point: string): Promise<void> => {
    try {
      const proc = await start({ FAULT_INJECT: point });
      expect(await eventually(async () => hasExited(proc), { attempts: 300, everyMs: 100 })).toBe(true);
      expect(proc.child.signalCode).toBe('SIGKILL');
    } catch (err) {
      // Killed (SIGKILL: no exit code) while starting: the run came before the doors opened.
      expect((err as Error).message).toMatch(/^service exited with null before listening/);
    }
  };
  const rows = <T = any>(text: string, params: unknown[] = []) => dbQuery<T>(db.url, text, params);

  beforeAll(async () => {
    assertBuilt();
    db = await createTestDatabase();
  });
  afterAll(async () => {
    for (const proc of running) await stopIfRunning(proc);
    await db?.drop();
  });

  it('gives exactly one payout per window, and its money moves once', async () => {
    // Set-up on a process that runs no payouts: a merchant (its sandbox opening balance in NGN) and an active destination.
    const setup = await start({ PAYOUT_RUN_INTERVAL_S: '0' });
    const merchant = await adminMerchant(setup.url, 'Adaeze Okafor');
    const userId = randomUUID();
    await rows(
      `insert into app_user (id, email, name, password_hash, email_verified_at, password_changed_at, created_at, updated_at)
       values ($1, $2, 'Owner', 'unused', now(), now(), now(), now())`,
      [userId, `owner-${userId.slice(0, 8)}@crash.test`],
    );
    await rows(
      `insert into payout_destination (id, merchant_id, currency, account_type, country_code, channel_id, network_id, bank_code, account_number,
         dial_code, account_name, name_checked, status, created_by, effective_at, created_at, activated_at)
       values ($1, $2, 'NGN', 'bank', 'NG', 'ng_bank_withdrawal', 'ng_gtbank', '058', '0123456780', '+234', 'Adaeze Okafor', true, 'active', $3, now(), now(), now())`,
      [`pdest_${'C'.repeat(24)}`, merchant.merchantId, userId],
    );
    await setup.stop('SIGTERM');
    // A daily cut-off at the next minute (UTC): the opening balance was posted before it, so its window pays it.
    const cutoff = new Date(Math.ceil((Date.now() + 1_000) / 60_000) * 60_000);
    await rows(
      `insert into payout_schedule (merchant_id, currency, interval, delay_days, cutoff_time, time_zone, updated_at) values ($1, 'NGN', 'daily', 0, $2, 'UTC', now())`,
      [merchant.merchantId, cutoff.toISOString().slice(11, 16)],
    );
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, cutoff.getTime() - Date.now() + 200)));

    await dies('crash-after-payout-claim');
    const afterClaim = await rows('select id, transaction_id from payout where merchant_id = $1', [merchant.merchantId]);
    expect(afterClaim).toEqual([{ id: expect.stringMatching(/^po_/), transaction_id: null }]);

    await dies('crash-after-provider-call');
    const initiating = await rows(`select status from "transaction" where merchant_id = $1 and kind = 'payout'`, [merchant.merchantId]);
    expect(initiating).toEqual([{ status: 'initiating' }]);

    const healthy = await start({ RECONCILE_AFTER_MS: '500' });
    expect(
      await eventually(
        async () =>
          (
            await rows(`select p.id from payout p join "transaction" t on t.id = p.transaction_id where p.merchant_id = $1 and t.status = 'processing'`, [
              merchant.merchantId,
            ])
          ).length === 1,
        { attempts: 300, everyMs: 100 },
      ),
    ).toBe(true);
    // Several more runs on the healthy process: still one payout, one transaction, one reservation.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const payouts = await rows<{ id: string; window_key: string; amount: string }>('select id, window_key, amount::text from payout where merchant_id = $1', [
      merchant.merchantId,
    ]);
    expect(payouts).toEqual([{ id: afterClaim[0].id, window_key: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), amount: '1000000' }]);
    expect(await rows(`select count(*)::int as n from "transaction" where merchant_id = $1 and kind = 'payout'`, [merchant.merchantId])).toEqual([{ n: 1 }]);
    const reserve = await rows(`select count(*)::int as n from balance_transaction where merchant_id = $1 and type = 'payout'`, [merchant.merchantId]);
    expect(reserve).toEqual([{ n: 1 }]);
    await healthy.stop('SIGTERM');
    const verified = await ledgerVerify(db.url);
    expect([verified.ok, verified.problems]).toEqual([true, []]);
  }, 120_000);
});
