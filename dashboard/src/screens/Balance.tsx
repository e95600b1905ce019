import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useCan } from '../access';
import { usePages, useQuery, useSubscription } from '../data';
import { graphql } from '../generated';
import type { BalanceTransactionFilter, BalanceTransactionType } from '../generated/graphql';
import { formatAmount } from '../money';
import { fetchFile } from '../session';
import { Empty, ErrorText, Link, Loading, dateValue, dayAfter, dayStart, saveFile, when, words } from '../ui';
import { AddFunds } from './AddFunds';
import { BALANCE_CHANGED, BALANCE_TRANSACTION_TYPES, BALANCES, FROM_A_TRANSACTION } from './ledger.gql';

const PAGE_SIZE = 20;
const LIST = graphql(`
  query BalanceTransactions($filter: BalanceTransactionFilter, $first: Int, $after: String) {
    balanceTransactions(filter: $filter, first: $first, after: $after) {
      edges {
        node {
          ...BalanceTransactionFields
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

/** Every movement of the balance, newest first: filters, paging, and new ones as they are posted. */
function BalanceTransactions({ currencies }: { currencies: string[] }) {
  const [currency, setCurrency] = useState('');
  const [type, setType] = useState('');

  const filter: BalanceTransactionFilter = { currency: currency || null, type: (type || null) as BalanceTransactionType | null };
  // The rows read for this filter (rows of another filter are never shown, even for a moment).
  const list = usePages({ query: LIST, variables: { filter, first: PAGE_SIZE } }, (data) => data.balanceTransactions);
  const { error, loadMore } = list;

  // Live: when a balance (of the chosen currency) changes, its newest movements are read and the new ones put on top.
  const [{ data: heard }] = useSubscription({ query: BALANCE_CHANGED, variables: { currency: currency || null } });
  const [{ data: newest }, readNewest] = useQuery({ query: LIST, variables: { filter, first: PAGE_SIZE, after: null }, pause: true });
  useEffect(() => {
    if (heard) readNewest();
  }, [heard, readNewest]);
  const known = new Set(list.rows?.map((r) => r.id));
  const fresh = (newest?.balanceTransactions.edges ?? []).map((e) => e.node).filter((n) => !known.has(n.id));
  const rows = list.rows && [...fresh, ...list.rows];
  const announce = newest && heard ? `The ${heard.balanceChanged.currency} balance changed` : '';

  return (
    <div aria-busy={rows === null && !error}>
      <h3 id="bt-title">Balance transactions</h3>
      <form className="filters" aria-label="Filter balance transactions" onSubmit={(e) => e.preventDefault()}>
        <label>
          Currency
          <select value={currency} onChange={(e) => setCurrency(e.target.value)}>
            <option value="">All</option>
            {currencies.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </label>
        <label>
          Kind
          <select value={type} onChange={(e) => setType(e.target.value)}>
            <option value="">All</option>
            {BALANCE_TRANSACTION_TYPES.map((t) => (
              <option key={t} value={t}>
                {words(t)}
              </option>
            ))}
          </select>
        </label>
      </form>
      <p className="sr-only" aria-live="polite">
        {announce}
      </p>
      <ErrorText error={error} />
      {rows === null && !error && <Loading what="balance transactions" />}
      {rows?.length === 0 && <Empty>No balance transactions match.</Empty>}
      {rows && rows.length > 0 && (
        // Focusable, so the keyboard can scroll it sideways should it ever be wider than the screen (on a phone each row is a card).
        <div className="scroll" role="region" aria-labelledby="bt-title" tabIndex={0}>
          <table className="ledger">
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Kind</th>
                <th scope="col">Currency</th>
                <th scope="col" className="num">
                  Amount
                </th>
                <th scope="col" className="num">
                  Fee
                </th>
                <th scope="col" className="num">
                  Net
                </th>
                <th scope="col" className="num">
                  Balance after
                </th>
                <th scope="col">Source</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id} data-id={r.id} data-source={r.sourceReference ?? ''}>
                  <td className="b-date">{when(r.createdAt)}</td>
                  <td className="b-kind">{words(r.type)}</td>
                  <td className="b-currency">{r.currency}</td>
                  <td className="num b-amount" data-label="Amount">
                    {formatAmount(r.amount)}
                  </td>
                  <td className="num b-fee" data-label="Fee">
                    {formatAmount(r.fee)}
                  </td>
                  <td className="num b-net" data-label="Net">
                    {formatAmount(r.net)}
                  </td>
                  <td className="num b-after" data-label="Balance after">
                    {formatAmount(r.balanceAfter)}
                  </td>
                  <td className="b-source">
                    {r.sourceReference && FROM_A_TRANSACTION.has(r.type) ? (
                      <Link to={`/transactions/${encodeURIComponent(r.sourceReference)}`}>{r.sourceReference}</Link>
                    ) : (
                      (r.sourceReference ?? '—')
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {loadMore && (
        <button type="button" className="secondary" onClick={loadMore}>
          Load more
        </button>
      )}
    </div>
  );
}

/** Saves a Blob as a file: through an object URL (the token stays in a header, never in a URL). */

/** A period's statement (CSV): the opening balance, every movement with the balance after it, the closing balance and totals. */
function Statement({ currencies }: { currencies: string[] }) {
  const today = dateValue(new Date());
  const monthAgo = dateValue(new Date(Date.now() - 30 * 86_400_000));
  const [error, setError] = useState<unknown>(null);
  const [invalid, setInvalid] = useState('');
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const from = String(f.get('from'));
    const to = String(f.get('to'));
    setError(null);
    setStatus('');
    setInvalid(to < from ? 'The “To” day must not be before the “From” day.' : '');
    if (to < from) return;
    setBusy(true);
    try {
      const query = new URLSearchParams({ currency: String(f.get('currency')), from: dayStart(from)!, to: dayAfter(to)! });
      const { blob, filename } = await fetchFile(`/v1/reports/statement?${query}`);
      saveFile(blob, filename);
      setStatus(`Downloaded ${filename}.`);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="card statement" onSubmit={submit} aria-labelledby="st-title">
      <h3 id="st-title">Statement</h3>
      <p className="muted">A CSV of one currency over whole days (your time zone): the opening balance, every movement, the closing balance and the totals.</p>
      <div className="filters">
        <label>
          Currency
          <select name="currency" defaultValue={currencies.includes('NGN') ? 'NGN' : currencies[0]} required>
            {currencies.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </label>
        <label>
          From
          <input name="from" type="date" defaultValue={monthAgo} required />
        </label>
        <label>
          To
          <input name="to" type="date" defaultValue={today} required />
        </label>
      </div>
      <button type="submit" disabled={busy}>
        {busy ? 'Preparing…' : 'Download CSV'}
      </button>
      <p role="status" className="muted">
        {status}
      </p>
      {invalid && (
        <div className="error" role="alert">
          <p>{invalid}</p>
        </div>
      )}
      <ErrorText error={error} showCode />
    </form>
  );
}

/** The books: the balance transactions behind every balance, statements to download, and (for a role that may) adding funds. */
export function Balance({ sandbox }: { sandbox: boolean }) {
  const can = useCan();
  const [{ data, error }, reread] = useQuery({ query: BALANCES });
  const [adding, setAdding] = useState(false);
  const currencies = (data?.balances ?? []).map((b) => b.currency);
  const fund = useRef<HTMLButtonElement>(null);
  const closeFunding = () => {
    setAdding(false);
    fund.current?.focus();
  };
  return (
    <section aria-labelledby="bal-title">
      <div className="page-head">
        <h2 id="bal-title">Balance</h2>
        {can('balances:fund') && (
          <button ref={fund} type="button" aria-expanded={adding} aria-controls="add-funds" onClick={() => setAdding((open) => !open)}>
            Add funds
          </button>
        )}
      </div>
      <p className="muted">
        Every movement of your balance (available and pending): what moved, the fee, the net and the balance after it. Today’s balances are on the overview.
      </p>
      <ErrorText error={error} />
      {!data && !error && <Loading what="currencies" />}
      {data && (
        <>
          {adding && (
            <AddFunds
              id="add-funds"
              balances={data.balances}
              sandbox={sandbox}
              onCredited={() => reread({ requestPolicy: 'network-only' })}
              onClose={closeFunding}
            />
          )}
          <BalanceTransactions currencies={currencies} />
          <Statement currencies={currencies} />
        </>
      )}
    </section>
  );
}
