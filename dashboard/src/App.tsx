import { useEffect, useMemo, useState } from 'react';
import { useQuery } from './data';
import { graphql } from './generated';
import { usePath } from './router';
import { onSessionChange, resumingSession, signOut, signedIn } from './session';
import { Link } from './ui';
import { SignIn } from './screens/SignIn';
import { Transactions } from './screens/Transactions';
import { TransactionDetail } from './screens/TransactionDetail';
import { Customers, CustomerDetail } from './screens/Customers';
import { WebhookEvent, Webhooks } from './screens/Webhooks';
import { Credentials } from './screens/Credentials';
import { Sandbox, PaymentReturn } from './screens/Sandbox';
import { Overview } from './screens/Overview';
import { Balance } from './screens/Balance';

const ME = graphql(`
  query Me {
    merchant {
      name
      clientId
    }
    environment
  }
`);

/** The main navigation, in the order a finance team reads it. */
const SECTIONS: Array<{ to: string; label: string; section: string; sandboxOnly?: true }> = [
  { to: '/', label: 'Overview', section: 'overview' },
  { to: '/transactions', label: 'Transactions', section: 'transactions' },
  { to: '/balance', label: 'Balance', section: 'balance' },
  { to: '/customers', label: 'Customers', section: 'customers' },
  { to: '/webhooks', label: 'Webhooks', section: 'webhooks' },
  { to: '/credentials', label: 'Credentials', section: 'credentials' },
  { to: '/sandbox', label: 'Sandbox tools', section: 'sandbox', sandboxOnly: true },
];

export function App() {
  const path = usePath();
  const [session, setSession] = useState(0);
  useEffect(() => onSessionChange(() => setSession((n) => n + 1)), []);

  // The 3-D Secure page returns the cardholder here, in its own tab: no session needed.
  if (path.startsWith('/payments/return')) return <PaymentReturn />;
  if (!signedIn()) return resumingSession() ? <p role="status">Loading…</p> : <SignIn />;
  return <Dashboard path={path} session={session} />;
}

/** The signed-in dashboard: made anew at each sign-in, so nothing of a previous merchant is shown. */
function Dashboard({ path, session }: { path: string; session: number }) {
  // Read again at each change of the session (a refresh), as the screens keyed by it are.
  const context = useMemo(() => ({ session }), [session]);
  const [{ data: me }] = useQuery({ query: ME, context });
  /** The phone's menu (on a wide screen the navigation is always shown, as a sidebar). */
  const [menuOpen, setMenuOpen] = useState(false);

  // A page chosen from the menu closes it; so does Escape.
  useEffect(() => setMenuOpen(false), [path]);
  useEffect(() => {
    if (!menuOpen) return undefined;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setMenuOpen(false);
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [menuOpen]);

  if (!me) return <p role="status">Loading…</p>;

  const sandbox = me.environment === 'SANDBOX';
  const [, section, id] = path.split('/');
  const current = section || 'overview';
  const page = (() => {
    switch (section) {
      case 'transactions':
        return id ? (
          <TransactionDetail key={`${id}-${session}`} reference={decodeURIComponent(id)} sandbox={sandbox} />
        ) : (
          <Transactions key={session} sandbox={sandbox} />
        );
      case 'customers':
        return id ? <CustomerDetail key={`${id}-${session}`} uuid={decodeURIComponent(id)} /> : <Customers />;
      case 'webhooks':
        return id ? <WebhookEvent key={id} id={decodeURIComponent(id)} /> : <Webhooks />;
      case 'balance':
        return <Balance key={session} />;
      case 'credentials':
        return <Credentials />;
      case 'sandbox':
        return sandbox ? <Sandbox key={session} /> : <p>Sandbox tools exist only in the sandbox.</p>;
      default:
        // The landing page ('/', '/overview' and anything unknown).
        return <Overview key={session} />;
    }
  })();

  return (
    <div className={`app${menuOpen ? ' menu-open' : ''}`}>
      <aside className="sidebar">
        <div className="sidebar-head">
          <button
            type="button"
            className="menu-button"
            aria-label="Menu"
            aria-expanded={menuOpen}
            aria-controls="main-menu"
            onClick={() => setMenuOpen((open) => !open)}
          >
            <svg viewBox="0 0 20 20" width="20" height="20" aria-hidden="true">
              {menuOpen ? <path d="M4 4l12 12M16 4L4 16" /> : <path d="M3 5h14M3 10h14M3 15h14" />}
            </svg>
          </button>
          <div className="brand">
            <strong title={me.merchant.name}>{me.merchant.name}</strong>
            <span className={`env env-${me.environment.toLowerCase()}`}>{me.environment.toLowerCase()}</span>
          </div>
        </div>
        <div className="sidebar-body" id="main-menu">
          <nav aria-label="Main">
            {SECTIONS.filter((s) => sandbox || !s.sandboxOnly).map((s) => (
              <Link key={s.to} to={s.to} current={current === s.section}>
                {s.label}
              </Link>
            ))}
          </nav>
          <button type="button" className="secondary sign-out" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </aside>
      {menuOpen && <div className="scrim" aria-hidden="true" onClick={() => setMenuOpen(false)} />}
      <main>{page}</main>
    </div>
  );
}
