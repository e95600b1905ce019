import { opensVirtualAccounts, offering, type DecideTrigger, type SettlementDecision, type VirtualAccount } from '../../../providers/connector';
import { systemClock } from '../../../shared/clock';
import { formatAmount } from '../../../shared/money';
import type { Rails } from '../../rails/rails';
import type { ReferenceService } from '../../reference/reference.service';
import { TransactionJob } from '../transaction.jobs';
import { SETTLE, type ProviderAnswer } from '../transaction.kinds';
import type { FundingTransaction, PaymentTransaction } from '../transaction.record';

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

/** Money asked for into an account opened for it: a domestic bank transfer payment, a funding of the merchant's balance. */
type IntoAnAccount = PaymentTransaction | FundingTransaction;

/** What opening and deciding an account's payment needs. */
export interface AccountRails {
  rails: Rails;
  reference: ReferenceService;
  /** How long the account stays open (COLLECTION_TTL_S, as a bank collection's). */
  collectionTtlS: number;
}

/** A transaction's amount with exactly its currency's decimals ("2500.00", "3700"). */
export function amountOf(reference: Pick<ReferenceService, 'currencyMinorUnit'>, txn: { amount: PaymentTransaction['amount']; currency: string }): string {
  const minorUnit = reference.currencyMinorUnit(txn.currency);
  if (minorUnit === undefined) throw new Error(`No minor unit is known for ${txn.currency}`);
  return formatAmount(txn.amount, minorUnit);
}

/** An account unique to the transaction, held in `accountName`, open until its deadline (the provider's, if sooner). */
export async function openAccount(deps: AccountRails, txn: IntoAnAccount, idempotencyKey: string, retry: boolean): Promise<ProviderAnswer> {
  const connector = deps.rails.of(txn);
  const account = await offering(connector, opensVirtualAccounts, 'createVirtualAccount').createVirtualAccount({
    idempotencyKey,
    reference: txn.reference,
    countryCode: txn.countryCode ?? '',
    networkCode: (txn.networkId && deps.reference.network(txn.networkId)?.code) ?? '',
    amount: amountOf(deps.reference, txn),
    currency: txn.currency,
    accountName: txn.accountName ?? '',
    payer: deps.rails.payer(txn),
    retry,
  });
  return accountOpened(account, {
    ttlS: deps.collectionTtlS,
    inProcess: connector.inProcess,
    firstPollMs: deps.rails.firstPollMs(txn),
    localCode: deps.reference.localCodeOf(txn.countryCode ?? '', account.bankCode, account.bankName),
  });
}

/** The provider's verdict on money asked for by a prompt or into an account: to a provider, a collection. */
export async function decideCollected(deps: Omit<AccountRails, 'collectionTtlS'>, txn: IntoAnAccount, trigger: DecideTrigger): Promise<SettlementDecision> {
  return deps.rails.decide(txn, {
    kind: 'collection',
    idempotencyKey: txn.id,
    accountType: txn.accountType ?? 'momo',
    accountNumber: txn.accountNumber ?? txn.virtualAccountNumber ?? '',
    amount: amountOf(deps.reference, txn),
    currency: txn.currency,
    providerReference: txn.providerReference,
    ...(await deps.rails.decideContext(txn, trigger)),
  });
}
