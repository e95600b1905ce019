import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { ApiError } from './session';
import { navigate } from './router';

/** The codes a person should read in other words than the API's. */
const PLAIN: Record<string, string> = {
  INVALID_CLIENT: 'That client ID and secret do not match. Check them and try again.',
  INVALID_TOKEN: 'Your session has ended. Sign in again.',
  RATE_LIMITED: 'Too many requests just now. Wait a minute and try again.',
  SERVER_ERROR: 'The service could not do that just now. Try again in a moment.',
};

/** An error in plain words; a field-level API error lists its fields. */
export function ErrorText({ error }: { error: unknown }) {
  if (!error) return null;
  const api = error instanceof ApiError ? error : null;
  return (
    <div className="error" role="alert">
      <p>{api ? (PLAIN[api.code] ?? api.message) : 'Something went wrong. Check your connection and try again.'}</p>
      {api && api.details.length > 0 && (
        <ul>
          {api.details.map((d) => (
            <li key={d.field}>
              <code>{d.field}</code> {d.issue}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Loads with `load` (again when `deps` change); `reload` repeats it. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]) {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const run = useCallback(load, deps);
  const reload = useCallback(() => {
    setState((s) => ({ ...s, loading: true }));
    run().then(
      (data) => setState({ data, loading: false }),
      (error: unknown) => setState({ error, loading: false }),
    );
  }, [run]);
  useEffect(reload, [reload]);
  return { ...state, reload, set: (data: T) => setState({ data, loading: false }) };
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="muted" role="status">
      Loading {what}…
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

/** An in-app link: a real <a href>, so it opens in a new tab too, navigated without a reload. */
export function Link({ to, children }: { to: string; children: ReactNode }) {
  return (
    <a
      href={`/dashboard${to}`}
      onClick={(e) => {
        if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
        e.preventDefault();
        navigate(to);
      }}
    >
      {children}
    </a>
  );
}

export const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '—');
export const words = (value: string | null | undefined) => (value ? value.toLowerCase().replace(/_/g, ' ') : '—');

export function StatusBadge({ status }: { status: string | null | undefined }) {
  return <span className={`badge badge-${(status ?? 'none').toLowerCase()}`}>{words(status)}</span>;
}
