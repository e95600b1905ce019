import { useCan } from '../access';
import { usePath } from '../router';
import { Link } from '../ui';

/** The three payout pages, linked to each other at the top of each (each shown to the roles the main navigation shows it to). */
export function PayoutPages() {
  const can = useCan();
  const path = usePath();
  const pages = [
    { to: '/payouts', label: 'Payouts', show: can('balances:read') },
    { to: '/payouts/destinations', label: 'Destinations', show: can('payouts:manage') },
    { to: '/payout-schedule', label: 'Schedule', show: can('balances:read') },
  ].filter((p) => p.show);
  return (
    <nav aria-label="Payout pages" className="subnav">
      {pages.map((p) => (
        <Link key={p.to} to={p.to} current={path === p.to}>
          {p.label}
        </Link>
      ))}
    </nav>
  );
}
