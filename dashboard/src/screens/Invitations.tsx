import { useState, type FormEvent } from 'react';
import { ROLE_HINTS } from '../access';
import { useMutation, useQuery } from '../data';
import { graphql } from '../generated';
import type { Role } from '../generated/graphql';
import { EmptyState, ErrorText, Loading, StatusBadge, when, words } from '../ui';

const INVITATIONS = graphql(`
  query Invitations {
    invitations {
      id
      email
      role
      status
      createdAt
      expiresAt
    }
  }
`);
const INVITE = graphql(`
  mutation InviteMember($email: String!, $role: Role!) {
    inviteMember(email: $email, role: $role) {
      id
      email
    }
  }
`);
const RESEND = graphql(`
  mutation ResendInvitation($id: ID!) {
    resendInvitation(id: $id) {
      id
      expiresAt
    }
  }
`);
const REVOKE = graphql(`
  mutation RevokeInvitation($id: ID!) {
    revokeInvitation(id: $id) {
      id
      status
    }
  }
`);

/** Invitations by email with a role: the link works for 7 days, and can be sent again or revoked. */
export function Invitations({ manage, roles }: { manage: boolean; roles: Role[] }) {
  const [{ data, error }, reread] = useQuery({ query: INVITATIONS });
  const [inviting, invite] = useMutation(INVITE);
  const [resending, resend] = useMutation(RESEND);
  const [revoking, revoke] = useMutation(REVOKE);
  const [said, setSaid] = useState('');

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    const res = await invite({ email: String(f.get('email')).trim(), role: String(f.get('role')) as Role });
    if (!res.data) return;
    setSaid(`Invitation sent to ${res.data.inviteMember.email}.`);
    form.reset();
    reread();
  }
  async function resendOne(id: string, email: string) {
    if (!(await resend({ id })).data) return;
    setSaid(`Invitation sent again to ${email}.`);
    reread();
  }
  async function revokeOne(id: string, email: string) {
    if (!confirm(`Revoke the invitation to ${email}? Its link stops working.`)) return;
    if ((await revoke({ id })).data) reread();
  }

  const open = data?.invitations ?? [];
  return (
    <>
      <h3>Invitations</h3>
      {manage && (
        <form className="inline" onSubmit={submit} aria-label="Invite a member">
          <label>
            Email
            <input name="email" type="email" required spellCheck={false} autoComplete="off" />
          </label>
          <label>
            Role
            <select name="role" defaultValue={roles.includes('DEVELOPER') ? 'DEVELOPER' : roles[roles.length - 1]}>
              {roles.map((r) => (
                <option key={r} value={r}>
                  {words(r)}: {ROLE_HINTS[r]}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={inviting.fetching}>
            {inviting.fetching ? 'Sending…' : 'Invite'}
          </button>
          <p role="status" className="muted">
            {said}
          </p>
          <ErrorText error={inviting.error} />
        </form>
      )}
      <ErrorText error={error} />
      {!data && !error && <Loading what="invitations" />}
      {data && open.length === 0 && (
        <EmptyState title="No invitations">{manage ? 'Invite someone by email above.' : 'Owners and admins invite members.'}</EmptyState>
      )}
      {open.length > 0 && (
        <div className="table-card scroll">
          <table className="list" aria-label="Invitations">
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Status</th>
                <th scope="col">Expires</th>
                {manage && (
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {open.map((i) => {
                const pending = i.status.toLowerCase() === 'pending';
                const resendable = pending || i.status.toLowerCase() === 'expired';
                return (
                  <tr key={i.id} data-invitation={i.email}>
                    <td>
                      {i.email}
                      <span className="sub">sent {when(i.createdAt)}</span>
                    </td>
                    <td>{words(i.role)}</td>
                    <td>
                      <StatusBadge status={i.status} />
                    </td>
                    <td>{pending ? when(i.expiresAt) : '—'}</td>
                    {manage && (
                      <td>
                        <div className="row-actions">
                          {resendable && (
                            <button type="button" className="secondary" onClick={() => void resendOne(i.id, i.email)} disabled={resending.fetching}>
                              Resend
                            </button>
                          )}
                          {pending && (
                            <button type="button" className="secondary" onClick={() => void revokeOne(i.id, i.email)} disabled={revoking.fetching}>
                              Revoke
                            </button>
                          )}
                        </div>
                      </td>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <ErrorText error={resending.error ?? revoking.error} />
    </>
  );
}
