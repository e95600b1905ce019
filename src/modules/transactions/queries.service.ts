import { z } from 'zod';
import { AppError } from '../../shared/errors';
import { REFERENCE_CHARACTERS, searchText, timestampField } from '../../shared/fields';
import { encodeCursor, pageRequestSchema, toPage, type Page } from '../../shared/pagination';
import { keysetBatches } from '../../shared/streaming';
import { parseInput, type Command } from '../../shared/validation';
import type { Transaction, TransactionEvent } from './transaction.record';
import { TRANSACTION_KINDS, TRANSACTION_STATUSES } from './transaction.state';
import type { ListFilter, TransactionStore } from './transaction.store';

/** A page of a merchant's transactions, by any of status, kind (`type`), customer and payment link. */
export const transactionListSchema = pageRequestSchema.extend({
  status: z.enum(TRANSACTION_STATUSES).nullish(),
  type: z.enum(TRANSACTION_KINDS).nullish(),
  customerUuid: z.string({ error: 'must be a string' }).uuid('must be a customer uuid').nullish(),
  /** Payments made on the checkout sessions a payment link opened (issue 37): every attempt, whatever its status. */
  paymentLinkId: z
    .string({ error: 'must be a string' })
    .regex(/^plink_[A-Za-z0-9_-]{24}$/, 'must be a payment link id (plink_…)')
    .nullish(),
  /** Created at or after this time. */
  createdFrom: timestampField.nullish(),
  /** Created before this time. */
  createdTo: timestampField.nullish(),
  /** The service's reference or the merchant's own (exactly), or a customer's email (any case). */
  search: searchText(254),
});
export type TransactionListQuery = Command<typeof transactionListSchema>;

/** The list's filters without its paging: what an export of every matching transaction takes. */
export const transactionExportSchema = transactionListSchema.omit({ limit: true, after: true });
export type TransactionExportQuery = Command<typeof transactionExportSchema>;

/** How many rows an export reads at a time (keyset pages, like the list's). */
const EXPORT_BATCH = 500;

/** The store's filter from a parsed list query (its paging aside). */
function listFilter(q: Omit<z.output<typeof transactionListSchema>, 'limit' | 'after'>): ListFilter {
  return {
    status: q.status ?? undefined,
    kind: q.type ?? undefined,
    customerId: q.customerUuid ?? undefined,
    paymentLinkId: q.paymentLinkId ?? undefined,
    createdFrom: q.createdFrom ?? undefined,
    createdTo: q.createdTo ?? undefined,
    search: q.search ?? undefined,
  };
}

/** What TransactionQueries is built with (the composition root passes it). */
export interface TransactionQueriesDeps {
  store: TransactionStore;
}

/** Reading transactions, of every kind: one by either reference, a status history, a page of the list, the list as an export. */
export class TransactionQueries {
  constructor(private readonly deps: TransactionQueriesDeps) {}

  /** By the service's reference or the merchant's; another merchant's transaction is NOT_FOUND. */
  async getTransaction(merchantId: string, referenceOrExternal: string): Promise<Transaction> {
    // Neither kind of reference can have another shape (and PostgreSQL refuses some characters, NUL among them).
    if (!REFERENCE_CHARACTERS.test(referenceOrExternal)) throw AppError.notFound('Transaction');
    const txn = await this.deps.store.findByReference(merchantId, referenceOrExternal);
    if (!txn) throw AppError.notFound('Transaction');
    return txn;
  }

  /** By id, for the services' own use (jobs, the sandbox's 3-D Secure page); null when there is none. */
  async findById(id: string): Promise<Transaction | null> {
    return this.deps.store.findById(id);
  }

  /** By id, when it must exist (it was just read or written). */
  async reload(id: string): Promise<Transaction> {
    const txn = await this.deps.store.findById(id);
    if (!txn) throw AppError.notFound('Transaction');
    return txn;
  }

  async history(transactionId: string): Promise<TransactionEvent[]> {
    return this.deps.store.history(transactionId);
  }

  /** A merchant's transaction's status history, oldest first, by either reference (404 when it is not theirs). */
  async historyOf(merchantId: string, referenceOrExternal: string): Promise<TransactionEvent[]> {
    const txn = await this.getTransaction(merchantId, referenceOrExternal);
    return this.history(txn.id);
  }

  async listTransactions(merchantId: string, query: TransactionListQuery): Promise<Page<Transaction>> {
    const { limit, after, ...filter } = parseInput(transactionListSchema, query, 'query');
    const rows = await this.deps.store.list(merchantId, listFilter(filter), limit, after ?? undefined);
    return toPage(rows, limit);
  }

  /**
   * The list as a file: how many transactions the filters match (what the export costs), and every
   * one of them, newest first, in keyset batches of EXPORT_BATCH read as the file is written (nothing
   * holds them all). The query is checked now: a bad one throws before anything is read.
   */
  async exportTransactions(merchantId: string, query: TransactionExportQuery): Promise<{ count: number; batches: AsyncIterable<Transaction[]> }> {
    const filter = listFilter(parseInput(transactionExportSchema, query, 'query'));
    const store = this.deps.store;
    const count = await store.count(merchantId, filter);
    const read = async (after: Transaction | undefined, size: number) =>
      (await store.list(merchantId, filter, size, after && encodeCursor(after.createdAt, after.id))).slice(0, size);
    return { count, batches: keysetBatches(read, EXPORT_BATCH) };
  }
}
