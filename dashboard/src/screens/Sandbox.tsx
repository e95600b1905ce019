import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import type { CombinedError } from 'urql';
import { useMutation, useQuery, useSubscription } from '../data';
import { graphql } from '../generated';
import type { ChannelType, RampType, SandboxCountriesQuery, SandboxCustomersQuery, SandboxTransactionFieldsFragment } from '../generated/graphql';
import { inCurrency } from '../money';
import { BASE } from '../router';
import { ErrorText, Link, StatusBadge, newReference, words } from '../ui';
import { BALANCES } from './ledger.gql';

const ENROLL = graphql(`
  mutation EnrollCustomer($input: EnrollCustomerInput!) {
    enrollCustomer(input: $input) {
      customerUuid
      firstName
      lastName
    }
  }
`);
const SUBMIT_KYC = graphql(`
  mutation SubmitKyc($u: String!, $input: SubmitKycInput!) {
    submitKyc(customerUuid: $u, input: $input) {
      kycStatus
    }
  }
`);
graphql(`
  fragment PaymentFields on Transaction {
    reference
    externalReference
    status
    failureReason
  }
`);
const PAYMENT_CHANGED = graphql(`
  subscription PaymentChanged($r: String) {
    transactionStatusChanged(reference: $r) {
      ...PaymentFields
    }
  }
`);
const PAY = graphql(`
  mutation InitiatePayment($input: InitiatePaymentInput!) {
    initiatePayment(input: $input) {
      ...PaymentFields
      nextAction {
        url
      }
    }
  }
`);
graphql(`
  fragment SandboxTransactionFields on Transaction {
    reference
    externalReference
    status
    failureReason
    amount
    currency
    sourceAmount
    sourceCurrency
    destinationAmount
    destinationCurrency
  }
`);
const COLLECT = graphql(`
  mutation SandboxCollect($input: InitiateCollectionInput!) {
    initiateCollection(input: $input) {
      ...SandboxTransactionFields
    }
  }
`);
const TRANSFER = graphql(`
  mutation SandboxTransfer($input: InitiateTransferInput!) {
    initiateTransfer(input: $input) {
      ...SandboxTransactionFields
    }
  }
`);
const KYC_CHANGED = graphql(`
  subscription SandboxKycChanged {
    kycStatusChanged {
      customerUuid
      kycStatus
    }
  }
`);
const TOP_UP = graphql(`
  mutation TopUpBalance($currency: String!, $amount: Decimal!) {
    topUpBalance(currency: $currency, amount: $amount) {
      ...BalanceFields
    }
  }
`);
const COUNTRIES = graphql(`
  query SandboxCountries {
    countries {
      countryCode
      name
      currency
      dialCode
      exampleMobileNumber
    }
  }
`);
const CHANNELS = graphql(`
  query SandboxChannels($country: String!, $ramp: RampType!) {
    channels(countryCode: $country, rampType: $ramp) {
      channelId
      channelType
      currency
      minAmount
      status
    }
  }
`);
const NETWORKS = graphql(`
  query SandboxNetworks($country: String!, $type: ChannelType!) {
    networks(countryCode: $country, channel: $type) {
      networkId
      name
    }
  }
`);
const CUSTOMERS = graphql(`
  query SandboxCustomers {
    customers(first: 100) {
      edges {
        node {
          customerUuid
          firstName
          lastName
          kycStatus
        }
      }
    }
  }
`);

/** The sandbox's test cards (docs/api.md → Card payments and 3-D Secure): what each one does. */
const TEST_CARDS = [
  { number: '4242424242424242', label: 'Succeeds at once (4242…)' },
  { number: '4000002500003155', label: 'Needs 3-D Secure (…3155)' },
  { number: '4000000000009995', label: 'Declined, insufficient funds (…9995)' },
];
function EnrollCustomer({ onDone }: { onDone: () => void }) {
  const [{ data, error }, enroll] = useMutation(ENROLL);
  const done = data?.enrollCustomer;
  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const res = await enroll({
      input: {
        customerId: newReference('test-customer'),
        firstName: f.get('firstName') as string,
        lastName: f.get('lastName') as string,
        email: f.get('email') as string,
        phoneNumber: '712345678',
        dialCode: '+254',
        countryCode: 'KE',
      },
    });
    if (res.data) onDone();
  }
  return (
    <form onSubmit={submit} aria-labelledby="enroll-title" className="card">
      <h3 id="enroll-title">Enroll a test customer (Kenya)</h3>
      <label>
        First name
        <input name="firstName" defaultValue="Amina" required />
      </label>
      <label>
        Last name
        <input name="lastName" defaultValue="Otieno" required />
      </label>
      <label>
        Email
        <input name="email" type="email" defaultValue="amina@example.com" required />
      </label>
      <button type="submit">Enroll</button>
      {done && (
        <p role="status">
          Enrolled <Link to={`/customers/${done.customerUuid}`}>{`${done.firstName} ${done.lastName}`}</Link>.
        </p>
      )}
      <ErrorText error={error} />
    </form>
  );
}

type SandboxCustomer = SandboxCustomersQuery['customers']['edges'][number]['node'];
type Made = SandboxTransactionFieldsFragment;

type SandboxCountry = SandboxCountriesQuery['countries'][number];

/**
 * A bank account number the sandbox names a holder for (its table: the last digit picks the name; …0000 does not
 * exist, …9999 does not answer). Ten digits, as Nigeria's NUBAN has them.
 */
const EXAMPLE_BANK_ACCOUNT = '0123456781';

/** What a sandbox form sends for its route: the country, the channel and network (by their ids), the account. */
interface ChosenRoute {
  country: SandboxCountry;
  channelId: string;
  channelType: ChannelType;
  networkId: string;
  accountNumber: string;
}

/**
 * Where the money comes from (a collection: DEPOSIT) or goes to (a transfer: WITHDRAWAL): every country the
 * service serves, the methods its active channels offer there, and their banks or networks by name, read from
 * the reference data (countries, channels, networks), so the sandbox tools cover every route the API takes.
 */
function RouteFields({ ramp, countries, onChange }: { ramp: RampType; countries: SandboxCountry[]; onChange: (route: ChosenRoute | null) => void }) {
  const [countryCode, setCountryCode] = useState(countries.some((c) => c.countryCode === 'NG') ? 'NG' : (countries[0]?.countryCode ?? ''));
  const [channelType, setChannelType] = useState<ChannelType | null>(null);
  const [networkId, setNetworkId] = useState('');
  const [accountNumber, setAccountNumber] = useState('');
  const country = countries.find((c) => c.countryCode === countryCode);
  const [channels] = useQuery({ query: CHANNELS, variables: { country: countryCode, ramp }, pause: !country });
  const offered = (channels.data?.channels ?? []).filter((c) => c.status === 'ACTIVE');
  const channel = offered.find((c) => c.channelType === channelType) ?? offered[0];
  const [networks] = useQuery({ query: NETWORKS, variables: { country: countryCode, type: channel?.channelType ?? 'BANK' }, pause: !channel });
  const choices = channel ? (networks.data?.networks ?? []) : [];
  const network = choices.find((n) => n.networkId === networkId) ?? choices[0];
  const example = channel?.channelType === 'MOMO' ? (country?.exampleMobileNumber ?? '') : EXAMPLE_BANK_ACCOUNT;
  const account = accountNumber || example;
  useEffect(() => {
    onChange(
      country && channel && network
        ? { country, channelId: channel.channelId, channelType: channel.channelType, networkId: network.networkId, accountNumber: account }
        : null,
    );
  }, [country, channel, network, account, onChange]);
  const momo = channel?.channelType === 'MOMO';
  return (
    <>
      <label>
        Country
        <select
          name="country"
          value={countryCode}
          onChange={(e) => {
            setCountryCode(e.target.value);
            setNetworkId('');
            setAccountNumber('');
          }}
        >
          {countries.map((c) => (
            <option key={c.countryCode} value={c.countryCode}>
              {c.name} ({c.currency})
            </option>
          ))}
        </select>
      </label>
      <label>
        Method
        <select
          name="method"
          value={channel?.channelType ?? ''}
          onChange={(e) => {
            setChannelType(e.target.value as ChannelType);
            setNetworkId('');
            setAccountNumber('');
          }}
        >
          {offered.map((c) => (
            <option key={c.channelId} value={c.channelType}>
              {c.channelType === 'MOMO' ? 'Mobile money' : 'Bank transfer'}
            </option>
          ))}
        </select>
      </label>
      {channels.data && offered.length === 0 && <p className="empty">No method is open in this country for this direction.</p>}
      <label>
        {momo ? 'Network' : 'Bank'}
        <select name="network" value={network?.networkId ?? ''} onChange={(e) => setNetworkId(e.target.value)}>
          {choices.map((n) => (
            <option key={n.networkId} value={n.networkId}>
              {n.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        {momo ? `Wallet (phone number, ${country?.dialCode ?? ''})` : 'Account number'}
        <input name="accountNumber" value={account} onChange={(e) => setAccountNumber(e.target.value)} required inputMode="numeric" spellCheck={false} />
      </label>
    </>
  );
}

/** A transaction just made here: a link to it, its amount and its status. */
function MadeLine({ made }: { made: Made | null }) {
  if (!made) return null;
  const amount = made.amount ? inCurrency(made.amount, made.currency) : inCurrency(made.sourceAmount, made.sourceCurrency);
  return (
    <p role="status" className="made">
      Created <Link to={`/transactions/${encodeURIComponent(made.reference)}`}>{made.externalReference}</Link> · {amount} <StatusBadge status={made.status} />
      {made.failureReason && <span className="muted"> · {words(made.failureReason)}</span>}
    </p>
  );
}

/** The customers a collection or a transfer may name: KYC-approved ones. */
function ApprovedCustomer({ customers }: { customers: SandboxCustomer[] }) {
  return (
    <label>
      Customer (KYC approved)
      <select name="customer" required>
        {customers.map((c) => (
          <option key={c.customerUuid} value={c.customerUuid}>
            {c.firstName} {c.lastName}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A sandbox form that makes one transaction: its busy state, its error, and what it made (its mutation's state). */
function InitiationForm({
  id,
  title,
  customers,
  action,
  busyLabel,
  making,
  make,
  ready = true,
  children,
}: {
  id: string;
  title: string;
  customers: SandboxCustomer[];
  action: string;
  busyLabel: string;
  /** Whether what the form needs besides its fields is known (a route read from the reference data). */
  ready?: boolean;
  making: { fetching: boolean; error?: CombinedError; made?: Made };
  make: (f: FormData) => void;
  children: ReactNode;
}) {
  const busy = making.fetching;
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    make(new FormData(e.currentTarget));
  }
  return (
    <form onSubmit={submit} aria-labelledby={id} className="card">
      <h3 id={id}>{title}</h3>
      {customers.length === 0 ? (
        <p className="empty">No KYC-approved customer yet: enroll one and submit KYC first.</p>
      ) : (
        <>
          <ApprovedCustomer customers={customers} />
          {children}
          <button type="submit" disabled={busy || !ready}>
            {busy ? busyLabel : action}
          </button>
        </>
      )}
      <MadeLine made={making.made ?? null} />
      <ErrorText error={making.error} showCode />
    </form>
  );
}

/** A collection from a customer, in any country, by mobile money (a payment prompt) or bank transfer (a virtual account): initiateCollection. */
function TestCollection({ customers, countries }: { customers: SandboxCustomer[]; countries: SandboxCountry[] }) {
  const [{ fetching, error, data }, collect] = useMutation(COLLECT);
  const [route, setRoute] = useState<ChosenRoute | null>(null);
  function make(f: FormData) {
    if (!route) return;
    void collect({
      input: {
        customerUuid: String(f.get('customer')),
        amount: String(f.get('amount')).trim(),
        currency: route.country.currency,
        countryCode: route.country.countryCode,
        dialCode: route.country.dialCode,
        channelId: route.channelId,
        networkId: route.networkId,
        accountType: route.channelType,
        accountNumber: route.accountNumber.trim(),
        reason: String(f.get('reason')).trim(),
        reference: newReference('test-collection'),
      },
    });
  }
  return (
    <InitiationForm
      id="collect-title"
      title="Test collection"
      customers={customers}
      action="Collect"
      busyLabel="Collecting…"
      making={{ fetching, error, made: data?.initiateCollection }}
      ready={route !== null}
      make={make}
    >
      <RouteFields ramp={'DEPOSIT'} countries={countries} onChange={setRoute} />
      <label>
        Amount{route ? ` (${route.country.currency})` : ''}
        <input name="amount" inputMode="decimal" defaultValue="1500" required spellCheck={false} />
      </label>
      <label>
        Reason
        <input name="reason" defaultValue="Invoice 42" required maxLength={255} />
      </label>
    </InitiationForm>
  );
}

/** A transfer from one of your balances to a wallet or bank account in any country, converted at the current rate (initiateTransfer). */
function TestTransfer({ customers, countries, currencies }: { customers: SandboxCustomer[]; countries: SandboxCountry[]; currencies: string[] }) {
  const [{ fetching, error, data }, transfer] = useMutation(TRANSFER);
  const [route, setRoute] = useState<ChosenRoute | null>(null);
  function make(f: FormData) {
    if (!route) return;
    void transfer({
      input: {
        customerUuid: String(f.get('customer')),
        amount: String(f.get('amount')).trim(),
        sourceCurrency: String(f.get('sourceCurrency')),
        destinationCurrency: route.country.currency,
        countryCode: route.country.countryCode,
        dialCode: route.country.dialCode,
        channelId: route.channelId,
        networkId: route.networkId,
        accountType: route.channelType,
        accountNumber: route.accountNumber.trim(),
        accountName: String(f.get('accountName')).trim(),
        reason: String(f.get('reason')).trim(),
        reference: newReference('test-transfer'),
      },
    });
  }
  return (
    <InitiationForm
      id="transfer-title"
      title="Test transfer"
      customers={customers}
      action="Send transfer"
      busyLabel="Sending…"
      making={{ fetching, error, made: data?.initiateTransfer }}
      ready={route !== null}
      make={make}
    >
      <label>
        From your balance in
        <select name="sourceCurrency" defaultValue={currencies.includes('USD') ? 'USD' : currencies[0]}>
          {currencies.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </select>
      </label>
      <label>
        Amount (in that currency)
        <input name="amount" inputMode="decimal" defaultValue="100.00" required spellCheck={false} />
      </label>
      <RouteFields ramp={'WITHDRAWAL'} countries={countries} onChange={setRoute} />
      <label>
        Beneficiary name
        <input name="accountName" defaultValue="Chinedu Emeka Nwosu" required maxLength={100} />
      </label>
      <label>
        Reason
        <input name="reason" defaultValue="Supplier payout" required maxLength={255} />
      </label>
    </InitiationForm>
  );
}

function SubmitKyc({ customers }: { customers: SandboxCustomer[] }) {
  const [{ data, error }, submitKyc] = useMutation(SUBMIT_KYC);
  const status = data ? `KYC submitted: ${words(data.submitKyc.kycStatus)}. The sandbox decides it in a moment.` : '';
  const waiting = customers.filter((c) => c.kycStatus === 'PENDING_KYC' || c.kycStatus === 'REJECTED');
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    void submitKyc({
      u: f.get('customer') as string,
      input: {
        idType: 'NATIONAL_ID',
        idNumber: f.get('outcome') === 'reject' ? 'REJECT-0001' : 'A12345678',
        idCountry: 'KE',
        dateOfBirth: '1990-04-12',
        address: { line1: '12 Moi Avenue', city: 'Nairobi', countryCode: 'KE' },
      },
    });
  }
  return (
    <form onSubmit={submit} aria-labelledby="kyc-title" className="card">
      <h3 id="kyc-title">Submit KYC</h3>
      {waiting.length === 0 ? (
        <p className="empty">No customer is waiting for KYC. Enroll one first.</p>
      ) : (
        <>
          <label>
            Customer
            <select name="customer">
              {waiting.map((c) => (
                <option key={c.customerUuid} value={c.customerUuid}>
                  {c.firstName} {c.lastName}
                </option>
              ))}
            </select>
          </label>
          <label>
            Sandbox outcome
            <select name="outcome">
              <option value="approve">Approved</option>
              <option value="reject">Rejected (an id number starting REJECT)</option>
            </select>
          </label>
          <button type="submit">Submit KYC</button>
        </>
      )}
      <p role="status">{status}</p>
      <ErrorText error={error} />
    </form>
  );
}

function TestCardPayment() {
  const [{ data, error }, pay] = useMutation(PAY);
  const made = data?.initiatePayment;
  // Live: a payment awaiting 3-D Secure is decided in the cardholder's tab; its status changes here.
  const [{ data: heard }] = useSubscription({
    query: PAYMENT_CHANGED,
    variables: { r: made?.reference ?? null },
    pause: made?.status !== 'REQUIRES_ACTION',
  });
  const decided = heard && heard.transactionStatusChanged.reference === made?.reference ? heard.transactionStatusChanged : null;
  const payment = made && (decided ? { ...made, ...decided, nextAction: null } : made);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const res = await pay({
      input: {
        reference: newReference('test-payment'),
        amount: String(f.get('amount')),
        currency: 'NGN',
        // Read from the form and sent: never kept by the dashboard.
        card: { number: String(f.get('card')), expMonth: 12, expYear: new Date().getFullYear() + 2, cvc: '123' },
        redirectUrl: `${location.origin}${BASE}/payments/return`,
      },
    });
    // The cardholder's page opens in its own tab: this one keeps the session (it is in memory only).
    const nextAction = res.data?.initiatePayment.nextAction;
    if (nextAction) window.open(nextAction.url, '_blank', 'noopener');
  }
  return (
    <form onSubmit={submit} aria-labelledby="pay-title" className="card">
      <h3 id="pay-title">Test card payment</h3>
      <label>
        Amount (NGN)
        <input name="amount" inputMode="decimal" defaultValue="2500.00" required />
      </label>
      <label>
        Test card
        <select name="card">
          {TEST_CARDS.map((c) => (
            <option key={c.number} value={c.number}>
              {c.label}
            </option>
          ))}
        </select>
      </label>
      <button type="submit">Pay</button>
      <div aria-live="polite">
        {payment && (
          <p>
            <Link to={`/transactions/${payment.reference}`}>{payment.externalReference}</Link> <StatusBadge status={payment.status} />
            {payment.failureReason && <span className="muted"> · {words(payment.failureReason)}</span>}
            {payment.nextAction && (
              <>
                {' '}
                <a href={payment.nextAction.url} target="_blank" rel="noopener noreferrer">
                  Open the 3-D Secure page
                </a>
              </>
            )}
          </p>
        )}
      </div>
      <ErrorText error={error} />
    </form>
  );
}

/** Test money: adds to the available balance of one currency (topUpBalance; sandbox only). */
function TopUp({ currencies }: { currencies: string[] }) {
  const [{ data, fetching: busy, error }, topUp] = useMutation(TOP_UP);
  const balance = data?.topUpBalance;
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    void topUp({ currency: f.get('currency') as string, amount: String(f.get('amount')).trim() });
  }
  return (
    <form onSubmit={submit} aria-labelledby="topup-title" className="card">
      <h3 id="topup-title">Top up the balance</h3>
      <label>
        Currency
        <select name="currency" defaultValue={currencies.includes('NGN') ? 'NGN' : currencies[0]}>
          {currencies.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </select>
      </label>
      <label>
        Amount
        <input name="amount" inputMode="decimal" defaultValue="10000" required spellCheck={false} />
      </label>
      <button type="submit" disabled={busy || currencies.length === 0}>
        Top up
      </button>
      <p role="status" data-testid="topup-result">
        {balance && (
          <>
            New {balance.currency} balance: <strong>{inCurrency(balance.available, balance.currency)}</strong> available
          </>
        )}
      </p>
      <ErrorText error={error} showCode />
    </form>
  );
}

export function Sandbox() {
  const [customers, reloadCustomers] = useQuery({ query: CUSTOMERS });
  const [balances] = useQuery({ query: BALANCES });
  // A KYC decision (the sandbox makes it in a moment) changes who may collect and receive.
  const [{ data: decided }] = useSubscription({ query: KYC_CHANGED });
  useEffect(() => {
    if (decided) reloadCustomers();
  }, [decided, reloadCustomers]);
  const all = customers.data?.customers.edges.map((e) => e.node) ?? [];
  const approved = all.filter((c) => c.kycStatus === 'APPROVED');
  const [countriesRead] = useQuery({ query: COUNTRIES });
  const countries = countriesRead.data?.countries ?? [];
  const currencies = balances.data?.balances.map((b) => b.currency) ?? [];
  return (
    <section aria-labelledby="sb-title">
      <h2 id="sb-title">Sandbox tools</h2>
      <p className="muted">Test data only: these tools do not exist in production. Simulate a transaction’s outcome from its page.</p>
      <div className="grid">
        <EnrollCustomer onDone={reloadCustomers} />
        <SubmitKyc customers={all} />
        <TestCollection customers={approved} countries={countries} />
        {/* Made anew once the currencies are read: the select's default (USD) applies only when it is made. */}
        <TestTransfer key={balances.data ? 'transfer-ready' : 'transfer-loading'} customers={approved} countries={countries} currencies={currencies} />
        <TestCardPayment />
        {/* Made anew once the currencies are read: the select's default (NGN) applies only when it is made. */}
        <TopUp key={balances.data ? 'ready' : 'loading'} currencies={currencies} />
      </div>
    </section>
  );
}

/** Where the 3-D Secure page sends the cardholder: its own tab, no session; the outcome is in the query. */
export function PaymentReturn() {
  const params = new URLSearchParams(location.search);
  return (
    <main className="signin">
      <h1>Payment {words(params.get('status'))}</h1>
      <p>
        Your reference: <code>{params.get('external_reference')}</code>
      </p>
      <p className="muted">You can close this tab: the dashboard shows the payment’s status.</p>
    </main>
  );
}
