import { useEffect, useState } from 'react';
import { useCan } from '../access';
import { usePages, useQuery } from '../data';
import { graphql } from '../generated';
import type { AuditLogEntryFieldsFragment, AuditLogFilter } from '../generated/graphql';
import { fetchFile } from '../session';
import { EmptyState, ErrorText, Loading, dayAfter, dayStart, saveFile, whenExactly, words } from '../ui';
import { AUDIT_LOG_ACTIONS as ACTIONS } from '../audit-actions';

const PAGE_SIZE = 50;
/** How long typing rests before the actor filter applies. */
const TYPING_DELAY_MS = 300;

graphql(`
  fragment AuditLogEntryFields on AuditLogEntry {
    id
    createdAt
    action
    actorType
    actorId
    actorLabel
    role
    targetType
    targetId
    ip
    userAgent
    before
    after
  }
`);
const LIST = graphql(`
  query AuditLog($filter: AuditLogFilter, $first: Int, $after: String) {
    auditLog(filter: $filter, first: $first, after: $after) {
      edges {
        node {
          ...AuditLogEntryFields
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

/** The team's people, to name a member by email (an entry keeps their id). */
const PEOPLE = graphql(`
  query AuditLogPeople {
    teamMembers {
      userId
      email
    }
  }
`);

/** Who did it, as a reader recognises them: a member's email, a key's client ID, the CLI; else the id. */
const actorOf = (e: AuditLogEntryFieldsFragment, emails: Map<string, string>) =>
  (e.actorType === 'USER' && e.actorId ? emails.get(e.actorId) : undefined) ?? e.actorLabel ?? e.actorId ?? words(e.actorType);
const ACTOR_KINDS: Record<string, string> = { user: 'member', api_key: 'API key', operator: 'operator', system: 'the service' };

/** What changed, when the entry says (secrets are redacted by the service). */
function Change({ entry }: { entry: AuditLogEntryFieldsFragment }) {
  if (!entry.before && !entry.after) return null;
  return (
    <details>
      <summary>Change</summary>
      <pre className="scroll">{JSON.stringify({ before: entry.before, after: entry.after }, null, 2)}</pre>
    </details>
  );
}

/** The audit log: who did what, when and from where; filters, paging and a CSV export. */
export function AuditLog() {
  const [typed, setTyped] = useState('');
  const [actor, setActor] = useState('');
  const [action, setAction] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<unknown>(null);
  const [announce, setAnnounce] = useState('');

  useEffect(() => {
    const timer = setTimeout(() => setActor(typed.trim()), TYPING_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  const filter: AuditLogFilter = { actor: actor || null, action: action || null, from: dayStart(from), to: dayAfter(to) };
  const { rows, error, loadMore } = usePages({ query: LIST, variables: { filter, first: PAGE_SIZE } }, (data) => data.auditLog);
  const filtered = Boolean(actor || action || from || to);
  const can = useCan();
  const [{ data: people }] = useQuery({ query: PEOPLE, pause: !can('team:read') });
  const emails = new Map((people?.teamMembers ?? []).map((m) => [m.userId, m.email]));

  /** The whole filtered log as the service writes it: GET /v1/audit-logs/export.csv, with the token in a header. */
  async function exportCsv() {
    setExportError(null);
    setExporting(true);
    try {
      const query = new URLSearchParams();
      if (filter.actor) query.set('actor', filter.actor);
      if (filter.action) query.set('action', filter.action);
      if (filter.from) query.set('from', filter.from);
      if (filter.to) query.set('to', filter.to);
      const { blob, filename } = await fetchFile(`/v1/audit-logs/export.csv${query.size ? `?${query}` : ''}`);
      saveFile(blob, filename);
      setAnnounce(`Downloaded ${filename}.`);
    } catch (err) {
      setExportError(err);
    } finally {
      setExporting(false);
    }
  }

  return (
    <section aria-labelledby="audit-title">
      <div className="page-head">
        <h2 id="audit-title">Audit log</h2>
        <button type="button" className="secondary" onClick={() => void exportCsv()} disabled={exporting}>
          {exporting ? 'Exporting…' : 'Export CSV'}
        </button>
      </div>
      <p className="muted">Every security-relevant action, by members, API keys and operators. Entries can be neither changed nor deleted.</p>
      <form className="filters" role="search" aria-label="Filter the audit log" onSubmit={(e) => e.preventDefault()}>
        <label className="search">
          Actor
          <input
            type="search"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            placeholder="A member’s or key’s id, or a client ID"
            spellCheck={false}
            autoComplete="off"
          />
        </label>
        <label>
          Action
          <select value={action} onChange={(e) => setAction(e.target.value)}>
            <option value="">All</option>
            {ACTIONS.map((a) => (
              <option key={a}>{a}</option>
            ))}
          </select>
        </label>
        <label>
          From
          <input type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
        </label>
        <label>
          To
          <input type="date" value={to} onChange={(e) => setTo(e.target.value)} />
        </label>
      </form>
      <p className="sr-only" aria-live="polite">
        {announce}
      </p>
      <ErrorText error={exportError} />
      <ErrorText error={error} />
      {rows === null && !error && <Loading what="the audit log" />}
      {rows?.length === 0 && (
        <EmptyState title={filtered ? 'No entries match these filters' : 'No entries yet'}>
          Sign-ins, team changes and key changes are recorded here.
        </EmptyState>
      )}
      {rows && rows.length > 0 && (
        <div className="table-card scroll">
          <table className="list audit" aria-labelledby="audit-title">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Actor</th>
                <th scope="col">Action</th>
                <th scope="col">Target</th>
                <th scope="col">From</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((e) => (
                <tr key={e.id} data-action={e.action}>
                  <td>{whenExactly(e.createdAt)}</td>
                  <td>
                    {actorOf(e, emails)}
                    <span className="sub">
                      {ACTOR_KINDS[e.actorType.toLowerCase()] ?? words(e.actorType)}
                      {e.role ? ` · ${e.role}` : ''}
                    </span>
                  </td>
                  <td>
                    <code className="event-type">{e.action}</code>
                    <Change entry={e} />
                  </td>
                  <td>{e.targetType ? <span className="sub mono">{`${e.targetType} ${e.targetId ?? ''}`}</span> : '—'}</td>
                  <td>
                    <span className="mono">{e.ip ?? '—'}</span>
                    {e.userAgent && (
                      <span className="sub" title={e.userAgent}>
                        {e.userAgent}
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {loadMore && (
        <button type="button" className="secondary load-more" onClick={loadMore}>
          Load more
        </button>
      )}
    </section>
  );
}
