import { useEffect, useState, type FormEvent } from 'react';
import { acceptInvitation, previewInvitation, takeLinkToken, type InvitationPreview } from '../account';
import { navigate } from '../router';
import { needsCode, signIn } from '../session';
import { ErrorText, Link, Loading, words } from '../ui';

/**
 * An invitation's link: who invites you, as what; then a name and a password for a new account, or
 * your existing account's password. Accepting signs you in at that merchant.
 */
export function AcceptInvitation() {
  const [token] = useState(takeLinkToken);
  const [preview, setPreview] = useState<InvitationPreview | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!token) return;
    let shown = true;
    previewInvitation(token).then(
      (p) => shown && setPreview(p),
      (err: unknown) => shown && setLoadError(err),
    );
    return () => {
      shown = false;
    };
  }, [token]);

  /** After joining: sign in at that merchant (a member with 2FA types a code first). */
  const [joined, setJoined] = useState<{ email: string; password: string; merchantId: string } | null>(null);

  async function enter(who: { email: string; password: string; merchantId: string }, code?: string) {
    try {
      await signIn(who.email, who.password, code, who.merchantId);
      navigate('/');
    } catch (err) {
      if (!code && needsCode(err)) setJoined(who);
      else setError(err);
      setBusy(false);
    }
  }

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    if (joined) return void enter(joined, String(f.get('code')).replace(/\s+/g, ''));
    const password = String(f.get('password'));
    try {
      const name = f.get('name');
      const accepted = await acceptInvitation(token, password, name ? String(name).trim() : undefined);
      if (accepted.signedIn) return navigate('/');
      await enter({ email: accepted.email || preview!.email, password, merchantId: accepted.merchantId });
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  }

  return (
    <main className="signin">
      <h1>Join a team</h1>
      {!token ? (
        <p className="error" role="alert">
          This link has no token. Open the link from the invitation email again.
        </p>
      ) : loadError ? (
        <>
          <ErrorText error={loadError} />
          <p className="muted">The invitation may have expired, been revoked or accepted already: ask whoever invited you to send it again.</p>
        </>
      ) : !preview ? (
        <Loading what="the invitation" />
      ) : joined ? (
        <form onSubmit={submit} aria-label="Two-factor code" key="code">
          <p>You joined {preview.merchantName}. Enter the 6-digit code your authenticator app shows (or a recovery code) to sign in.</p>
          <label>
            Authentication code
            <input name="code" autoComplete="one-time-code" required spellCheck={false} autoFocus />
          </label>
          <button type="submit" disabled={busy}>
            {busy ? 'Checking…' : 'Sign in'}
          </button>
          <ErrorText error={error} />
        </form>
      ) : (
        <form onSubmit={submit} aria-label="Accept invitation">
          <p>
            <strong>{preview.merchantName}</strong> invites <strong>{preview.email}</strong> to join as <strong>{words(preview.role)}</strong>.
          </p>
          {preview.existingUser ? (
            <label>
              Your password (you already have an account)
              <input name="password" type="password" autoComplete="current-password" required />
            </label>
          ) : (
            <>
              <label>
                Your name
                <input name="name" autoComplete="name" required />
              </label>
              <label>
                Choose a password (at least 10 characters, not your email)
                <input name="password" type="password" autoComplete="new-password" required minLength={10} />
              </label>
            </>
          )}
          <button type="submit" disabled={busy}>
            {busy ? 'Joining…' : 'Accept and sign in'}
          </button>
          <ErrorText error={error} />
        </form>
      )}
      <p className="links">
        <Link to="/">Sign in instead</Link>
      </p>
    </main>
  );
}
