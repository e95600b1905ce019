import type { VirtualAccount } from '../../../providers/connector';
import { systemClock } from '../../../shared/clock';
import { TransactionJob } from '../transaction.jobs';
import { SETTLE, type ProviderAnswer } from '../transaction.kinds';

/*
 * The provider's answers that start money in, as every kind that asks for it records them: a bank collection and a
 * domestic bank transfer payment (an account to pay into), a mobile money collection and payment (a prompt).
 */

/**
 * An account to pay into, open until its deadline: ours (`ttlS`), or the provider's if sooner (Flutterwave's last an
 * hour). The deadline is real time, as the expiry job's delay is: the wall clock, whatever the service's clock. A real
 * provider is asked too (a lost webhook); the sandbox's account is paid by simulation.
 */
export function accountOpened(
  account: VirtualAccount,
  opts: { ttlS: number; inProcess: boolean; firstPollMs: number; localCode: string | null },
): ProviderAnswer {
  const ttlMs = opts.ttlS * 1000;
  const expiresAt = account.expiresAt ?? null;
  const expiryMs = expiresAt ? Math.min(ttlMs, Math.max(0, expiresAt.getTime() - systemClock.now().getTime())) : ttlMs;
  return {
    status: 'processing',
    providerReference: account.providerReference,
    bankInfo: {
      accountName: account.accountName,
      accountNumber: account.accountNumber,
      bankName: account.bankName,
      bankCode: account.bankCode,
      localCode: opts.localCode,
    },
    virtualAccountNumber: account.accountNumber,
    expiresAt,
    followUps: [
      { name: TransactionJob.ExpireCollection, delayMs: expiryMs },
      ...(opts.inProcess ? [] : [{ name: SETTLE, delayMs: opts.firstPollMs } as const]),
    ],
  };
}

/** A payment prompt sent (or the provider's approval page to visit): the provider decides, and is asked after `firstPollMs`. */
export function promptSent(sent: { providerReference: string; nextActionUrl?: string | null }, firstPollMs: number): ProviderAnswer {
  return {
    status: 'processing',
    providerReference: sent.providerReference,
    nextActionUrl: sent.nextActionUrl ?? null,
    followUps: [{ name: SETTLE, delayMs: firstPollMs }],
  };
}
