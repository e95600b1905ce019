import { useMe, useCan, grantable, ROLE_HINTS } from '../access';
import { useMutation, useQuery } from '../data';
import { graphql } from '../generated';
import type { Role } from '../generated/graphql';
import { refreshNow } from '../session';
import { ErrorText, Loading, StatusBadge, when, words } from '../ui';
import { Invitations } from './Invitations';

const MEMBERS = graphql(`
  query TeamMembers {
    teamMembers {
      id
      userId
      email
      name
      role
      twoFactorEnabled
      lastSignInAt
      createdAt
    }
  }
`);
const SETTINGS = graphql(`
  query TeamSettings {
    teamSettings {
      twoFactorRequired
    }
  }
`);
const CHANGE_ROLE = graphql(`
  mutation ChangeMemberRole($id: ID!, $role: Role!) {
    changeMemberRole(id: $id, role: $role) {
      id
      role
    }
  }
`);
const REMOVE = graphql(`
  mutation RemoveMember($id: ID!) {
    removeMember(id: $id)
  }
`);
const TRANSFER = graphql(`
  mutation TransferOwnership($id: ID!) {
    transferOwnership(id: $id) {
      id
      role
    }
  }
`);
const REQUIRE_2FA = graphql(`
  mutation SetTwoFactorRequired($required: Boolean!) {
    setTwoFactorRequired(required: $required)
  }
`);

/**
 * Whether the whole team must use 2FA: owners and admins choose, once they have it themselves (turning it on
 * signs out at once every member without it, who can then do nothing but enrol).
 */
function RequireTwoFactor({ manage, selfEnrolled }: { manage: boolean; selfEnrolled: boolean }) {
  const [{ data, error }, reread] = useQuery({ query: SETTINGS });
  const [saving, save] = useMutation(REQUIRE_2FA);

  async function toggle(required: boolean) {
    if (
      required &&
      !confirm('Require two-factor authentication for everyone? Members without it are signed out now, and can do nothing but enrol until they do.')
    )
      return;
    if ((await save({ required })).data) reread();
  }

  if (error) return <ErrorText error={error} />;
  if (!data) return <Loading what="the team's settings" />;
  const required = data.teamSettings.twoFactorRequired;
  return (
    <div className="settings-row">
      <label className="check">
        <input
          type="checkbox"
          checked={required}
          disabled={!manage || saving.fetching || (!required && !selfEnrolled)}
          onChange={(e) => void toggle(e.target.checked)}
        />
        Require two-factor authentication for every member
      </label>
      {manage && !required && !selfEnrolled && <p className="muted">Turn on two-factor authentication for yourself first (Profile).</p>}
      <ErrorText error={saving.error} />
    </div>
  );
}

/** The team: members with their roles, 2FA and last sign-in; invitations; the 2FA requirement. */
export function Team() {
  const me = useMe();
  const can = useCan();
  const manage = can('team:manage');
  const [{ data, error }, reread] = useQuery({ query: MEMBERS });
  const [changing, changeRole] = useMutation(CHANGE_ROLE);
  const [removing, remove] = useMutation(REMOVE);
  const [transferring, transfer] = useMutation(TRANSFER);
  const roles = grantable(me.role);
  const owners = data?.teamMembers.filter((m) => m.role === 'OWNER').length ?? 0;

  async function setRole(id: string, role: Role) {
    if ((await changeRole({ id, role })).data) reread();
  }
  async function removeOne(id: string, email: string) {
    if (!confirm(`Remove ${email} from the team? Their sessions here end at once.`)) return;
    if ((await remove({ id })).data) reread();
  }
  async function transferTo(id: string, email: string) {
    if (!confirm(`Make ${email} the owner? You become an admin.`)) return;
    // Your own role changed: a new session token carries it, and the dashboard reads who you are again.
    if ((await transfer({ id })).data) await refreshNow();
  }

  return (
    <section aria-labelledby="team-title">
      <h2 id="team-title">Team</h2>
      <RequireTwoFactor manage={manage} selfEnrolled={me.user?.twoFactorEnabled === true} />
      <h3>Members</h3>
      <ErrorText error={error} />
      {!data && !error && <Loading what="the team" />}
      {data && (
        <div className="table-card scroll">
          <table className="list team" aria-label="Members">
            <thead>
              <tr>
                <th scope="col">Member</th>
                <th scope="col">Role</th>
                <th scope="col">2FA</th>
                <th scope="col">Last sign-in</th>
                {manage && (
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {data.teamMembers.map((m) => {
                const self = m.userId === me.user?.id;
                // The owner's role changes only by a transfer; a member may give only roles up to their own.
                const editable = manage && !self && m.role !== 'OWNER' && roles.includes(m.role);
                return (
                  <tr key={m.id} data-member={m.email}>
                    <td>
                      {m.name} {self && <span className="muted">(you)</span>}
                      <span className="sub">{m.email}</span>
                    </td>
                    <td>
                      {editable ? (
                        <select
                          aria-label={`Role of ${m.email}`}
                          value={m.role}
                          disabled={changing.fetching}
                          onChange={(e) => void setRole(m.id, e.target.value as Role)}
                        >
                          {roles.map((r) => (
                            <option key={r} value={r} title={ROLE_HINTS[r]}>
                              {words(r)}
                            </option>
                          ))}
                        </select>
                      ) : (
                        words(m.role)
                      )}
                    </td>
                    <td>
                      <StatusBadge status={m.twoFactorEnabled ? 'on' : 'off'} />
                    </td>
                    <td>{when(m.lastSignInAt)}</td>
                    {manage && (
                      <td>
                        <div className="row-actions">
                          {!self && (m.role !== 'OWNER' || owners > 1) && (me.role === 'OWNER' || m.role !== 'OWNER') && (
                            <button type="button" className="secondary" onClick={() => void removeOne(m.id, m.email)} disabled={removing.fetching}>
                              Remove
                            </button>
                          )}
                          {me.role === 'OWNER' && !self && m.role !== 'OWNER' && (
                            <button type="button" className="secondary" onClick={() => void transferTo(m.id, m.email)} disabled={transferring.fetching}>
                              Make owner
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
      <ErrorText error={changing.error ?? removing.error ?? transferring.error} />
      <Invitations manage={manage} roles={roles} />
    </section>
  );
}
