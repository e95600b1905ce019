import { useEffect, useRef } from 'react';
import { useCan } from '../access';
import { useQuery } from '../data';
import { graphql } from '../generated';
import { inCurrency, isZero } from '../money';
import { ErrorText, Link, when } from '../ui';
import type { BalanceRow } from './ledger.gql';

const UPCOMING = graphql(`
  query UpcomingPayout($currency: String!) {
    upcomingPayout(currency: $currency) {
      currency
      scheduledAt
      expectedAmount
      minimumAmount
      destination
    }
  }
`);

/** One currency's next payout: when, what it would pay now (an estimate), and where it goes. */
function NextPayout({ currency, available }: { currency: string; available: string }) {
  const can = useCan();
  const [{ data, error }, reread] = useQuery({ query: UPCOMING, variables: { currency } });
  // The estimate follows the balance: read again when the available balance changes (not on the first render).
  const seen = useRef(available);
  useEffect(() => {
    if (seen.current === available) return;
    seen.current = available;
    reread();
  }, [available, reread]);
  const u = data?.upcomingPayout;
  const add = can('payouts:manage') ? <Link to="/payouts/destinations">No payout destination: add one</Link> : 'No payout destination: add one';
  // Without a destination nothing would be paid: a short card, after the others (CSS order), so a sandbox holding
  // every currency does not bury the ones that pay.
  const none = u !== undefined && u.destination === null;
  return (
    <li className={`card next-payout${none ? ' none' : ''}`} data-currency={currency} aria-labelledby={`np-${currency}`}>
      <h4 id={`np-${currency}`}>Next payout, {currency}</h4>
      <ErrorText error={error} />
      {!u && !error && <p className="muted">Loading…</p>}
      {none && <p data-testid="next-payout-none">{add}</p>}
      {u && !none && (
        <dl>
          <div>
            <dt>When</dt>
            <dd data-testid="next-payout-when">{u.scheduledAt ? when(u.scheduledAt) : 'Manual'}</dd>
          </div>
          <div>
            <dt>Expected</dt>
            <dd data-testid="next-payout-amount">{inCurrency(u.expectedAmount, u.currency)}</dd>
          </div>
          <div>
            <dt>To</dt>
            <dd>{u.destination}</dd>
          </div>
        </dl>
      )}
    </li>
  );
}

/**
 * The overview's next payouts: one card per currency with an available balance (a currency holding nothing has
 * nothing to pay out), each read on its own (upcomingPayout takes one currency).
 */
export function NextPayouts({ balances }: { balances: BalanceRow[] }) {
  const holding = balances.filter((b) => !isZero(b.available));
  if (holding.length === 0) return null;
  return (
    <section aria-labelledby="np-title">
      <div className="page-head">
        <h3 id="np-title">Next payouts</h3>
        <Link to="/payouts">All payouts</Link>
      </div>
      <ul className="balances next-payouts" aria-labelledby="np-title">
        {holding.map((b) => (
          <NextPayout key={b.currency} currency={b.currency} available={b.available} />
        ))}
      </ul>
    </section>
  );
}
