import { useEffect, type ReactNode } from 'react';
import { useCan } from '../access';
import { useQuery, useSubscription } from '../data';
import { graphql } from '../generated';
import { inCurrency } from '../money';
import { ErrorText, Link, Loading, StatusBadge, when, words } from '../ui';
import { Deadline } from './DisputeDeadline';
import { DisputeEvidence } from './DisputeEvidence';
import { DISPUTE_CHANGED, REASONS, awaitsResponse } from './disputes.gql';

const DISPUTE = graphql(`
  query DisputeDetail($id: ID!) {
    dispute(id: $id) {
      ...DisputeFields
      funds
      evidence {
        productDescription
        customerCommunication
        refundPolicy
        serviceDate
        serviceDetails
        uncategorizedText
        files {
          id
          filename
          contentType
          size
        }
      }
    }
  }
`);

const PAYMENT = graphql(`
  query DisputedPayment($r: String!) {
    transaction(reference: $r) {
      reference
      externalReference
      status
      amount
      currency
      card {
        brand
        last4
      }
      createdAt
    }
  }
`);

/** The disputed card payment, in a few facts, linked to its page (for roles that may read transactions). */
function DisputedPayment({ reference }: { reference: string }) {
  const can = useCan();
  const [{ data }] = useQuery({ query: PAYMENT, variables: { r: reference }, pause: !can('transactions:read') });
  const t = data?.transaction;
  return (
    <dl className="facts" aria-label="Disputed payment" data-testid="disputed-payment">
      <div>
        <dt>Payment</dt>
        <dd>
          <Link to={`/transactions/${encodeURIComponent(reference)}`}>{t?.externalReference ?? reference}</Link>
          {t && <span className="sub mono">{reference}</span>}
        </dd>
      </div>
      {t && (
        <>
          <div>
            <dt>Charged</dt>
            <dd>{inCurrency(t.amount, t.currency)}</dd>
          </div>
          {t.card && (
            <div>
              <dt>Card</dt>
              <dd>{`${t.card.brand} ···· ${t.card.last4}`}</dd>
            </div>
          )}
          <div>
            <dt>Paid</dt>
            <dd>{when(t.createdAt)}</dd>
          </div>
        </>
      )}
    </dl>
  );
}

/** One dispute: its facts and deadline, the payment it disputes, and the merchant's answer (evidence, submit, accept). */
export function DisputeDetail({ id }: { id: string }) {
  const [{ data, error }, reload] = useQuery({ query: DISPUTE, variables: { id } });
  // Live: a change to this dispute (the bank's decision, a submission elsewhere) reads it again.
  const [{ data: changed }] = useSubscription({ query: DISPUTE_CHANGED });
  useEffect(() => {
    if (changed?.disputeChanged.id === id) reload();
  }, [changed, id, reload]);

  if (error && !data) return <ErrorText error={error} />;
  if (!data) return <Loading what="the dispute" />;
  const d = data.dispute;
  const facts: Array<[string, ReactNode]> = [
    ['Amount', inCurrency(d.amount, d.currency)],
    ['Dispute fee', inCurrency(d.fee, d.currency)],
    ['Reason', REASONS[d.reason] ?? words(d.reason)],
    ['Respond by', d.evidenceDueBy ? when(d.evidenceDueBy) : null],
    // Only while it waits for an answer (after that, the deadline above is history).
    ['Time left', d.evidenceDueBy && awaitsResponse(d.status) ? <Deadline dueBy={d.evidenceDueBy} status={d.status} /> : null],
    ['Funds', words(d.funds)],
    ['Opened', when(d.createdAt)],
    ['Closed', d.closedAt ? when(d.closedAt) : null],
    ['Evidence submitted', d.submissionCount > 0 ? (d.submissionCount === 1 ? 'Once' : `${d.submissionCount} times`) : 'Not yet'],
    ['Provider', d.providerStatus ? `${d.provider} (${d.providerStatus})` : d.provider],
  ];

  return (
    <section aria-labelledby="dd-title">
      <p>
        <Link to="/disputes">← Disputes</Link>
      </p>
      <h2 id="dd-title">
        <span className="mono">{d.id}</span> <StatusBadge status={d.status} />
      </h2>
      <dl className="facts" aria-label="Dispute">
        {facts
          .filter(([, value]) => value)
          .map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
      </dl>
      <h3>Disputed payment</h3>
      <DisputedPayment reference={d.paymentReference} />
      <DisputeEvidence key={d.id} dispute={d} onChanged={reload} />
    </section>
  );
}
