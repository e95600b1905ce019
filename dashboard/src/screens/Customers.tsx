import { usePages, useQuery } from '../data';
import { graphql } from '../generated';
import { Empty, ErrorText, Link, Loading, StatusBadge, when } from '../ui';
import { Transactions } from './Transactions';

graphql(`
  fragment CustomerRow on Customer {
    customerUuid
    customerId
    firstName
    lastName
    countryCode
    kycStatus
    overallKycStatus
    createdAt
  }
`);
const CUSTOMERS = graphql(`
  query Customers($after: String) {
    customers(first: 20, after: $after) {
      edges {
        node {
          ...CustomerRow
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);
const CUSTOMER = graphql(`
  query Customer($u: String!) {
    customer(uuid: $u) {
      ...CustomerRow
      email
      phoneNumber
      dialCode
      dateOfBirth
    }
    kyc(customerUuid: $u) {
      kycStatus
      overallKycStatus
      submittedAt
      reviewedAt
      rejectionReason
    }
  }
`);

export function Customers() {
  const { rows, error, loadMore } = usePages({ query: CUSTOMERS, variables: {} }, (data) => data.customers);
  return (
    <section aria-labelledby="cust-title">
      <h2 id="cust-title">Customers</h2>
      <ErrorText error={error} />
      {!rows && !error && <Loading what="customers" />}
      {rows?.length === 0 && <Empty>No customers yet. Enroll one with the API or the sandbox tools.</Empty>}
      {rows && rows.length > 0 && (
        <ul className="rows" aria-label="Customers">
          {rows.map((c) => (
            <li key={c.customerUuid} className="row">
              <Link to={`/customers/${c.customerUuid}`}>
                {c.firstName} {c.lastName}
              </Link>
              <span className="muted">{c.customerId}</span>
              <span>{c.countryCode}</span>
              <StatusBadge status={c.overallKycStatus} />
              <span className="muted">{when(c.createdAt)}</span>
            </li>
          ))}
        </ul>
      )}
      {loadMore && (
        <button type="button" className="secondary" onClick={loadMore}>
          Load more
        </button>
      )}
    </section>
  );
}

export function CustomerDetail({ uuid }: { uuid: string }) {
  const [{ data, error }] = useQuery({ query: CUSTOMER, variables: { u: uuid } });
  if (error) return <ErrorText error={error} />;
  if (!data) return <Loading what="the customer" />;
  const { customer: c, kyc } = data;
  return (
    <section aria-labelledby="c-title">
      <p>
        <Link to="/customers">← Customers</Link>
      </p>
      <h2 id="c-title">
        {c.firstName} {c.lastName} <StatusBadge status={kyc.overallKycStatus} />
      </h2>
      <dl className="facts">
        <div>
          <dt>Your ID</dt>
          <dd>{c.customerId}</dd>
        </div>
        <div>
          <dt>Customer UUID</dt>
          <dd>{c.customerUuid}</dd>
        </div>
        <div>
          <dt>Email</dt>
          <dd>{c.email}</dd>
        </div>
        <div>
          <dt>Phone</dt>
          <dd>
            {c.dialCode} {c.phoneNumber}
          </dd>
        </div>
        <div>
          <dt>Country</dt>
          <dd>{c.countryCode}</dd>
        </div>
        <div>
          <dt>KYC submitted</dt>
          <dd>{when(kyc.submittedAt)}</dd>
        </div>
        <div>
          <dt>KYC reviewed</dt>
          <dd>{when(kyc.reviewedAt)}</dd>
        </div>
        {kyc.rejectionReason && (
          <div>
            <dt>Rejected because</dt>
            <dd>{kyc.rejectionReason}</dd>
          </div>
        )}
      </dl>
      <Transactions customerUuid={c.customerUuid} />
    </section>
  );
}
