import { listsTransactions, type ProviderRecord, type RecordWindow } from '../../providers/capabilities';
import type { Connector } from '../../providers/connector';
import type { OurTransaction } from './matching';

/** The kinds that bring money in (a funding too, issue 41: the merchant's own transfer into its account). */
const MONEY_IN: ReadonlySet<string> = new Set(['collection', 'payment', 'funding']);

/** The status query of one of our transactions (ProviderSignals.ask): the provider's verdict, or null when its kind asks none. */
export type AskProvider = (transactionId: string) => Promise<{ outcome: 'successful' | 'failed' | 'pending' } | null>;

/**
 * The provider's side of a window (docs/reconciliation.md). A connector that lists its records (ListsTransactions)
 * gives them all, ours or not; refunds, which carry no key of ours there, are asked one by one. A connector that
 * lists nothing (MTN MoMo, M-Pesa, the sandbox) is asked about each of our transactions by its status query: its
 * verdict is the record, on the amount we asked it to move (a status query does not say another), so such a
 * provider can only disagree on the status, and nothing of theirs that is not ours can be found.
 */
export async function providerRecords(
  connector: Connector,
  ours: readonly OurTransaction[],
  window: RecordWindow,
  ask: AskProvider,
): Promise<ProviderRecord[]> {
  const records: ProviderRecord[] = [];
  const lists = listsTransactions(connector);
  if (lists) for await (const record of connector.listTransactions(window)) records.push(record);
  for (const txn of ours) {
    if (lists && txn.kind !== 'refund') continue;
    const decision = await ask(txn.id);
    if (!decision) continue;
    records.push({
      providerReference: txn.providerReference ?? txn.id,
      ourReference: txn.id,
      amount: txn.amount,
      currency: txn.currency,
      status: decision.outcome,
      kind: MONEY_IN.has(txn.kind) ? 'in' : 'out',
    });
  }
  return records;
}
