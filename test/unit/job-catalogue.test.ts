import { JOB_CATALOGUE, JOBS } from '../../src/job-catalogue';

/**
 * Job names are graphile-worker task identifiers stored with every queued job, and their options
 * decide the order they run in: the catalogue built from the modules' defineJob lists is
 * the one the composition root used to write by hand (issue 35).
 */
describe('the job catalogue', () => {
  it('names every job with its priority, as before the modules declared them', () => {
    expect(JOB_CATALOGUE).toEqual({
      'kyc-review': { priority: 0 },
      'expire-collection': { priority: 0 },
      'expire-payment-action': { priority: 0 },
      'reconcile-initiation': { priority: 0 },
      // Issue 40: webhook deliveries and settlements are no longer jobs (WebhookPump, SettlementPump claim their rows).
      'publish-kyc-status': { priority: -10 },
      'release-funds': { priority: 0 },
      'check-transaction': { priority: -5 },
      // Issue 37: a session's completion ahead of a settlement backlog; the expiry sweep behind it.
      'checkout.complete-session': { priority: -5 },
      'checkout.expire-sessions': { priority: 5 },
      // Issue 38: the payout run (a chain of slots), and a failed payout's email to the owners.
      'payouts.run': { priority: 5 },
      'payouts.notify-failed': { priority: 0 },
      // Issue 38: the daily reconciliation, behind everything a merchant waits on.
      'reconciliation.reconcile-day': { priority: 10 },
      // Issue 39: the dispute sweep (reminders, deadlines, provider polls), a chain of slots.
      'disputes.sweep': { priority: 5 },
    });
  });

  it('declares each name once, and each payload schema accepts the payloads queued before (optional fields optional)', () => {
    const names = JOBS.map((j) => j.name);
    expect(new Set(names).size).toBe(names.length);
    const byName = new Map(JOBS.map((j) => [j.name as string, j.payload]));
    expect(byName.get('kyc-review')!.safeParse({ submissionId: 's' }).success).toBe(true);
    expect(byName.get('publish-kyc-status')!.safeParse({ merchantId: 'm', customerUuid: 'c' }).success).toBe(true);
    expect(byName.get('checkout.complete-session')!.safeParse({ sessionId: 'cs_1', transactionReference: 'pay_1' }).success).toBe(true);
    expect(byName.get('checkout.expire-sessions')!.safeParse({ slot: 1 }).success).toBe(true);
    expect(byName.get('payouts.run')!.safeParse({ slot: 1 }).success).toBe(true);
    expect(byName.get('payouts.notify-failed')!.safeParse({ merchantId: 'm', payoutId: 'po_1' }).success).toBe(true);
    expect(byName.get('reconciliation.reconcile-day')!.safeParse({ day: '2026-12-01' }).success).toBe(true);
    expect(byName.get('disputes.sweep')!.safeParse({ slot: 1 }).success).toBe(true);
  });
});
