import { useEffect, useMemo, useState } from 'react';
import { MeContext, useCan, type Me, type Permission } from './access';
import { resendVerification } from './account';
import { useQuery } from './data';
import { graphql } from './generated';
import { navigate, usePath } from './router';
import { enrolmentRequired, onSessionChange, resumingSession, signOut, signedIn, switchMerchant } from './session';
import { ErrorText, Link, words } from './ui';
import { SignIn } from './screens/SignIn';
import { SignUp } from './screens/SignUp';
import { ForgotPassword, ResetPassword, VerifyEmail } from './screens/EmailLinks';
import { AcceptInvitation } from './screens/AcceptInvitation';
import { Transactions } from './screens/Transactions';
import { TransactionDetail } from './screens/TransactionDetail';
import { Customers, CustomerDetail } from './screens/Customers';
import { WebhookEvent, Webhooks } from './screens/Webhooks';
import { Sandbox, PaymentReturn } from './screens/Sandbox';
import { Overview } from './screens/Overview';
import { Balance } from './screens/Balance';
import { Payouts } from './screens/Payouts';
import { PayoutDetail } from './screens/PayoutDetail';
import { PayoutDestinations } from './screens/PayoutDestinations';
import { PayoutSchedule } from './screens/PayoutSchedule';
import { Disputes } from './screens/Disputes';
import { DisputeDetail } from './screens/DisputeDetail';
import { Team } from './screens/Team';
import { Profile } from './screens/Profile';
import { EnrolmentOnly } from './screens/TwoFactor';
import { ApiKeys } from './screens/ApiKeys';
import { PaymentLinks } from './screens/PaymentLinks';
import { AuditLog } from './screens/AuditLog';

const ME = graphql(`
  query Me {
    me {
      kind
      role
      enrolmentOnly
      permissions
      merchantId
      merchantName
      user {
        id
        email
        name
        emailVerified
        twoFactorEnabled
      }
      memberships {
        merchantId
        merchantName
        role
      }
    }
  }
`);
const ENVIRONMENT = graphql(`
  query Environment {
    environment
  }
`);

/** The main navigation, in the order a finance team reads it; each page shown to the roles that may read it. */
const SECTIONS: Array<{ to: string; label: string; section: string; permission?: Permission; sandboxOnly?: true }> = [
  { to: '/', label: 'Overview', section: 'overview', permission: 'balances:read' },
  { to: '/transactions', label: 'Transactions', section: 'transactions', permission: 'transactions:read' },
  { to: '/disputes', label: 'Disputes', section: 'disputes', permission: 'disputes:read' },
  { to: '/balance', label: 'Balance', section: 'balance', permission: 'balances:read' },
  { to: '/payouts', label: 'Payouts', section: 'payouts', permission: 'balances:read' },
  { to: '/payouts/destinations', label: 'Payout destinations', section: 'payout-destinations', permission: 'payouts:manage' },
  { to: '/payout-schedule', label: 'Payout schedule', section: 'payout-schedule', permission: 'balances:read' },
  { to: '/payment-links', label: 'Payment links', section: 'payment-links', permission: 'transactions:read' },
  { to: '/customers', label: 'Customers', section: 'customers', permission: 'customers:read' },
  { to: '/webhooks', label: 'Webhooks', section: 'webhooks', permission: 'webhooks:read' },
  { to: '/team', label: 'Team', section: 'team', permission: 'team:read' },
  { to: '/api-keys', label: 'API keys', section: 'api-keys', permission: 'keys:manage' },
  { to: '/audit-log', label: 'Audit log', section: 'audit-log', permission: 'audit:read' },
  { to: '/profile', label: 'Profile', section: 'profile' },
  { to: '/sandbox', label: 'Sandbox tools', section: 'sandbox', permission: 'payments:create', sandboxOnly: true },
];

export function App() {
  const path = usePath();
  const [session, setSession] = useState(0);
  useEffect(() => onSessionChange(() => setSession((n) => n + 1)), []);
  const [, first, second] = path.split('/');

  // The 3-D Secure page returns the cardholder here, in its own tab: no session needed. So do the emailed links.
  if (first === 'payments' && second === 'return') return <PaymentReturn />;
  if (first === 'verify-email') return <VerifyEmail />;
  if (first === 'reset-password') return <ResetPassword />;
  if (first === 'accept-invitation' || (first === 'invitations' && second === 'accept')) return <AcceptInvitation />;
  if (!signedIn()) {
    if (resumingSession()) return <p role="status">Loading…</p>;
    if (first === 'sign-up') return <SignUp />;
    if (first === 'forgot-password') return <ForgotPassword />;
    return <SignIn />;
  }
  // A member who must enrol in 2FA first (the merchant requires it, or production does for their role): that alone.
  if (enrolmentRequired()) return <EnrolmentOnly />;
  return <Dashboard path={path} session={session} />;
}

/** The signed-in dashboard: made anew at each sign-in, so nothing of a previous merchant is shown. */
function Dashboard({ path, session }: { path: string; session: number }) {
  // Read again at each change of the session (a refresh, another merchant), as the screens keyed by it are.
  const context = useMemo(() => ({ session }), [session]);
  const [{ data, error }] = useQuery({ query: ME, context });
  const [{ data: env }] = useQuery({ query: ENVIRONMENT, context });
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

  if (error && !data) return <ErrorText error={error} />;
  if (!data) return <p role="status">Loading…</p>;
  const me = data.me;
  if (me.enrolmentOnly) return <EnrolmentOnly />;
  return (
    <MeContext.Provider value={me}>
      <Shell me={me} environment={env?.environment ?? null} path={path} session={session} menuOpen={menuOpen} setMenuOpen={setMenuOpen} />
    </MeContext.Provider>
  );
}

function Shell({
  me,
  environment,
  path,
  session,
  menuOpen,
  setMenuOpen,
}: {
  me: Me;
  environment: string | null;
  path: string;
  session: number;
  menuOpen: boolean;
  setMenuOpen: (open: boolean | ((open: boolean) => boolean)) => void;
}) {
  const can = useCan();
  const sandbox = environment === 'SANDBOX';
  const [, section, id] = path.split('/');
  // /payouts/destinations is a page of its own in the navigation; /payouts/po_… is a payout, under Payouts.
  const current = section === 'payouts' && id === 'destinations' ? 'payout-destinations' : section || 'overview';
  const sections = SECTIONS.filter((s) => (sandbox || !s.sandboxOnly) && (!s.permission || can(s.permission)));
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
      case 'disputes':
        return id ? <DisputeDetail key={`${id}-${session}`} id={decodeURIComponent(id)} /> : <Disputes key={session} />;
      case 'balance':
        return <Balance key={session} sandbox={sandbox} />;
      case 'payout-schedule':
        return <PayoutSchedule key={session} />;
      case 'payment-links':
        return <PaymentLinks key={session} />;
      case 'payouts':
        if (id === 'destinations') return <PayoutDestinations key={session} />;
        return id ? <PayoutDetail key={`${id}-${session}`} id={decodeURIComponent(id)} /> : <Payouts key={session} />;
      case 'team':
        return <Team key={session} />;
      case 'api-keys':
      case 'credentials': // the page that showed the client ID before API keys
        return <ApiKeys key={session} />;
      case 'audit-log':
        return <AuditLog key={session} />;
      case 'profile':
        return <Profile key={session} />;
      case 'sandbox':
        return sandbox ? <Sandbox key={session} /> : <p>Sandbox tools exist only in the sandbox.</p>;
      default:
        // The landing page ('/', '/overview' and anything unknown): the balances, or for a role that may not read them
        // (support), the transactions.
        if (can('balances:read')) return <Overview key={session} />;
        return can('transactions:read') ? <Transactions key={session} sandbox={sandbox} /> : <Profile key={session} />;
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
            <MerchantSwitcher me={me} />
            {environment && <span className={`env env-${environment.toLowerCase()}`}>{environment.toLowerCase()}</span>}
          </div>
        </div>
        <div className="sidebar-body" id="main-menu">
          <nav aria-label="Main">
            {sections.map((s) => (
              <Link key={s.to} to={s.to} current={current === s.section}>
                {s.label}
              </Link>
            ))}
          </nav>
          <div className="who">
            {me.user && (
              <p className="muted">
                {me.user.email}
                <span className="sub">{words(me.role)}</span>
              </p>
            )}
            <button type="button" className="secondary sign-out" onClick={() => void signOut()}>
              Sign out
            </button>
          </div>
        </div>
      </aside>
      {menuOpen && <div className="scrim" aria-hidden="true" onClick={() => setMenuOpen(false)} />}
      <main>
        {me.user && !me.user.emailVerified && <VerifyBanner email={me.user.email} />}
        {page}
      </main>
    </div>
  );
}

/** The merchant's name; a choice of merchant when the member belongs to more than one (a new session there). */
function MerchantSwitcher({ me }: { me: Me }) {
  const [error, setError] = useState<unknown>(null);
  if (me.memberships.length < 2)
    return (
      <strong title={me.merchantName} data-testid="merchant-name">
        {me.merchantName}
      </strong>
    );
  async function choose(merchantId: string) {
    setError(null);
    try {
      await switchMerchant(merchantId);
      navigate('/');
    } catch (err) {
      setError(err);
    }
  }
  return (
    <>
      <select aria-label="Merchant" className="switcher-select" value={me.merchantId} onChange={(e) => void choose(e.target.value)}>
        {me.memberships.map((m) => (
          <option key={m.merchantId} value={m.merchantId}>
            {m.merchantName}
          </option>
        ))}
      </select>
      <ErrorText error={error} />
    </>
  );
}

/** Until the member confirms their email: a banner, with a new link on request. */
function VerifyBanner({ email }: { email: string }) {
  const [said, setSaid] = useState('');
  const [error, setError] = useState<unknown>(null);
  async function resend() {
    setError(null);
    try {
      await resendVerification();
      setSaid(`A new link is on its way to ${email}.`);
    } catch (err) {
      setError(err);
    }
  }
  return (
    <div className="banner" role="region" aria-label="Confirm your email">
      <p>
        Confirm your email: we sent a link to <strong>{email}</strong>. {said}
      </p>
      <button type="button" className="secondary" onClick={() => void resend()}>
        Resend the link
      </button>
      <ErrorText error={error} />
    </div>
  );
}
