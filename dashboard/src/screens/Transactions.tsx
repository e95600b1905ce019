import { useEffect, useRef, useState } from 'react';
import { usePages, useSubscription } from '../data';
import { graphql } from '../generated';
import type { TransactionFieldsFragment, TransactionFilter, TransactionStatus, TransactionType } from '../generated/graphql';
import { formatAmount } from '../money';
import { navigate } from '../router';
import { fetchFile } from '../session';
import { EmptyState, ErrorText, Link, Loading, StatusBadge, dayAfter, dayStart, saveFile, when, words } from '../ui';
import { STATUS_CHANGED } from './transactions.gql';

type Row = TransactionFieldsFragment;

/** Every kind, in the filter's order (a kind the API gains and this list lacks does not compile). */
const TYPE_ORDER = { COLLECTION: 1, TRANSFER: 2, PAYMENT: 3, REFUND: 4, PAYOUT: 5, FUNDING: 6 } satisfies Record<TransactionType, number>;
const TYPES = Object.keys(TYPE_ORDER) as TransactionType[];
const STATUSES: TransactionStatus[] = ['PROCESSING', 'REQUIRES_ACTION', 'SUCCESSFUL', 'FAILED', 'EXPIRED'];
const PAGE_SIZE = 20;
/** How long typing rests before the search runs. */
const SEARCH_DELAY_MS = 300;

const LIST = graphql(`
  query Transactions($filter: TransactionFilter, $search: String, $first: Int, $after: String) {
    transactions(filter: $filter, search: $search, first: $first, after: $after) {
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
/** What moves, in its currency: a transfer's is what the merchant sends. */
const amountOf = (t: Money) =>
  t.amount ? { value: t.amount, currency: t.currency } : t.sourceAmount ? { value: t.sourceAmount, currency: t.sourceCurrency } : null;
export const money = (t: Money) => {
  const a = amountOf(t);
  return a ? `${formatAmount(a.value)} ${a.currency ?? ''}`.trim() : '—';
};

/** Kinds whose other side is the account the money goes to (its holder and the account, masked), not the customer. */
const PAID_TO_AN_ACCOUNT: TransactionType[] = ['TRANSFER', 'PAYOUT'];

/**
 * Who is on the other side, as a person reads it: a transfer's or payout's beneficiary (the name, then the account,
 * masked); otherwise the customer who pays (the name, then the email), or, without one, the payer's masked card or wallet.
 */
function CounterpartyCell({ t }: { t: Row }) {
  const { customer, counterparty } = t;
  if (customer && !PAID_TO_AN_ACCOUNT.includes(t.type)) {
    return (
      <>
        <span className="customer-name">
          {customer.firstName} {customer.lastName}
        </span>
        <span className="sub">{customer.email}</span>
      </>
    );
  }
  if (!counterparty.name && !counterparty.account) return <span className="muted">—</span>;
  return (
    <>
      {counterparty.name && <span className="customer-name">{counterparty.name}</span>}
      {counterparty.account && <span className="sub mono">{counterparty.account}</span>}
    </>
  );
}

/** The status changes heard while one list (one `showing` of its filters) is shown, oldest first. */
interface Heard {
  showing: number;
  changes: Row[];
}

/** The transactions list: search, filters, paging, CSV export, and statuses that change as the events arrive. */
export function Transactions({ customerUuid, sandbox = false }: { customerUuid?: string; sandbox?: boolean }) {
  const [type, setType] = useState('');
  const [status, setStatus] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [announce, setAnnounce] = useState('');
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<unknown>(null);

  const filter: TransactionFilter = {
    type: (type || null) as TransactionType | null,
    status: (status || null) as TransactionStatus | null,
    customerUuid: customerUuid ?? null,
    createdFrom: dayStart(from),
    createdTo: dayAfter(to),
  };
  const key = JSON.stringify([filter, search]);
  const filtered = Boolean(type || status || from || to || search);

  // The search runs once typing rests (Enter runs it at once).
  useEffect(() => {
    const timer = setTimeout(() => setSearch(typed.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  const list = usePages({ query: LIST, variables: { filter, search: search || null, first: PAGE_SIZE } }, (data) => data.transactions);
  const { error, loadMore } = list;

  // Live: the status changes heard while this list (these filters) is shown; each updates its row, or adds the
  // transaction when it fits the filters.
  // Each showing has its own number: changes heard while these filters were shown before are not replayed.
  const shown = useRef({ key, showing: 0, loaded: false });
  if (shown.current.key !== key) shown.current = { key, showing: shown.current.showing + 1, loaded: false };
  shown.current.loaded = list.rows !== null;
  const [{ data: heard }] = useSubscription({ query: STATUS_CHANGED, variables: {} }, (old: Heard | undefined, { transactionStatusChanged: t }) => {
    const { showing, loaded } = shown.current;
    const changes = old?.showing === showing ? old.changes : [];
    return { showing, changes: loaded ? [...changes, t] : changes };
  });
  const changes = heard?.showing === shown.current.showing ? heard.changes : [];
  let rows = list.rows;
  for (const t of rows ? changes : []) {
    const fits = (!type || t.type === type) && (!status || t.status === status) && (!customerUuid || t.customerUuid === customerUuid);
    const at = rows!.findIndex((r) => r.reference === t.reference);
    if (at >= 0) rows = rows!.map((r, i) => (i === at ? { ...r, ...t } : r));
    else if (fits && !from && !to && !search) rows = [t, ...rows!];
  }
  const last = changes.at(-1);
  useEffect(() => {
    if (last) setAnnounce(`${last.externalReference} is now ${words(last.status)}`);
  }, [last]);

  /** The whole filtered list (every page) as the service writes it: GET /v1/transactions/export.csv. */
  async function exportCsv() {
    setExportError(null);
    setExporting(true);
    try {
      const query = new URLSearchParams();
      if (type) query.set('type', type.toLowerCase());
      if (status) query.set('status', status.toLowerCase());
      if (customerUuid) query.set('customer_uuid', customerUuid);
      if (filter.createdFrom) query.set('created_from', filter.createdFrom);
      if (filter.createdTo) query.set('created_to', filter.createdTo);
      if (search) query.set('search', search);
      const { blob, filename } = await fetchFile(`/v1/transactions/export.csv${query.size ? `?${query}` : ''}`);
      saveFile(blob, filename);
      setAnnounce(`Downloaded ${filename}.`);
    } catch (err) {
      setExportError(err);
    } finally {
      setExporting(false);
    }
  }

  function clear() {
    setType('');
    setStatus('');
    setFrom('');
    setTo('');
    setTyped('');
    setSearch('');
  }

  return (
    <section aria-labelledby="tx-title">
      <div className="page-head">
        <h2 id="tx-title">{customerUuid ? 'Their transactions' : 'Transactions'}</h2>
        <button type="button" className="secondary" onClick={() => void exportCsv()} disabled={exporting}>
          {exporting ? 'Exporting…' : 'Export CSV'}
        </button>
      </div>
      <form
        className="filters"
        role="search"
        aria-label="Filter transactions"
        onSubmit={(e) => {
          e.preventDefault();
          setSearch(typed.trim());
        }}
      >
        {!customerUuid && (
          <label className="search">
            Search
            <input
              type="search"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              placeholder="Reference or customer email"
              spellCheck={false}
              autoComplete="off"
            />
          </label>
        )}
        <label>
          Type
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
      <ErrorText error={exportError} />
      <ErrorText error={error} />
      {rows === null && !error && <Loading what="transactions" />}
      {rows?.length === 0 &&
        (filtered ? (
          <EmptyState
            title={search ? `No transactions match “${search}”` : 'No transactions match these filters'}
            action={
              <button type="button" className="secondary" onClick={clear}>
                Clear search and filters
              </button>
            }
          >
            Search finds a whole reference (yours or the service’s) or a customer’s exact email, in any case.
          </EmptyState>
        ) : (
          <EmptyState title="No transactions yet" action={sandbox && !customerUuid ? <Link to="/sandbox">Open the sandbox tools</Link> : undefined}>
            Collections, transfers and card payments appear here as soon as they are created, through the API
            {sandbox ? ' or the sandbox tools' : ''}, and their statuses change live.
          </EmptyState>
        ))}
      {rows && rows.length > 0 && (
        <div className="table-card">
          <table className="list txns" aria-labelledby="tx-title">
            <colgroup>
              <col className="c-date" />
              <col className="c-ref" />
              <col className="c-counterparty" />
              <col className="c-type" />
              <col className="c-amount" />
              <col className="c-status" />
            </colgroup>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Reference</th>
                <th scope="col">Counterparty</th>
                <th scope="col">Type</th>
                <th scope="col" className="num">
                  Amount
                </th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((t) => {
                const to = `/transactions/${encodeURIComponent(t.reference)}`;
                const a = amountOf(t);
                return (
                  <tr
                    key={t.reference}
                    data-reference={t.reference}
                    className="clickable"
                    onClick={(e) => {
                      if ((e.target as HTMLElement).closest('a')) return;
                      navigate(to);
                    }}
                  >
                    <td className="t-date">{when(t.createdAt)}</td>
                    <td className="t-ref">
                      <Link to={to}>{t.externalReference}</Link>
                      <span className="sub mono">{t.reference}</span>
                    </td>
                    <td className="t-counterparty">
                      <CounterpartyCell t={t} />
                    </td>
                    <td className="t-type">{words(t.type)}</td>
                    <td className="t-amount num">
                      {a ? formatAmount(a.value) : '—'} <span className="ccy">{a?.currency}</span>
                    </td>
                    <td className="t-status">
                      <StatusBadge status={t.status} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {loadMore && (
        <button type="button" className="secondary load-more" onClick={loadMore}>
          Load more
        </button>
      )}
    </section>
  );
}
