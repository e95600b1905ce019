import { csvLine, quoted, textCell } from '../../shared/csv';
import { formatAmount, type Decimal } from '../../shared/money';
import { chunksOf } from '../../shared/streaming';
import type { Transaction } from './transaction.record';

/** What a row shows of the transaction's customer. */
export interface CsvCustomer {
  firstName: string;
  lastName: string;
  email: string;
}

/**
 * The columns of GET /v1/transactions/export.csv. `amount` is what moves in `currency` (a transfer's
 * source amount: what the merchant sends), `fee` is in the same currency; decimals as the currency has
 * them; times ISO 8601 in UTC.
 */
export const TRANSACTION_CSV_COLUMNS = [
  'created_at',
  'reference',
  'external_reference',
  'type',
  'status',
  'amount',
  'currency',
  'fee',
  'destination_amount',
  'destination_currency',
  'customer_name',
  'customer_email',
  'customer_uuid',
  'failure_reason',
  'completed_at',
] as const;

type MinorUnitOf = (currency: string) => number | undefined;

function amount(value: Decimal | null, currency: string | null, minorUnitOf: MinorUnitOf): string {
  if (value === null) return '';
  const minorUnit = currency ? minorUnitOf(currency) : undefined;
  return minorUnit === undefined ? value.toFixed() : formatAmount(value, minorUnit);
}

/** One transaction as a CSV line (RFC 4180; text from outside guarded against formula injection). */
export function transactionCsvLine(t: Transaction, customer: CsvCustomer | undefined, minorUnitOf: MinorUnitOf): string {
  const transfer = t.kind === 'transfer';
  const currency = transfer ? t.sourceCurrency : t.currency;
  return csvLine([
    t.createdAt.toISOString(),
    textCell(t.reference),
    textCell(t.externalReference),
    t.kind,
    t.status,
    amount(transfer ? t.sourceAmount : t.amount, currency, minorUnitOf),
    quoted(currency),
    amount(t.fee, currency, minorUnitOf),
    amount(t.destinationAmount, t.destinationCurrency, minorUnitOf),
    quoted(t.destinationCurrency),
    textCell(customer ? `${customer.firstName} ${customer.lastName}` : null),
    textCell(customer?.email),
    quoted(t.customerId),
    textCell(t.failureReason),
    t.completedAt ? t.completedAt.toISOString() : '',
  ]);
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
