import { useEffect, useState } from 'react';
import { graphql } from '../generated';
import type { TransactionFieldsFragment, TransactionFilter, TransactionStatus, TransactionType } from '../generated/graphql';
import { inCurrency } from '../money';
import { gql, subscribe } from '../session';
import { Empty, ErrorText, Link, Loading, StatusBadge, dayAfter, dayStart, when, words } from '../ui';
import { STATUS_CHANGED } from './transactions.gql';

export type Row = TransactionFieldsFragment;

const TYPES: TransactionType[] = ['COLLECTION', 'TRANSFER', 'PAYMENT', 'REFUND'];
const STATUSES: TransactionStatus[] = ['PROCESSING', 'REQUIRES_ACTION', 'SUCCESSFUL', 'FAILED', 'EXPIRED'];
const PAGE_SIZE = 20;

const LIST = graphql(`
  query Transactions($filter: TransactionFilter, $first: Int, $after: String) {
    transactions(filter: $filter, first: $first, after: $after) {
      edges {
        node {
          ...TransactionFields
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

type Money = { amount: string | null; currency: string | null; sourceAmount: string | null; sourceCurrency: string | null };
export const money = (t: Money) => (t.amount ? inCurrency(t.amount, t.currency) : t.sourceAmount ? inCurrency(t.sourceAmount, t.sourceCurrency) : '—');

/** The transactions list: filters, paging, and statuses that change as the events arrive. */
export function Transactions({ customerUuid }: { customerUuid?: string }) {
  const [type, setType] = useState('');
  const [status, setStatus] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [rows, setRows] = useState<Row[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [announce, setAnnounce] = useState('');

  const filter: TransactionFilter = {
    type: (type || null) as TransactionType | null,
    status: (status || null) as TransactionStatus | null,
    customerUuid: customerUuid ?? null,
    createdFrom: dayStart(from),
    createdTo: dayAfter(to),
  };
  const key = JSON.stringify(filter);

  async function load(after: string | null) {
    setError(null);
    try {
      const page = await gql(LIST, { filter, first: PAGE_SIZE, after });
      const nodes = page.transactions.edges.map((e) => e.node);
      setRows((old) => (after && old ? [...old, ...nodes] : nodes));
      setCursor(page.transactions.pageInfo.hasNextPage ? page.transactions.pageInfo.endCursor : null);
    } catch (err) {
      setError(err);
    }
  }

  useEffect(() => {
    setRows(null);
    void load(null);
  }, [key]);

  // Live: a status change updates its row, or adds the transaction when it fits the filters.
  useEffect(
    () =>
      subscribe(STATUS_CHANGED, {}, ({ transactionStatusChanged: t }) => {
        const fits = (!type || t.type === type) && (!status || t.status === status) && (!customerUuid || t.customerUuid === customerUuid);
        setRows((old) => {
          if (!old) return old;
          const at = old.findIndex((r) => r.reference === t.reference);
          if (at >= 0) return old.map((r, i) => (i === at ? { ...r, ...t } : r));
          return fits && !from && !to ? [t, ...old] : old;
        });
        setAnnounce(`${t.externalReference} is now ${words(t.status)}`);
      }),
    [key],
  );

  return (
    <section aria-labelledby="tx-title">
      <h2 id="tx-title">{customerUuid ? 'Their transactions' : 'Transactions'}</h2>
      <form className="filters" aria-label="Filter transactions" onSubmit={(e) => e.preventDefault()}>
        <label>
          Kind
          <select value={type} onChange={(e) => setType(e.target.value)}>
            <option value="">All</option>
            {TYPES.map((t) => (
              <option key={t} value={t}>
                {words(t)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Status
          <select value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">All</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {words(s)}
              </option>
            ))}
          </select>
        </label>
        <label>
          From
          <input type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
        </label>
        <label>
          To
          <input type="date" value={to} onChange={(e) => setTo(e.target.value)} />
        </label>
      </form>
      <p className="sr-only" aria-live="polite">
        {announce}
      </p>
      <ErrorText error={error} />
      {rows === null && !error && <Loading what="transactions" />}
      {rows?.length === 0 && <Empty>No transactions match. Make one with the API or the sandbox tools.</Empty>}
      {rows && rows.length > 0 && (
        <ul className="rows" aria-label="Transactions">
          {rows.map((t) => (
            <li key={t.reference} className="row" data-reference={t.reference}>
              <Link to={`/transactions/${encodeURIComponent(t.reference)}`}>{t.externalReference}</Link>
              <span className="muted">{words(t.type)}</span>
              <span>{money(t)}</span>
              <StatusBadge status={t.status} />
              <span className="muted">{when(t.createdAt)}</span>
            </li>
          ))}
        </ul>
      )}
      {cursor && (
        <button type="button" className="secondary" onClick={() => void load(cursor)}>
          Load more
        </button>
      )}
    </section>
  );
}
