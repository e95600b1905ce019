import { useEffect, useState } from 'react';
import { useCan } from '../access';
import { usePages, useQuery, useSubscription } from '../data';
import { graphql } from '../generated';
import type { DisputeStatus } from '../generated/graphql';
import { formatAmount } from '../money';
import { BASE, navigate } from '../router';
import { EmptyState, ErrorText, Link, Loading, StatusBadge, when, words } from '../ui';
import { Deadline } from './DisputeDeadline';
import { DISPUTE_CHANGED, DISPUTE_STATUSES, statusFromParam, statusParam } from './disputes.gql';

const PAGE_SIZE = 20;

const LIST = graphql(`
  query Disputes($status: DisputeStatus, $first: Int, $after: String) {
    disputes(status: $status, first: $first, after: $after) {
      edges {
        node {
          ...DisputeFields
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

const OPEN_COUNT = graphql(`
  query OpenDisputeCount {
    openDisputeCount
  }
`);

/** One status's disputes (or all), newest first, a page at a time. */
function DisputeList({ status }: { status: DisputeStatus | null }) {
  const { rows, error, loadMore } = usePages({ query: LIST, variables: { status, first: PAGE_SIZE } }, (d) => d.disputes);
  return (
    <>
      <ErrorText error={error} />
      {rows === null && !error && <Loading what="disputes" />}
      {rows?.length === 0 && (
        <EmptyState title={status ? `No disputes in “${words(status)}”` : 'No disputes yet'}>
          When a cardholder disputes a card payment with their bank, it is listed here with the time left to answer.
        </EmptyState>
      )}
      {rows && rows.length > 0 && (
        <div className="table-card">
          <table className="list disputes" aria-labelledby="dp-title">
            <thead>
              <tr>
                <th scope="col" className="c-opened">
                  Opened
                </th>
                <th scope="col" className="num c-amount">
                  Amount
                </th>
                <th scope="col" className="c-reason">
                  Reason
                </th>
                <th scope="col" className="c-status">
                  Status
                </th>
                <th scope="col" className="c-due">
                  Respond within
                </th>
                <th scope="col" className="c-payment">
                  Payment
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((d) => {
                const to = `/disputes/${encodeURIComponent(d.id)}`;
                return (
                  <tr
                    key={d.id}
                    data-dispute={d.id}
                    className="clickable"
                    onClick={(e) => {
                      if ((e.target as HTMLElement).closest('a')) return;
                      navigate(to);
                    }}
                  >
                    <td className="d-opened">
                      <Link to={to}>{when(d.createdAt)}</Link>
                      <span className="sub mono">{d.id}</span>
                    </td>
                    <td className="num d-amount">
                      {formatAmount(d.amount)} <span className="ccy">{d.currency}</span>
                    </td>
                    <td className="d-reason">{words(d.reason)}</td>
                    <td className="d-status">
                      <StatusBadge status={d.status} />
                    </td>
                    <td className="d-due">
                      <Deadline dueBy={d.evidenceDueBy} status={d.status} />
                    </td>
                    <td className="d-payment">
                      <Link to={`/transactions/${encodeURIComponent(d.paymentReference)}`}>{d.paymentReference}</Link>
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
    </>
  );
}

/** The ?status= of the page's address (the overview's banner links to ?status=needs_response). */
const statusInUrl = () => statusFromParam(new URLSearchParams(location.search).get('status'));

/** Card payments disputed by their cardholders (issue 39): newest first, by status, each with the time left to answer. */
export function Disputes() {
  const [status, setStatus] = useState<DisputeStatus | null>(statusInUrl);
  // Counts the changes heard: each reads the list again from its first page (a status moves a dispute between filters).
  const [changes, setChanges] = useState(0);
  const [{ data: changed }] = useSubscription({ query: DISPUTE_CHANGED });
  useEffect(() => {
    if (changed) setChanges((n) => n + 1);
  }, [changed]);

  // The filter is kept in the address (replaced, not pushed: Back leaves the page rather than undoing a filter).
  function choose(next: DisputeStatus | null) {
    setStatus(next);
    const param = statusParam(next);
    history.replaceState(null, '', `${BASE}/disputes${param ? `?status=${param}` : ''}`);
  }

  return (
    <section aria-labelledby="dp-title">
      <h2 id="dp-title">Disputes</h2>
      <p className="muted">
        Card payments your customers disputed with their bank. Answer each with evidence before its deadline, or accept it: a dispute left unanswered is
        accepted for you when the time runs out.
      </p>
      <form className="filters" aria-label="Filter disputes" onSubmit={(e) => e.preventDefault()}>
        <label>
          Status
          <select value={status ?? ''} onChange={(e) => choose((e.target.value || null) as DisputeStatus | null)}>
            <option value="">All</option>
            {DISPUTE_STATUSES.map((s) => (
              <option key={s} value={s}>
                {words(s)}
              </option>
            ))}
          </select>
        </label>
      </form>
      <DisputeList key={`${status ?? ''}-${changes}`} status={status} />
    </section>
  );
}

/** The overview's banner while any dispute waits for the merchant's answer (needs_response or warning_needs_response). */
export function OpenDisputesBanner() {
  const can = useCan();
  const [{ data }, reread] = useQuery({ query: OPEN_COUNT, pause: !can('disputes:read') });
  const [{ data: changed }] = useSubscription({ query: DISPUTE_CHANGED, pause: !can('disputes:read') });
  useEffect(() => {
    if (changed) reread();
  }, [changed, reread]);
  const n = data?.openDisputeCount ?? 0;
  if (n <= 0) return null;
  return (
    <div className="banner banner-urgent" role="region" aria-label="Disputes">
      <p>
        <Link to="/disputes?status=needs_response">
          {n} {n === 1 ? 'dispute needs' : 'disputes need'} a response
        </Link>{' '}
        <span className="muted">Answer each before its deadline: one left unanswered is accepted for you.</span>
      </p>
    </div>
  );
}
