import { useState, type FormEvent } from 'react';
import { useMe } from '../access';
import { useMutation, useQuery } from '../data';
import { graphql } from '../generated';
import { EmptyState, ErrorText, Loading, when, words } from '../ui';
import { TwoFactorCard } from './TwoFactor';

const SESSIONS = graphql(`
  query MySessions {
    mySessions {
      id
      userAgent
      ip
      createdAt
      lastSeenAt
      current
    }
  }
`);
const END = graphql(`
  mutation EndSession($id: ID!) {
    endSession(id: $id)
  }
`);
const END_OTHERS = graphql(`
  mutation EndOtherSessions {
    endOtherSessions
  }
`);
const CHANGE_PASSWORD = graphql(`
  mutation ChangePassword($currentPassword: String!, $newPassword: String!) {
    changePassword(currentPassword: $currentPassword, newPassword: $newPassword)
  }
`);

/** A browser's user agent as a person reads it: "Chrome on Linux", or what it says. */
function device(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : null;
  const os = /Windows/.test(userAgent)
    ? 'Windows'
    : /Android/.test(userAgent)
      ? 'Android'
      : /iPhone|iPad/.test(userAgent)
        ? 'iOS'
        : /Mac OS X/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : null;
  return browser ? `${browser}${os ? ` on ${os}` : ''}` : userAgent.slice(0, 60);
}

/** Where you are signed in: each session's device, address and last use; end one, or all the others. */
function Sessions() {
  const [{ data, error }, reread] = useQuery({ query: SESSIONS });
  const [ending, end] = useMutation(END);
  const [endingOthers, endOthers] = useMutation(END_OTHERS);
  const [said, setSaid] = useState('');

  async function endOne(id: string) {
    if ((await end({ id })).data) reread();
  }
  async function endAll() {
    if (!confirm('Sign out everywhere else?')) return;
    const res = await endOthers({});
    if (!res.data) return;
    setSaid(`${res.data.endOtherSessions} other session${res.data.endOtherSessions === 1 ? '' : 's'} ended.`);
    reread();
  }

  if (error) return <ErrorText error={error} />;
  if (!data) return <Loading what="your sessions" />;
  const others = data.mySessions.filter((s) => !s.current).length;
  return (
    <>
      <div className="table-card">
        <table className="list" aria-label="Sessions">
          <thead>
            <tr>
              <th scope="col">Device</th>
              <th scope="col">Address</th>
              <th scope="col">Last seen</th>
              <th scope="col">Signed in</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.mySessions.map((s) => (
              <tr key={s.id} data-session={s.id}>
                <td title={s.userAgent ?? undefined}>
                  {device(s.userAgent)} {s.current && <span className="badge badge-successful">this browser</span>}
                </td>
                <td className="mono">{s.ip ?? '—'}</td>
                <td>{when(s.lastSeenAt)}</td>
                <td>{when(s.createdAt)}</td>
                <td>
                  {!s.current && (
                    <button type="button" className="secondary" onClick={() => void endOne(s.id)} disabled={ending.fetching}>
                      End
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {others === 0 ? (
        <EmptyState title="Signed in nowhere else">Sessions in other browsers appear here, with where they came from.</EmptyState>
      ) : (
        <button type="button" className="secondary" onClick={() => void endAll()} disabled={endingOthers.fetching}>
          End all other sessions
        </button>
      )}
      <p role="status" className="muted">
        {said}
      </p>
      <ErrorText error={ending.error ?? endingOthers.error} />
    </>
  );
}

function ChangePassword() {
  const [changing, change] = useMutation(CHANGE_PASSWORD);
  const [mismatch, setMismatch] = useState(false);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    const newPassword = String(f.get('newPassword'));
    setMismatch(newPassword !== String(f.get('repeat')));
    if (newPassword !== String(f.get('repeat'))) return;
    if ((await change({ currentPassword: String(f.get('currentPassword')), newPassword })).data) form.reset();
  }

  return (
    <form className="card" onSubmit={submit} aria-labelledby="pw-title">
      <h3 id="pw-title">Password</h3>
      <label>
        Current password
        <input name="currentPassword" type="password" autoComplete="current-password" required />
      </label>
      <label>
        New password (at least 10 characters, not your email)
        <input name="newPassword" type="password" autoComplete="new-password" required minLength={10} />
      </label>
      <label>
        New password again
        <input name="repeat" type="password" autoComplete="new-password" required minLength={10} />
      </label>
      <button type="submit" disabled={changing.fetching}>
        {changing.fetching ? 'Saving…' : 'Change password'}
      </button>
      <p role="status" className="muted">
        {changing.data ? 'Password changed. Your other sessions have ended.' : ''}
      </p>
      {mismatch && (
        <div className="error" role="alert">
          <p>The two new passwords differ.</p>
        </div>
      )}
      <ErrorText error={changing.error} />
    </form>
  );
}

/** Your own account: who you are here, your password, 2FA, and where you are signed in. */
export function Profile() {
  const me = useMe();
  return (
    <section aria-labelledby="profile-title">
      <h2 id="profile-title">Profile</h2>
      {me.user && (
        <dl className="facts">
          <div>
            <dt>Name</dt>
            <dd>{me.user.name}</dd>
          </div>
          <div>
            <dt>Email</dt>
            <dd>
              {me.user.email} {me.user.emailVerified ? '' : <span className="badge badge-pending">not confirmed</span>}
            </dd>
          </div>
          <div>
            <dt>Role at {me.merchantName}</dt>
            <dd>{words(me.role)}</dd>
          </div>
        </dl>
      )}
      <div className="grid profile-grid">
        <ChangePassword />
        <TwoFactorCard />
      </div>
      <h3>Sessions</h3>
      <Sessions />
    </section>
  );
}
