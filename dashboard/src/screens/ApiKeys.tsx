import { useState, type FormEvent } from 'react';
import { useCan } from '../access';
import { useMutation, useQuery } from '../data';
import { graphql } from '../generated';
import type { KeyRole } from '../generated/graphql';
import { EmptyState, ErrorText, Loading, ShownOnce, StatusBadge, when, words } from '../ui';

const KEYS = graphql(`
  query ApiKeys {
    apiKeys {
      id
      label
      role
      clientId
      createdAt
      createdBy
      lastUsedAt
      revokedAt
    }
  }
`);
const CREATE = graphql(`
  mutation CreateApiKey($label: String!, $role: KeyRole) {
    createApiKey(label: $label, role: $role) {
      apiKey {
        id
        clientId
      }
      clientSecret
    }
  }
`);
const ROTATE = graphql(`
  mutation RotateApiKey($id: ID!) {
    rotateApiKey(id: $id) {
      apiKey {
        id
        clientId
      }
      clientSecret
    }
  }
`);
const REVOKE = graphql(`
  mutation RevokeApiKey($id: ID!) {
    revokeApiKey(id: $id) {
      id
      revokedAt
    }
  }
`);

/** The roles a key may have; developer by default (everything the payments API offers). */
const KEY_ROLES: Array<{ role: KeyRole; hint: string }> = [
  { role: 'DEVELOPER', hint: 'the whole payments API' },
  { role: 'FINANCE', hint: 'balances, statements and refunds' },
  { role: 'SUPPORT', hint: 'transactions and customers, read only' },
  { role: 'VIEWER', hint: 'transactions and balances, read only' },
];

/**
 * API keys: client credentials for your integration, each with a label and a role. A secret is
 * shown once (at creation or rotation); a revoked key stops working at once.
 */
export function ApiKeys() {
  const can = useCan();
  const [{ data, error }, reread] = useQuery({ query: KEYS, pause: !can('keys:manage') });
  const [creating, create] = useMutation(CREATE);
  const [rotating, rotate] = useMutation(ROTATE);
  const [revoking, revoke] = useMutation(REVOKE);
  /** A new secret, until "I have saved it". */
  const [shown, setShown] = useState<{ title: string; clientId: string; secret: string } | null>(null);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    const res = await create({ label: String(f.get('label')).trim(), role: String(f.get('role')) as KeyRole });
    if (!res.data) return;
    const made = res.data.createApiKey;
    setShown({ title: 'Your new API key', clientId: made.apiKey.clientId, secret: made.clientSecret });
    form.reset();
    reread();
  }
  async function rotateOne(id: string, label: string) {
    if (!confirm(`Rotate “${label}”? Its current secret stops working at once.`)) return;
    const res = await rotate({ id });
    if (!res.data) return;
    const made = res.data.rotateApiKey;
    setShown({ title: `A new secret for “${label}”`, clientId: made.apiKey.clientId, secret: made.clientSecret });
    reread();
  }
  async function revokeOne(id: string, clientId: string, label: string) {
    if (!confirm(`Revoke “${label}”? Every integration using it stops working at once. This cannot be undone.`)) return;
    if (!(await revoke({ id })).data) return;
    if (shown?.clientId === clientId) setShown(null); // a secret that no longer works
    reread();
  }

  if (!can('keys:manage'))
    return (
      <section aria-labelledby="keys-title">
        <h2 id="keys-title">API keys</h2>
        <EmptyState title="Your role does not manage API keys">Owners, admins and developers create, rotate and revoke keys.</EmptyState>
      </section>
    );

  return (
    <section aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      <p className="muted">Your integration signs in with a key’s client ID and secret. Give each integration its own key, with the narrowest role it needs.</p>
      {shown && (
        <ShownOnce
          title={shown.title}
          secrets={[
            { label: 'Client ID', value: shown.clientId, testId: 'new-client-id' },
            { label: 'Client secret', value: shown.secret, testId: 'new-secret' },
          ]}
          onDone={() => setShown(null)}
        >
          The secret is shown only now, never again: store it where your integration reads it.
        </ShownOnce>
      )}
      <form className="inline" onSubmit={submit} aria-label="Create an API key">
        <label>
          Label
          <input name="label" required maxLength={100} placeholder="e.g. Checkout server" autoComplete="off" />
        </label>
        <label>
          Role
          <select name="role" defaultValue="DEVELOPER">
            {KEY_ROLES.map((k) => (
              <option key={k.role} value={k.role}>
                {words(k.role)}: {k.hint}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={creating.fetching}>
          {creating.fetching ? 'Creating…' : 'Create key'}
        </button>
        <ErrorText error={creating.error} />
      </form>
      <ErrorText error={error ?? rotating.error ?? revoking.error} />
      {!data && !error && <Loading what="your keys" />}
      {data?.apiKeys.length === 0 && <EmptyState title="No API keys">Create one above for your integration.</EmptyState>}
      {data && data.apiKeys.length > 0 && (
        <div className="table-card scroll">
          <table className="list" aria-label="API keys">
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Role</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.apiKeys.map((k) => (
                <tr key={k.id} data-key={k.clientId}>
                  <td>
                    {k.label} {k.revokedAt && <StatusBadge status="revoked" />}
                    <span className="sub mono">{k.clientId}</span>
                  </td>
                  <td>{words(k.role)}</td>
                  <td>
                    {when(k.createdAt)}
                    {k.createdBy && <span className="sub">by {k.createdBy}</span>}
                  </td>
                  <td>{k.revokedAt ? `revoked ${when(k.revokedAt)}` : when(k.lastUsedAt)}</td>
                  <td>
                    <div className="row-actions">
                      {!k.revokedAt && (
                        <>
                          <button type="button" className="secondary" onClick={() => void rotateOne(k.id, k.label)} disabled={rotating.fetching}>
                            Rotate
                          </button>
                          <button type="button" className="secondary" onClick={() => void revokeOne(k.id, k.clientId, k.label)} disabled={revoking.fetching}>
                            Revoke
                          </button>
                        </>
                      )}
                    </div>
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
