import { csvLine } from '../../shared/csv';
import { chunksOf } from '../../shared/streaming';
import { counterpartyOf } from './counterparty';
import { TRANSACTION_CSV, type CsvContext, type CsvCustomer } from './transaction.definition';
import type { Transaction } from './transaction.record';

/** The columns of GET /v1/transactions/export.csv (defined with the transaction: transaction.definition.ts). */
export const TRANSACTION_CSV_COLUMNS: readonly string[] = TRANSACTION_CSV.map((c) => c.header);

type MinorUnitOf = (currency: string) => number | undefined;

/** One transaction as a CSV line (RFC 4180; text from outside guarded against formula injection). */
function transactionCsvLine(t: Transaction, customer: CsvCustomer | undefined, minorUnitOf: MinorUnitOf): string {
  const row: CsvContext = { customer, counterparty: counterpartyOf(t, customer), minorUnitOf };
  return csvLine(TRANSACTION_CSV.map((column) => column.cell(t, row)));
}

/**
 * The whole CSV, a line at a time as the batches arrive: the header, then every transaction.
 * `customersOf` reads a batch's customers at once (by uuid).
 */
export async function* transactionsCsv(
  batches: AsyncIterable<Transaction[]>,
  customersOf: (uuids: string[]) => Promise<Map<string, CsvCustomer>>,
  minorUnitOf: MinorUnitOf,
): AsyncGenerator<string> {
  yield csvLine([...TRANSACTION_CSV_COLUMNS]);
  for await (const batch of batches) {
    const uuids = batch.map((t) => t.customerId).filter((id): id is string => id !== null);
    const customers = uuids.length > 0 ? await customersOf(uuids) : new Map<string, CsvCustomer>();
    for (const chunk of chunksOf(batch)) {
      yield chunk.map((t) => transactionCsvLine(t, t.customerId ? customers.get(t.customerId) : undefined, minorUnitOf)).join('');
    }
  }
}
