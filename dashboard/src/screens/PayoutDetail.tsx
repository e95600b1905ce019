import { useState, type ReactNode } from 'react';
import { useQuery } from '../data';
import { graphql } from '../generated';
import { formatAmount, inCurrency } from '../money';
import { fetchFile } from '../session';
import { Empty, ErrorText, Link, Loading, StatusBadge, saveFile, when, words } from '../ui';
import { FROM_A_TRANSACTION } from './ledger.gql';
import { PayoutPages } from './PayoutPages';
import { destinationOf } from './Payouts';

const PAYOUT = graphql(`
  query Payout($id: ID!) {
    payout(id: $id) {
      ...PayoutFields
      report {
        currency
        grossCollected
        fees
        refunds
        transfers
        adjustments
        payouts
        carriedIn
        carriedOut
        net
        balanceTransactions
      }
      balanceTransactions {
        ...BalanceTransactionFields
      }
    }
  }
`);

/** The report summary's lines, in the order the report adds them up to its net. */
const SUMMARY = [
  ['grossCollected', 'Gross collected'],
  ['fees', 'Fees'],
  ['refunds', 'Refunds'],
  ['transfers', 'Transfers'],
  ['adjustments', 'Adjustments'],
  ['payouts', 'Payouts'],
  ['carriedIn', 'Carried in'],
  ['carriedOut', 'Carried out'],
] as const;

/** The report as CSV, through the session's bearer token (never in a URL), as the Balance page's statement. */
function DownloadReport({ id }: { id: string }) {
  const [error, setError] = useState<unknown>(null);
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  async function download() {
    setError(null);
    setStatus('');
    setBusy(true);
    try {
      const { blob, filename } = await fetchFile(`/v1/payouts/${encodeURIComponent(id)}/report`);
      saveFile(blob, filename);
      setStatus(`Downloaded ${filename}.`);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="actions">
      <button type="button" onClick={() => void download()} disabled={busy}>
        {busy ? 'Preparing…' : 'Download report (CSV)'}
      </button>
      <p role="status" className="muted">
        {status}
      </p>
      <ErrorText error={error} showCode />
    </div>
  );
}

/** One payout: its facts, its report summary, the balance transactions it settles, and its report to download. */
export function PayoutDetail({ id }: { id: string }) {
  const [{ data, error }] = useQuery({ query: PAYOUT, variables: { id } });
  if (error) return <ErrorText error={error} />;
  if (!data) return <Loading what="the payout" />;
  const p = data.payout;
  const r = p.report;
  const facts: Array<[string, ReactNode]> = [
    ['Amount', inCurrency(p.amount, p.currency)],
    ['Fee', inCurrency(p.fee, p.currency)],
    ['Kind', p.automatic ? `Automatic${p.window ? ` (window of ${p.window})` : ''}` : 'Manual'],
    ['Destination', p.destination ? `${destinationOf(p.destination)}, ${p.destination.accountName}` : '—'],
    ['Created', when(p.createdAt)],
    ['Expected arrival', when(p.expectedArrivalAt)],
    ['Completed', p.completedAt ? when(p.completedAt) : null],
    ['Trace reference', p.traceReference],
    ['Transaction', p.transactionReference ? <Link to={`/transactions/${encodeURIComponent(p.transactionReference)}`}>{p.transactionReference}</Link> : null],
    ['Failure reason', p.failureReason],
  ];

  return (
    <section aria-labelledby="pd-title">
      <PayoutPages />
      <p>
        <Link to="/payouts">← Payouts</Link>
      </p>
      <h2 id="pd-title">
        <span className="mono">{p.id}</span> <StatusBadge status={p.status} />
      </h2>
      <dl className="facts" aria-label="Payout">
        {facts
          .filter(([, value]) => value)
          .map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
      </dl>
      <h3 id="summary-title">Report</h3>
      <dl className="facts summary" aria-labelledby="summary-title" data-testid="payout-summary">
        {SUMMARY.map(([key, label]) => (
          <div key={key} data-line={key}>
            <dt>{label}</dt>
            <dd className="num">{formatAmount(r[key])}</dd>
          </div>
        ))}
        <div data-line="net" className="net">
          <dt>Net</dt>
          <dd className="num">
            <strong>{inCurrency(r.net, r.currency)}</strong>
          </dd>
        </div>
      </dl>
      <DownloadReport id={p.id} />
      <h3 id="settles-title">Balance transactions it settles</h3>
      {p.balanceTransactions.length === 0 ? (
        <Empty>{p.automatic ? 'None: it pays only what it carried in.' : 'None: a manual payout pays an amount you chose, not particular transactions.'}</Empty>
      ) : (
        <div className="scroll" role="region" aria-labelledby="settles-title" tabIndex={0}>
          <table className="ledger">
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Kind</th>
                <th scope="col" className="num">
                  Amount
                </th>
                <th scope="col" className="num">
                  Fee
                </th>
                <th scope="col" className="num">
                  Net
                </th>
                <th scope="col">Source</th>
              </tr>
            </thead>
            <tbody>
              {p.balanceTransactions.map((t) => (
                <tr key={t.id} data-id={t.id}>
                  <td>{when(t.createdAt)}</td>
                  <td>{words(t.type)}</td>
                  <td className="num">{formatAmount(t.amount)}</td>
                  <td className="num">{formatAmount(t.fee)}</td>
                  <td className="num">{formatAmount(t.net)}</td>
                  <td>
                    {t.sourceReference && FROM_A_TRANSACTION.has(t.type) ? (
                      <Link to={`/transactions/${encodeURIComponent(t.sourceReference)}`}>{t.sourceReference}</Link>
                    ) : (
                      (t.sourceReference ?? '—')
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
