import { useEffect, useState } from 'react';
import type { Transaction } from '../generated/graphql';
import { gql, subscribe } from '../session';
import { ErrorText, Link, Loading, StatusBadge, useLoad, when, words } from '../ui';
import { money, type Row } from './Transactions';

type Detail = Row &
  Pick<
    Transaction,
    | 'destinationAmount'
    | 'destinationCurrency'
    | 'rate'
    | 'fee'
    | 'accountType'
    | 'accountNumber'
    | 'countryCode'
    | 'bankInfo'
    | 'beneficiary'
    | 'card'
    | 'completedAt'
    | 'expiresAt'
  > & { history: Array<{ fromStatus: string | null; toStatus: string; reason: string | null; occurredAt: string }> };

const FIELDS = `reference externalReference type status failureReason amount currency sourceAmount sourceCurrency destinationAmount
  destinationCurrency rate fee customerUuid accountType accountNumber countryCode createdAt completedAt expiresAt
  bankInfo { accountName accountNumber bankName bankCode } beneficiary { accountName accountNumber networkId } card { brand last4 }
  history { fromStatus toStatus reason occurredAt }`;

export function TransactionDetail({ reference, sandbox }: { reference: string; sandbox: boolean }) {
  const { data, error, loading, reload } = useLoad(
    () => gql<{ transaction: Detail }>(`query($r: String!) { transaction(reference: $r) { ${FIELDS} } }`, { r: reference }),
    [reference],
  );
  const [actionError, setActionError] = useState<unknown>(null);

  // Live: a status change of this transaction reloads it (its history grows too).
  useEffect(
    () => subscribe(`subscription($r: String) { transactionStatusChanged(reference: $r) { status } }`, { r: reference }, () => reload()),
    [reference, reload],
  );

  async function simulate(outcome: 'SUCCESSFUL' | 'FAILED') {
    setActionError(null);
    try {
      await gql(`mutation($r: String!, $o: SimulationOutcome!) { simulateTransaction(reference: $r, outcome: $o) { status } }`, { r: reference, o: outcome });
      reload();
    } catch (err) {
      setActionError(err);
    }
  }

  if (error) return <ErrorText error={error} />;
  if (!data) return <Loading what="the transaction" />;
  const t = data.transaction;
  const rows: Array<[string, string | null | undefined]> = [
    ['Your reference', t.externalReference],
    ['Service reference', t.reference],
    ['Kind', words(t.type)],
    ['Amount', money(t)],
    ...(t.destinationAmount
      ? ([
          ['Beneficiary gets', `${t.destinationAmount} ${t.destinationCurrency}`],
          ['Rate', t.rate],
          ['Fee', `${t.fee} ${t.sourceCurrency}`],
        ] as Array<[string, string]>)
      : []),
    ['Failure reason', t.failureReason ? words(t.failureReason) : null],
    ['Account', t.accountNumber ? `${words(t.accountType)} · ${t.accountNumber} · ${t.countryCode}` : null],
    ['Card', t.card ? `${t.card.brand} ···· ${t.card.last4}` : null],
    ['Created', when(t.createdAt)],
    ['Completed', t.completedAt ? when(t.completedAt) : null],
    ['Expires', t.expiresAt ? when(t.expiresAt) : null],
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
        {t.customerUuid && (
          <div>
            <dt>Customer</dt>
            <dd>
              <Link to={`/customers/${t.customerUuid}`}>{t.customerUuid}</Link>
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
      {t.beneficiary && (
        <>
          <h3>Beneficiary</h3>
          <dl className="facts">
            <div>
              <dt>Name</dt>
              <dd>{t.beneficiary.accountName}</dd>
            </div>
            <div>
              <dt>Account</dt>
              <dd>{t.beneficiary.accountNumber}</dd>
            </div>
            <div>
              <dt>Network</dt>
              <dd>{t.beneficiary.networkId}</dd>
            </div>
          </dl>
        </>
      )}
      <h3>Status history</h3>
      <ol className="timeline" aria-label="Status history">
        {t.history.map((h, i) => (
          <li key={i}>
            <StatusBadge status={h.toStatus} /> <span className="muted">{when(h.occurredAt)}</span>
            {h.reason && <span className="muted"> · {words(h.reason)}</span>}
          </li>
        ))}
      </ol>
      {sandbox && t.status === 'PROCESSING' && (
        <div className="actions" role="group" aria-label="Sandbox: decide it now">
          <button type="button" onClick={() => void simulate('SUCCESSFUL')}>
            Simulate success
          </button>
          <button type="button" className="secondary" onClick={() => void simulate('FAILED')}>
            Simulate failure
          </button>
        </div>
      )}
      <ErrorText error={actionError} />
    </section>
  );
}
