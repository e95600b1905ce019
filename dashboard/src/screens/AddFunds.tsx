import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useCan } from '../access';
import { useMutation, useQuery, useSubscription } from '../data';
import { graphql } from '../generated';
import type { FundingFieldsFragment } from '../generated/graphql';
import { inCurrency, isZero } from '../money';
import { ApiError, toApiError } from '../session';
import { CopyButton, ErrorText, StatusBadge, newReference, when, words } from '../ui';
import type { BalanceRow } from './ledger.gql';

graphql(`
  fragment FundingFields on Transaction {
    reference
    externalReference
    status
    failureReason
    amount
    currency
    fee
    expiresAt
    bankInfo {
      accountName
      accountNumber
      bankName
      localCode
    }
  }
`);

const FUND = graphql(`
  mutation FundBalance($input: FundBalanceInput!) {
    fundBalance(input: $input) {
      ...FundingFields
    }
  }
`);

/** Sandbox only: the transfer into the funding's account arrives (the service's simulateTransaction). */
const ARRIVE = graphql(`
  mutation SimulateFundingArrival($r: String!) {
    simulateTransaction(reference: $r, outcome: SUCCESSFUL) {
      ...FundingFields
    }
  }
`);

/** The funding's final status, when it comes (the money arrives, or the deadline passes). */
const FUNDING_DECIDED = graphql(`
  subscription FundingDecided($r: String) {
    transactionStatusChanged(reference: $r, statuses: [SUCCESSFUL, FAILED, EXPIRED]) {
      ...FundingFields
    }
  }
`);

/** Every currency the service covers: a merchant may fund one it holds no balance in yet. */
const CURRENCIES = graphql(`
  query FundingCurrencies {
    countries {
      currency
    }
  }
`);

type Funding = FundingFieldsFragment;
const FIELDS = ['currency', 'amount', 'reference'] as const;
type FieldName = (typeof FIELDS)[number];
type Issues = Partial<Record<FieldName, string>>;

/** A plain decimal, as the API takes one; anything else is refused here, beside the field, before it is sent. */
const DECIMAL = /^\d+(\.\d+)?$/;

/** The API's field details, by the form's field they name (GraphQL names them as the input does: `amount`, or `input.amount`). */
function issuesOf(error: unknown): Issues {
  const api = toApiError(error);
  const issues: Issues = {};
  if (!(api instanceof ApiError)) return issues;
  for (const d of api.details) {
    const field = FIELDS.find((f) => d.field === f || d.field.endsWith(`.${f}`));
    if (field && !issues[field]) issues[field] = d.issue;
  }
  return issues;
}

/** How far away a deadline is, in words in the browser's language ("in 24 hours", "in 3 days"). */
function fromNow(iso: string): string {
  const minutes = Math.round((new Date(iso).getTime() - Date.now()) / 60_000);
  if (minutes <= 0) return 'the deadline has passed';
  const say = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  if (minutes < 90) return say.format(minutes, 'minute');
  const hours = Math.round(minutes / 60);
  return hours <= 48 ? say.format(hours, 'hour') : say.format(Math.round(hours / 24), 'day');
}

/** A control and its label, with the API's issue beside it (the control's description, and `aria-invalid`). */
function Field({ id, label, issue, children }: { id: string; label: string; issue?: string; children: (props: FieldProps) => ReactNode }) {
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <label>
        {label}
        {children({ id, 'aria-invalid': issue ? true : undefined, 'aria-describedby': issue ? errorId : undefined })}
      </label>
      {issue && (
        <p className="field-error" id={errorId} data-testid={errorId}>
          {issue}
        </p>
      )}
    </div>
  );
}
interface FieldProps {
  id: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

/** The form: a currency, an amount and a reference of the merchant's own (a new one offered), sent as fundBalance. */
function FundingForm({
  currencies,
  balances,
  onCreated,
  onCancel,
}: {
  currencies: string[];
  balances: BalanceRow[];
  onCreated: (f: Funding) => void;
  onCancel: () => void;
}) {
  const [picked, setPicked] = useState('');
  // The currency chosen, or (until one is, and while the list is still being read) NGN or the first one.
  const currency = currencies.includes(picked) ? picked : currencies.includes('NGN') ? 'NGN' : (currencies[0] ?? '');
  const [reference] = useState(() => newReference('funding'));
  const [{ fetching: busy, error }, fund] = useMutation(FUND);
  /** What this form found wrong before sending, by field. */
  const [checked, setChecked] = useState<Issues>({});
  const first = useRef<HTMLSelectElement>(null);
  // Opened by the "Add funds" button: the keyboard goes on from the form's first field.
  useEffect(() => first.current?.focus(), []);

  // What was found here before sending, or else what the service refused in the last request sent.
  const issues: Issues = Object.keys(checked).length > 0 ? checked : issuesOf(error);
  const named = Object.keys(issues).length > 0;
  const available = balances.find((b) => b.currency === currency)?.available;

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    const amount = String(f.get('amount')).trim();
    const found: Issues = DECIMAL.test(amount) ? {} : { amount: 'must be a number such as 250000.00 (digits, and a dot before the decimals)' };
    setChecked(found);
    const focusFirst = (wrong: Issues) => {
      const name = FIELDS.find((n) => wrong[n]);
      if (name) (form.elements.namedItem(name) as HTMLElement | null)?.focus();
    };
    if (found.amount) return focusFirst(found);
    const res = await fund({ input: { currency, amount, reference: String(f.get('reference')).trim() } });
    if (res.data) onCreated(res.data.fundBalance);
    else focusFirst(issuesOf(res.error));
  }

  return (
    <form className="card add-funds" onSubmit={(e) => void submit(e)} aria-labelledby="fund-title">
      <h3 id="fund-title">Add funds</h3>
      <p className="muted">You get an account to pay into by bank transfer, opened for this funding in your name.</p>
      <div className="filters">
        <Field id="fund-currency" label="Currency" issue={issues.currency}>
          {(props) => (
            <select ref={first} name="currency" value={currency} onChange={(e) => setPicked(e.target.value)} required {...props}>
              {currencies.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
          )}
        </Field>
        <Field id="fund-amount" label={`Amount${currency ? ` (${currency})` : ''}`} issue={issues.amount}>
          {(props) => <input name="amount" inputMode="decimal" required placeholder="250000.00" autoComplete="off" spellCheck={false} {...props} />}
        </Field>
        <Field id="fund-reference" label="Your reference" issue={issues.reference}>
          {(props) => <input name="reference" defaultValue={reference} required maxLength={100} autoComplete="off" spellCheck={false} {...props} />}
        </Field>
      </div>
      {available !== undefined && (
        <p className="muted">
          Available now: <span data-testid="fund-available">{inCurrency(available, currency)}</span>
        </p>
      )}
      <div className="actions">
        <button type="submit" disabled={busy || !currency}>
          {busy ? 'Opening an account…' : 'Get account details'}
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
      {/* Refusals that name a field are shown beside it; any other (a route closed, a connection lost) here. */}
      {!named && <ErrorText error={error} showCode />}
    </form>
  );
}

/**
 * The account to pay into: the bank, the number (to copy), the name, the exact amount and the deadline. It follows the
 * funding until it is decided (the money arrives: the balances are read again); in the sandbox, the transfer can be
 * made to arrive now.
 */
function FundingAccount({
  made,
  balances,
  sandbox,
  onCredited,
  onDone,
}: {
  made: Funding;
  balances: BalanceRow[];
  sandbox: boolean;
  onCredited: () => void;
  onDone: () => void;
}) {
  const can = useCan();
  const [funding, setFunding] = useState(made);
  const [arrival, arrive] = useMutation(ARRIVE);
  const [{ data: heard }] = useSubscription({ query: FUNDING_DECIDED, variables: { r: made.reference }, pause: funding.status !== 'PROCESSING' });
  useEffect(() => {
    if (heard && heard.transactionStatusChanged.reference === made.reference) setFunding(heard.transactionStatusChanged);
  }, [heard, made.reference]);
  // Credited: the balances are read again (once, whichever of the simulation's answer and the event comes first).
  const credited = funding.status === 'SUCCESSFUL';
  // (`onCredited` is left out of the dependencies on purpose: once per funding credited, not per render of the page.)
  useEffect(() => {
    if (credited) onCredited();
  }, [credited]);

  // The form that had the keyboard is gone: it goes on from this panel's heading (and, once its button is gone, from Done).
  const title = useRef<HTMLHeadingElement>(null);
  const done = useRef<HTMLButtonElement>(null);
  useEffect(() => title.current?.focus(), []);

  async function simulate() {
    const res = await arrive({ r: funding.reference });
    if (!res.data) return;
    setFunding(res.data.simulateTransaction);
    done.current?.focus();
  }

  const bank = funding.bankInfo;
  const amount = funding.amount ?? '';
  const currency = funding.currency ?? '';
  const available = balances.find((b) => b.currency === currency)?.available;
  return (
    <section className="card add-funds funding" aria-labelledby="funding-title" data-reference={funding.reference}>
      <h3 id="funding-title" ref={title} tabIndex={-1}>
        {credited ? `${inCurrency(amount, currency)} received` : `Pay ${inCurrency(amount, currency)} into this account`}{' '}
        <StatusBadge status={funding.status} />
      </h3>
      {bank && (
        <dl className="facts">
          <div>
            <dt>Bank</dt>
            <dd data-testid="funding-bank">
              {bank.bankName}
              {bank.localCode && <span className="sub">Bank code {bank.localCode}</span>}
            </dd>
          </div>
          <div>
            <dt>Account number</dt>
            <dd className="copyable">
              <code data-testid="funding-account-number">{bank.accountNumber}</code>
              <CopyButton value={bank.accountNumber} name="Copy the account number" />
            </dd>
          </div>
          <div>
            <dt>Account name</dt>
            <dd data-testid="funding-account-name">{bank.accountName}</dd>
          </div>
          <div>
            <dt>Amount, exactly</dt>
            <dd className="copyable">
              <strong data-testid="funding-amount">{inCurrency(amount, currency)}</strong>
              <CopyButton value={amount} name="Copy the amount" />
            </dd>
          </div>
          <div>
            <dt>Pay before</dt>
            <dd>
              {funding.expiresAt ? (
                <>
                  <time dateTime={funding.expiresAt} data-testid="funding-deadline">
                    {when(funding.expiresAt)}
                  </time>
                  <span className="sub" data-testid="funding-deadline-words">
                    {fromNow(funding.expiresAt)}
                  </span>
                </>
              ) : (
                '—'
              )}
            </dd>
          </div>
          <div>
            <dt>Your reference</dt>
            <dd data-testid="funding-reference">{funding.externalReference}</dd>
          </div>
        </dl>
      )}
      <p className="muted">
        Pay exactly this amount by bank transfer before the deadline. When it arrives it is credited to your <strong>Available</strong> balance, with{' '}
        {!funding.fee || isZero(funding.fee) ? <strong>no fee</strong> : `a fee of ${inCurrency(funding.fee, currency)}`}. The account is for this funding only.
      </p>
      <p role="status">
        {credited && 'Received and credited to your available balance. '}
        {funding.status === 'EXPIRED' && 'Nothing arrived before the deadline: nothing was credited. '}
        {funding.status === 'FAILED' && `The funding failed${funding.failureReason ? ` (${words(funding.failureReason)})` : ''}. `}
        {available !== undefined && (
          <>
            Available now: <strong data-testid="funding-available">{inCurrency(available, currency)}</strong>
          </>
        )}
      </p>
      <div className="actions">
        {sandbox && can('payments:create') && funding.status === 'PROCESSING' && (
          <button type="button" onClick={() => void simulate()} disabled={arrival.fetching}>
            {arrival.fetching ? 'Sending…' : 'Simulate the transfer arriving'}
          </button>
        )}
        <button ref={done} type="button" className="secondary" onClick={onDone}>
          Done
        </button>
      </div>
      <ErrorText error={arrival.error} showCode />
    </section>
  );
}

/**
 * Add funds (issue 41): the merchant funds its own balance by bank transfer. The form opens an account (fundBalance);
 * then the account to pay into is shown until the person is done with it.
 */
export function AddFunds({
  id,
  balances,
  sandbox,
  onCredited,
  onClose,
}: {
  id: string;
  balances: BalanceRow[];
  sandbox: boolean;
  /** The money arrived: the balances are read again. */
  onCredited: () => void;
  onClose: () => void;
}) {
  const [{ data }] = useQuery({ query: CURRENCIES });
  const [made, setMade] = useState<Funding | null>(null);
  const currencies = [...new Set([...balances.map((b) => b.currency), ...(data?.countries ?? []).map((c) => c.currency)])].sort();
  return (
    <div id={id}>
      {made ? (
        <FundingAccount made={made} balances={balances} sandbox={sandbox} onCredited={onCredited} onDone={onClose} />
      ) : (
        <FundingForm currencies={currencies} balances={balances} onCreated={setMade} onCancel={onClose} />
      )}
    </div>
  );
}
