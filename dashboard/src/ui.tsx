import { useState, type ReactNode } from 'react';
import { ApiError, toApiError } from './session';
import { BASE, navigate } from './router';

/** The codes a person should read in other words than the API's. */
const PLAIN: Record<string, string> = {
  INVALID_CLIENT: 'That email and password do not match. Check them and try again.',
  INVALID_TOKEN: 'Your session has ended. Sign in again.',
  RATE_LIMITED: 'Too many requests just now. Wait a minute and try again.',
  SERVER_ERROR: 'The service could not do that just now. Try again in a moment.',
};

/**
 * An error in plain words (an ApiError, or a data hook's urql error in the API's terms); a field-level
 * API error lists its fields; `showCode` adds the API's code (for a developer to look up).
 */
export function ErrorText({ error, showCode = false }: { error: unknown; showCode?: boolean }) {
  if (!error) return null;
  const known = toApiError(error);
  const api = known instanceof ApiError ? known : null;
  return (
    <div className="error" role="alert">
      <p>
        {api ? (PLAIN[api.code] ?? api.message) : 'Something went wrong. Check your connection and try again.'}
        {api && showCode && (
          <>
            {' '}
            <code data-testid="error-code">{api.code}</code>
          </>
        )}
      </p>
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

/** A list with nothing to show: what is missing, why, and what to do (a link or a button in `action`). */
export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="empty-state" role="status">
      <svg viewBox="0 0 40 40" width="40" height="40" aria-hidden="true">
        <rect x="6" y="9" width="28" height="22" rx="3" />
        <path d="M6 16h28M12 23h10M12 27h6" />
      </svg>
      <p className="empty-title">{title}</p>
      {children && <p className="muted">{children}</p>}
      {action}
    </div>
  );
}

/** Hands a Blob to the browser as a download named `filename`. */
export function saveFile(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  // The download has its own copy by then; the URL is let go a little later.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

/** An in-app link: a real <a href>, so it opens in a new tab too, navigated without a reload; `current` marks the page it is on. */
export function Link({ to, children, current = false }: { to: string; children: ReactNode; current?: boolean }) {
  return (
    <a
      href={`${BASE}${to}`}
      aria-current={current ? 'page' : undefined}
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

/** A date input's day, as the start of that day in the browser's time zone. */
export const dayStart = (day: string) => (day ? new Date(`${day}T00:00:00`).toISOString() : null);
/** The start of the day after (an inclusive "to" day as an exclusive bound). */
export const dayAfter = (day: string) => (day ? new Date(new Date(`${day}T00:00:00`).getTime() + 86_400_000).toISOString() : null);
/** A date input's value (YYYY-MM-DD, the browser's time zone) for a time. */
export const dateValue = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** Times in the browser's own locale and time zone (never a fixed format): "27 Nov 2026, 14:05" in en-GB. */
const DATE_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const DATE_TIME_SECONDS = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
export const when = (iso: string | null | undefined) => (iso ? DATE_TIME.format(new Date(iso)) : '—');
/** With seconds, where they matter (a delivery attempt, a status change). */
export const whenExactly = (iso: string | null | undefined) => (iso ? DATE_TIME_SECONDS.format(new Date(iso)) : '—');
export const words = (value: string | null | undefined) => (value ? value.toLowerCase().replace(/_/g, ' ') : '—');

export function StatusBadge({ status }: { status: string | null | undefined }) {
  return <span className={`badge badge-${(status ?? 'none').toLowerCase()}`}>{words(status)}</span>;
}

let seq = 0;
/** A new reference of your own (test data, a refund): unique in this tab, and unlikely to repeat across tabs. */
export const newReference = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}-${++seq}`;

/** Copies `value` to the clipboard, and says whether it could. */
export function CopyButton({ value, label = 'Copy', name }: { value: string; label?: string; name?: string }) {
  const [said, setSaid] = useState('');
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setSaid('Copied.');
    } catch {
      setSaid('Could not copy: select it and copy it yourself.');
    }
  }
  return (
    <>
      <button type="button" className="secondary" onClick={() => void copy()} aria-label={name}>
        {label}
      </button>
      <span role="status" className="muted">
        {said}
      </span>
    </>
  );
}

/**
 * Secrets shown this once (a client secret, a webhook secret, recovery codes): each with a copy
 * button, until the person says they stored them. Nothing here keeps them once it is gone.
 */
export function ShownOnce({
  title,
  children,
  secrets,
  done = 'I have saved it',
  onDone,
}: {
  title: string;
  children?: ReactNode;
  secrets: Array<{ label: string; value: string; testId: string }>;
  done?: string;
  onDone: () => void;
}) {
  return (
    <div className="secret" role="region" aria-label={title}>
      <p>
        <strong>{title}.</strong> {children ?? 'It is shown only now: store it somewhere safe.'}
      </p>
      {secrets.map((s) => (
        <div key={s.testId} className="secret-value">
          <span className="muted">{s.label}</span>
          <code data-testid={s.testId}>{s.value}</code>
          <CopyButton value={s.value} name={`Copy the ${s.label.toLowerCase().replace(' id', ' ID')}`} />
        </div>
      ))}
      <div className="actions">
        <button type="button" onClick={onDone}>
          {done}
        </button>
      </div>
    </div>
  );
}
