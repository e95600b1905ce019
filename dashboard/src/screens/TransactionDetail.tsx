import { useEffect, useState, type FormEvent } from 'react';
import { useCan } from '../access';
import { useMutation, useQuery, useSubscription } from '../data';
import { graphql } from '../generated';
import type { RefundFieldsFragment, TransactionDetailQuery } from '../generated/graphql';
import { compare, inCurrency, isZero, minus } from '../money';
import { ErrorText, Link, Loading, StatusBadge, newReference, when, whenExactly, words } from '../ui';
import { money } from './Transactions';

type Detail = TransactionDetailQuery['transaction'];

/** Statuses nothing changes any more. */
const FINAL: string[] = ['SUCCESSFUL', 'FAILED', 'EXPIRED'];
/** Kinds whose other side is a beneficiary's account (shown as theirs), not the customer. */
const PAID_TO_AN_ACCOUNT: string[] = ['TRANSFER', 'PAYOUT'];

const DETAIL = graphql(`
  query TransactionDetail($r: String!) {
    transaction(reference: $r) {
      ...TransactionFields
      rate
      fee
      accountNumber
      countryCode
      networkId
      expiresAt
      amountRefunded
      paymentReference
      bankInfo {
        accountName
        accountNumber
        bankName
        bankCode
      }
      card {
        brand
        last4
      }
      paymentMethod
      checkoutSessionId
      history {
        fromStatus
        toStatus
        reason
        occurredAt
      }
    }
  }
`);

/** The country's banks or networks by name: a transaction names its own by id. */
const NETWORK_NAMES = graphql(`
  query NetworkNames($country: String!, $type: ChannelType!) {
    networks(countryCode: $country, channel: $type) {
      networkId
      name
    }
  }
`);

type Refund = RefundFieldsFragment;
graphql(`
  fragment RefundFields on Transaction {
    reference
    externalReference
    status
    failureReason
    amount
    currency
  }
`);

const REFUND = graphql(`
  mutation RefundPayment($input: RefundPaymentInput!) {
    refundPayment(input: $input) {
      ...RefundFields
    }
  }
`);

const REFUND_CHANGED = graphql(`
  subscription RefundChanged($r: String) {
    transactionStatusChanged(reference: $r) {
      ...RefundFields
    }
  }
`);

const STATUS_CHANGED = graphql(`
  subscription TransactionStatusChanged($r: String) {
    transactionStatusChanged(reference: $r) {
      status
    }
  }
`);

const SIMULATE = graphql(`
  mutation SimulateTransaction($r: String!, $o: SimulationOutcome!) {
    simulateTransaction(reference: $r, outcome: $o) {
      status
    }
  }
`);

/** A payment's disputes (an inquiry, then perhaps a chargeback), newest first. */
const DISPUTES_OF = graphql(`
  query PaymentDisputes($r: String!) {
    disputes(paymentReference: $r, first: 5) {
      edges {
        node {
          id
          status
        }
      }
    }
  }
`);

/** The payment's disputes, each linked to its page; nothing when it has none (or the role may not read disputes). */
function PaymentDisputes({ reference }: { reference: string }) {
  const can = useCan();
  const [{ data }] = useQuery({ query: DISPUTES_OF, variables: { r: reference }, pause: !can('disputes:read') });
  const disputes = data?.disputes.edges.map((e) => e.node) ?? [];
  if (disputes.length === 0) return null;
  return (
    <div data-testid="dispute">
      <dt>{disputes.length === 1 ? 'Dispute' : 'Disputes'}</dt>
      {disputes.map((d) => (
        <dd key={d.id}>
          <Link to={`/disputes/${encodeURIComponent(d.id)}`}>{d.id}</Link> <StatusBadge status={d.status} />
        </dd>
      ))}
    </div>
  );
}

/** What is left to refund of a successful card payment; null when nothing is (or it is not one). */
function refundable(t: Detail): string | null {
  if (t.type !== 'PAYMENT' || t.status !== 'SUCCESSFUL' || !t.amount) return null;
  const left = minus(t.amount, t.amountRefunded ?? '0');
  return compare(left, '0') > 0 ? left : null;
}

/** Refund a successful card payment, in part or (the default amount) all that is left. */
function RefundForm({ payment, left, onCreated }: { payment: Detail; left: string; onCreated: (refund: Refund) => void }) {
  // A new reference of your own for each refund (the form is made anew after one).
  const [reference] = useState(() => newReference('refund'));
  const [{ fetching: busy, error }, refund] = useMutation(REFUND);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const { data } = await refund({
      input: {
        paymentReference: payment.reference,
        amount: String(f.get('amount')).trim() || null,
        reason: String(f.get('reason')).trim(),
        reference: String(f.get('reference')).trim(),
      },
    });
    if (data) onCreated(data.refundPayment);
  }

  return (
    <form className="card refund" onSubmit={submit} aria-labelledby="refund-title">
      <h3 id="refund-title">Refund</h3>
      <p className="muted">
        Left to refund: <strong data-testid="refund-left">{inCurrency(left, payment.currency)}</strong>. The refund is taken from your available balance.
      </p>
      <div className="filters">
        <label>
          Amount ({payment.currency})
          <input name="amount" inputMode="decimal" defaultValue={left} required spellCheck={false} />
        </label>
        <label>
          Reason
          <input name="reason" required maxLength={255} placeholder="Damaged item" />
        </label>
        <label>
          Your reference
          <input name="reference" defaultValue={reference} required maxLength={100} spellCheck={false} />
        </label>
      </div>
      <button type="submit" disabled={busy}>
        {busy ? 'Refunding…' : 'Refund'}
      </button>
      <ErrorText error={error} showCode />
    </form>
  );
}

/**
 * A refund made here: its status changes live until it is decided; then the payment is read again
 * (a failed refund gives its amount back).
 */
function RefundMade({ made, onDecided }: { made: Refund; onDecided: () => void }) {
  const [{ data: heard }] = useSubscription({
    query: REFUND_CHANGED,
    variables: { r: made.reference },
    pause: made.status !== 'PROCESSING' && made.status !== 'INITIATING',
  });
  const r = heard ? { ...made, ...heard.transactionStatusChanged } : made;
  useEffect(() => {
    if (heard) onDecided();
  }, [heard, onDecided]);
  return (
    <li className="row refund-made" data-reference={r.reference}>
      <Link to={`/transactions/${encodeURIComponent(r.reference)}`}>{r.externalReference}</Link>
      <span className="muted">refund created</span>
      <span>{inCurrency(r.amount, r.currency)}</span>
      <StatusBadge status={r.status} />
      <span className="muted">{r.failureReason ? words(r.failureReason) : r.reference}</span>
    </li>
  );
}

export function TransactionDetail({ reference, sandbox }: { reference: string; sandbox: boolean }) {
  const [{ data, error, fetching: loading }, reload] = useQuery({ query: DETAIL, variables: { r: reference } });
  const [simulation, simulateOutcome] = useMutation(SIMULATE);
  const can = useCan();
  /** The refunds made here, newest first; their statuses change live (each line listens to its own). */
  const [refunds, setRefunds] = useState<Refund[]>([]);

  // Live: a status change of this transaction reloads it (its history grows too).
  const [{ data: changed }] = useSubscription({ query: STATUS_CHANGED, variables: { r: reference } });
  useEffect(() => {
    if (changed) reload();
  }, [changed, reload]);

  // The bank's or network's name (the reference data, read once per country and channel type, cached by the client).
  const shown = data?.transaction;
  const [networks] = useQuery({
    query: NETWORK_NAMES,
    variables: { country: shown?.countryCode ?? '', type: shown?.accountType ?? 'BANK' },
    pause: !shown?.networkId || !shown.countryCode || !shown.accountType,
  });
  const networkName = networks.data?.networks.find((n) => n.networkId === shown?.networkId)?.name ?? shown?.networkId ?? null;

  async function simulate(outcome: 'SUCCESSFUL' | 'FAILED') {
    if ((await simulateOutcome({ r: reference, o: outcome })).data) reload();
  }

  if (error) return <ErrorText error={error} />;
  if (!data) return <Loading what="the transaction" />;
  const t = data.transaction;
  const left = refundable(t);
  const toBeneficiary = PAID_TO_AN_ACCOUNT.includes(t.type);
  const rows: Array<[string, string | null | undefined]> = [
    ['Your reference', t.externalReference],
    ['Service reference', t.reference],
    ['Kind', words(t.type)],
    ['Amount', money(t)],
    ...(t.destinationAmount
      ? ([
          ['Beneficiary gets', inCurrency(t.destinationAmount, t.destinationCurrency)],
          ['Rate', t.rate],
          ['Fee', inCurrency(t.fee, t.sourceCurrency)],
        ] as Array<[string, string]>)
      : []),
    ...(!t.destinationAmount && t.fee && t.type !== 'REFUND' ? ([['Fee', inCurrency(t.fee, t.currency)]] as Array<[string, string]>) : []),
    ['Refunded', t.amountRefunded && !isZero(t.amountRefunded) ? inCurrency(t.amountRefunded, t.currency) : null],
    ['Failure reason', t.failureReason ? words(t.failureReason) : null],
    // The sender's account (a collection's, a mobile money payment's wallet), masked; a beneficiary's has its own section.
    [
      'Account',
      t.accountNumber && !toBeneficiary ? [words(t.accountType), networkName, t.counterparty.account, t.countryCode].filter(Boolean).join(' · ') : null,
    ],
    ['Card', t.card ? `${t.card.brand} ···· ${t.card.last4}` : null],
    ['Paid by', t.paymentMethod && t.paymentMethod !== 'CARD' ? words(t.paymentMethod) : null],
    // Paid on the hosted checkout page: its session (the merchant's order reference is the session's, the payment's ends in -N).
    ['Checkout session', t.checkoutSessionId],
    ['Created', when(t.createdAt)],
    ['Completed', t.completedAt ? when(t.completedAt) : null],
    // Only while it can still expire: a decided transaction has no deadline left.
    ['Expires', t.expiresAt && !FINAL.includes(t.status) ? when(t.expiresAt) : null],
  ];

  return (
    <section aria-labelledby="detail-title">
      <p>
        <Link to="/transactions">← Transactions</Link>
      </p>
      <h2 id="detail-title">
        {t.externalReference} <StatusBadge status={t.status} />
      </h2>
      {loading && (
        <span className="sr-only" role="status">
          Refreshing
        </span>
      )}
      <dl className="facts">
        {rows
          .filter(([, value]) => value)
          .map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        {t.paymentReference && (
          <div>
            <dt>Refund of</dt>
            <dd>
              <Link to={`/transactions/${encodeURIComponent(t.paymentReference)}`}>{t.paymentReference}</Link>
            </dd>
          </div>
        )}
        {t.type === 'PAYMENT' && <PaymentDisputes reference={t.reference} />}
        {t.customerUuid && (
          <div data-testid="customer">
            <dt>Customer</dt>
            <dd>
              {t.customer ? (
                <>
                  <Link to={`/customers/${t.customerUuid}`}>{`${t.customer.firstName} ${t.customer.lastName}`}</Link>
                  <span className="sub">{t.customer.email}</span>
                </>
              ) : (
                <Link to={`/customers/${t.customerUuid}`}>{t.customerUuid}</Link>
              )}
            </dd>
          </div>
        )}
      </dl>
      {t.bankInfo && (
        <>
          <h3>Bank details for the sender</h3>
          <dl className="facts">
            <div>
              <dt>Account name</dt>
              <dd>{t.bankInfo.accountName}</dd>
            </div>
            <div>
              <dt>Account number</dt>
              <dd>{t.bankInfo.accountNumber}</dd>
            </div>
            <div>
              <dt>Bank</dt>
              <dd>
                {t.bankInfo.bankName} ({t.bankInfo.bankCode})
              </dd>
            </div>
          </dl>
        </>
      )}
      {toBeneficiary && (
        <>
          <h3 id="beneficiary-title">Beneficiary</h3>
          <dl className="facts" data-testid="counterparty" aria-labelledby="beneficiary-title">
            <div>
              <dt>Name</dt>
              <dd>{t.counterparty.name ?? '—'}</dd>
            </div>
            <div>
              <dt>Account</dt>
              <dd className="mono">{t.counterparty.account ?? '—'}</dd>
            </div>
            <div>
              <dt>{t.accountType === 'BANK' ? 'Bank' : 'Network'}</dt>
              <dd>{networkName ?? '—'}</dd>
            </div>
          </dl>
        </>
      )}
      <h3>Status history</h3>
      <ol className="timeline" aria-label="Status history">
        {t.history.map((h, i) => (
          <li key={i}>
            <StatusBadge status={h.toStatus} /> <span className="muted">{whenExactly(h.occurredAt)}</span>
            {h.reason && <span className="muted"> · {words(h.reason)}</span>}
          </li>
        ))}
      </ol>
      {sandbox && can('payments:create') && t.status === 'PROCESSING' && (
        <div className="actions" role="group" aria-label="Sandbox: decide it now">
          <button type="button" onClick={() => void simulate('SUCCESSFUL')}>
            Simulate success
          </button>
          <button type="button" className="secondary" onClick={() => void simulate('FAILED')}>
            Simulate failure
          </button>
        </div>
      )}
      <ErrorText error={simulation.error} />
      {left && can('refunds:create') && (
        <RefundForm
          key={left}
          payment={t}
          left={left}
          onCreated={(refund) => {
            setRefunds((old) => [refund, ...old]);
            reload();
          }}
        />
      )}
      <div aria-live="polite">
        {refunds.length > 0 && <h3 id="refunds-title">Refunds made here</h3>}
        {refunds.length > 0 && (
          <ul className="rows" aria-labelledby="refunds-title">
            {refunds.map((r) => (
              <RefundMade key={r.reference} made={r} onDecided={reload} />
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
