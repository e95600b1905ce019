import { useEffect, useState } from 'react';
import { graphql } from './generated';
import type { MeQuery } from './generated/graphql';
import { usePath } from './router';
import { gql, onSessionChange, resumingSession, signOut, signedIn } from './session';
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

export function App() {
  const path = usePath();
  const [session, setSession] = useState(0);
  const [me, setMe] = useState<MeQuery | null>(null);

  useEffect(() => onSessionChange(() => setSession((n) => n + 1)), []);
  useEffect(() => {
    if (!signedIn()) return setMe(null);
    gql(ME).then(setMe, () => setMe(null));
  }, [session]);

  // The 3-D Secure page returns the cardholder here, in its own tab: no session needed.
  if (path.startsWith('/payments/return')) return <PaymentReturn />;
  if (!signedIn()) return resumingSession() ? <p role="status">Loading…</p> : <SignIn />;
  if (!me) return <p role="status">Loading…</p>;

  const sandbox = me.environment === 'SANDBOX';
  const [, section, id] = path.split('/');
  const page = (() => {
    switch (section) {
      case 'transactions':
        return id ? <TransactionDetail key={`${id}-${session}`} reference={decodeURIComponent(id)} sandbox={sandbox} /> : <Transactions key={session} />;
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
    <div className="app">
      <header>
        <div className="brand">
          <strong>{me.merchant.name}</strong> <span className={`env env-${me.environment.toLowerCase()}`}>{me.environment.toLowerCase()}</span>
        </div>
        <nav aria-label="Main">
          <Link to="/" current={!section || section === 'overview'}>
            Overview
          </Link>
          <Link to="/transactions" current={section === 'transactions'}>
            Transactions
          </Link>
          <Link to="/balance" current={section === 'balance'}>
            Balance
          </Link>
          <Link to="/customers" current={section === 'customers'}>
            Customers
          </Link>
          <Link to="/webhooks" current={section === 'webhooks'}>
            Webhooks
          </Link>
          <Link to="/credentials" current={section === 'credentials'}>
            Credentials
          </Link>
          {sandbox && (
            <Link to="/sandbox" current={section === 'sandbox'}>
              Sandbox tools
            </Link>
          )}
        </nav>
        <button type="button" className="secondary" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      <main>{page}</main>
    </div>
  );
}
