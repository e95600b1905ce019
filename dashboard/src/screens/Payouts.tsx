import { useState, type FormEvent } from 'react';
import { useCan } from '../access';
import { useMutation, usePages, useQuery } from '../data';
import { graphql } from '../generated';
import { formatAmount } from '../money';
import { navigate } from '../router';
import { EmptyState, ErrorText, Link, Loading, StatusBadge, when } from '../ui';
import { BALANCES } from './ledger.gql';
import { PayoutPages } from './PayoutPages';

const PAGE_SIZE = 20;

graphql(`
  fragment PayoutFields on Payout {
    id
    createdAt
    amount
    fee
    currency
    status
    automatic
    window
    expectedArrivalAt
    completedAt
    failureReason
    traceReference
    transactionReference
    destination {
      accountName
      accountNumberMasked
      networkName
      accountType
      countryCode
    }
  }
`);

const LIST = graphql(`
  query Payouts($currency: String, $first: Int, $after: String) {
    payouts(currency: $currency, first: $first, after: $after) {
      edges {
        node {
          ...PayoutFields
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

const CREATE = graphql(`
  mutation CreatePayout($input: CreatePayoutInput!) {
    createPayout(input: $input) {
      ...PayoutFields
    }
  }
`);

/** "Guaranty Trust Bank ••••6780": where a payout went, never the whole number. */
export const destinationOf = (d: { networkName?: string | null; accountNumberMasked: string } | null | undefined) =>
  d ? [d.networkName, d.accountNumberMasked].filter(Boolean).join(' ') : '—';

/** A manual payout, for members with payouts:create: the API's refusal (402 funds, 409 no destination) shown in place. */
function PayOutNow({ currencies, onMade }: { currencies: string[]; onMade: () => void }) {
  const [made, create] = useMutation(CREATE);
  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    const res = await create({ input: { currency: String(f.get('currency')), amount: String(f.get('amount')).trim() } });
    if (!res.data) return;
    form.reset();
    onMade();
  }
  const done = made.data?.createPayout;
  return (
    <form className="card filters pay-out" aria-label="Pay out now" onSubmit={(e) => void submit(e)}>
      <h3>Pay out now</h3>
      <label>
        Currency
        <select name="currency" defaultValue={currencies.includes('NGN') ? 'NGN' : currencies[0]} required>
          {currencies.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </select>
      </label>
      <label>
        Amount
        <input name="amount" required inputMode="decimal" pattern="\d+(\.\d+)?" placeholder="50000.00" autoComplete="off" />
      </label>
      <button type="submit" disabled={made.fetching}>
        {made.fetching ? 'Paying out…' : 'Pay out'}
      </button>
      <p role="status" className="muted">
        {done && !made.error ? `Payout ${done.id} of ${formatAmount(done.amount)} ${done.currency} created.` : ''}
      </p>
      <ErrorText error={made.error} showCode />
    </form>
  );
}

/** One currency's payouts (or all), newest first, a page at a time. */
function PayoutList({ currency }: { currency: string }) {
  const { rows, error, loadMore } = usePages({ query: LIST, variables: { currency: currency || null, first: PAGE_SIZE } }, (d) => d.payouts);
  return (
    <>
      <ErrorText error={error} />
      {rows === null && !error && <Loading what="payouts" />}
      {rows?.length === 0 && (
        <EmptyState title={currency ? `No payouts in ${currency}` : 'No payouts yet'}>
          Your balance is paid out by your schedule once you have a payout destination.
        </EmptyState>
      )}
      {rows && rows.length > 0 && (
        <div className="table-card scroll">
          <table className="list payouts" aria-labelledby="po-title">
            <thead>
              <tr>
                <th scope="col">Created</th>
                <th scope="col" className="num">
                  Amount
                </th>
                <th scope="col">Status</th>
                <th scope="col">Kind</th>
                <th scope="col">Destination</th>
                <th scope="col">Expected arrival</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((p) => {
                const to = `/payouts/${encodeURIComponent(p.id)}`;
                return (
                  <tr
                    key={p.id}
                    data-payout={p.id}
                    className="clickable"
                    onClick={(e) => {
                      if ((e.target as HTMLElement).closest('a')) return;
                      navigate(to);
                    }}
                  >
                    <td>
                      <Link to={to}>{when(p.createdAt)}</Link>
                      <span className="sub mono">{p.id}</span>
                    </td>
                    <td className="num">
                      {formatAmount(p.amount)} <span className="ccy">{p.currency}</span>
                    </td>
                    <td>
                      <StatusBadge status={p.status} />
                    </td>
                    <td>{p.automatic ? 'Automatic' : 'Manual'}</td>
                    <td>{destinationOf(p.destination)}</td>
                    <td>{when(p.expectedArrivalAt)}</td>
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

/** Payouts to the merchant's own account (docs/payouts.md): newest first, by currency; each opens its report. */
export function Payouts() {
  const can = useCan();
  const [currency, setCurrency] = useState('');
  // Counts the payouts made here: each one reads the list again from its first page.
  const [made, setMade] = useState(0);
  const [{ data: balances }] = useQuery({ query: BALANCES });
  const currencies = (balances?.balances ?? []).map((b) => b.currency);

  return (
    <section aria-labelledby="po-title">
      <PayoutPages />
      <h2 id="po-title">Payouts</h2>
      <p className="muted">What left your balance for your own account: automatic payouts by your schedule, and the ones you asked for.</p>
      {can('payouts:create') && currencies.length > 0 && <PayOutNow currencies={currencies} onMade={() => setMade((n) => n + 1)} />}
      <form className="filters" aria-label="Filter payouts" onSubmit={(e) => e.preventDefault()}>
        <label>
          Currency
          <select value={currency} onChange={(e) => setCurrency(e.target.value)}>
            <option value="">All</option>
            {currencies.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </label>
      </form>
      <PayoutList key={`${currency}-${made}`} currency={currency} />
    </section>
  );
}
