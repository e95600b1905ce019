import { useState, type FormEvent } from 'react';
import { useCan, useMe } from '../access';
import { useMutation, useQuery } from '../data';
import { graphql } from '../generated';
import { EmptyState, ErrorText, Loading, StatusBadge, when } from '../ui';
import { PayoutPages } from './PayoutPages';

const DESTINATIONS = graphql(`
  query PayoutDestinations {
    payoutDestinations {
      id
      currency
      accountType
      countryCode
      institution
      masked
      accountName
      status
      effectiveAt
      createdAt
      createdBy {
        id
        email
      }
      approvedBy {
        email
      }
    }
  }
`);
const ADD = graphql(`
  mutation AddPayoutDestination($input: AddPayoutDestinationInput!) {
    addPayoutDestination(input: $input) {
      id
      masked
      accountName
      status
      effectiveAt
    }
  }
`);
const APPROVE = graphql(`
  mutation ApprovePayoutDestination($id: ID!) {
    approvePayoutDestination(id: $id) {
      id
      status
    }
  }
`);
const CANCEL = graphql(`
  mutation CancelPayoutDestination($id: ID!) {
    cancelPayoutDestination(id: $id) {
      id
      status
    }
  }
`);

/**
 * Payout destinations (docs/payouts.md): where payouts in each currency go. The holder's name is resolved when an
 * account is added and must be the business's; a change waits for a second member's approval (or, for a team with
 * one such member, a 24-hour cooling-off).
 */
export function PayoutDestinations() {
  const can = useCan();
  const me = useMe();
  const [{ data, error }, reread] = useQuery({ query: DESTINATIONS, pause: !can('payouts:manage') });
  const [adding, add] = useMutation(ADD);
  const [approving, approve] = useMutation(APPROVE);
  const [canceling, cancel] = useMutation(CANCEL);
  const [added, setAdded] = useState<string | null>(null);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    const text = (name: string) => String(f.get(name) ?? '').trim() || null;
    const res = await add({
      input: { country: text('country') ?? '', bankCode: text('bankCode'), network: text('network'), accountNumber: text('accountNumber') ?? '' },
    });
    if (!res.data) return;
    const d = res.data.addPayoutDestination;
    setAdded(
      `${d.masked}, held by ${d.accountName}: ` +
        (d.status === 'ACTIVE'
          ? 'payouts go there now.'
          : d.effectiveAt
            ? `takes effect ${when(d.effectiveAt)} unless canceled.`
            : 'waiting for another member’s approval.'),
    );
    form.reset();
    reread();
  }
  async function act(id: string, what: 'approve' | 'cancel') {
    const res = what === 'approve' ? await approve({ id }) : await cancel({ id });
    if (res.data) reread();
  }

  if (!can('payouts:manage'))
    return (
      <section aria-labelledby="destinations-title">
        <PayoutPages />
        <h2 id="destinations-title">Payout destinations</h2>
        <EmptyState title="Your role does not manage payouts">Owners, admins and finance members add and approve payout destinations.</EmptyState>
      </section>
    );

  const list = data?.payoutDestinations ?? [];
  return (
    <section aria-labelledby="destinations-title">
      <PayoutPages />
      <h2 id="destinations-title">Payout destinations</h2>
      <p className="muted">
        One bank account or wallet per currency, held in your business’s name. A change takes effect when another member who manages payouts approves it; if you
        are the only one, 24 hours after you make it, and every owner and admin is emailed.
      </p>
      <form className="inline" onSubmit={submit} aria-label="Add a payout destination">
        <label>
          Country
          <input name="country" required maxLength={2} placeholder="NG" autoComplete="off" />
        </label>
        <label>
          Bank code
          <input name="bankCode" maxLength={6} placeholder="058" autoComplete="off" />
        </label>
        <label>
          or network
          <input name="network" maxLength={64} placeholder="ke_mpesa" autoComplete="off" />
        </label>
        <label>
          Account number
          <input name="accountNumber" required maxLength={40} autoComplete="off" />
        </label>
        <button type="submit" disabled={adding.fetching}>
          {adding.fetching ? 'Checking the name…' : 'Add destination'}
        </button>
        <ErrorText error={adding.error} />
      </form>
      {added && (
        <p role="status" data-testid="destination-added">
          {added}
        </p>
      )}
      <ErrorText error={error ?? approving.error ?? canceling.error} />
      {!data && !error && <Loading what="your payout destinations" />}
      {data && list.length === 0 && <EmptyState title="No payout destinations">Add the account your payouts should go to.</EmptyState>}
      {list.length > 0 && (
        <div className="table-card scroll">
          <table className="list" aria-label="Payout destinations">
            <thead>
              <tr>
                <th scope="col">Account</th>
                <th scope="col">Currency</th>
                <th scope="col">Status</th>
                <th scope="col">Added</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((d) => (
                <tr key={d.id} data-destination={d.id}>
                  <td>
                    {d.masked}
                    <span className="sub">{d.accountName}</span>
                  </td>
                  <td>{d.currency}</td>
                  <td>
                    <StatusBadge status={d.status} />
                    {d.status === 'PENDING_APPROVAL' && d.effectiveAt && <span className="sub">takes effect {when(d.effectiveAt)}</span>}
                    {d.approvedBy?.email && <span className="sub">approved by {d.approvedBy.email}</span>}
                  </td>
                  <td>
                    {when(d.createdAt)}
                    {d.createdBy.email && <span className="sub">by {d.createdBy.email}</span>}
                  </td>
                  <td>
                    {d.status === 'PENDING_APPROVAL' && (
                      <div className="row-actions">
                        {d.createdBy.id !== me.user?.id && (
                          <button type="button" onClick={() => void act(d.id, 'approve')} disabled={approving.fetching}>
                            Approve
                          </button>
                        )}
                        <button type="button" className="secondary" onClick={() => void act(d.id, 'cancel')} disabled={canceling.fetching}>
                          Cancel change
                        </button>
                      </div>
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
