import { useEffect, useState, type FormEvent } from 'react';
import { forgotPassword, resetPassword, takeLinkToken, verifyEmail } from '../account';
import { signedIn } from '../session';
import { ErrorText, Link } from '../ui';

/** Forgot password: the same answer whether or not the email has an account. */
export function ForgotPassword() {
  const [error, setError] = useState<unknown>(null);
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await forgotPassword(String(new FormData(e.currentTarget).get('email')).trim());
      setSent(true);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="signin">
      <h1>Reset your password</h1>
      {sent ? (
        <p role="status">If that email has an account, a link to choose a new password is on its way. It works once, within an hour.</p>
      ) : (
        <form onSubmit={submit} aria-label="Forgot password">
          <p className="muted">We will email you a link to choose a new password.</p>
          <label>
            Email
            <input name="email" type="email" autoComplete="username" required spellCheck={false} />
          </label>
          <button type="submit" disabled={busy}>
            {busy ? 'Sending…' : 'Send the link'}
          </button>
          <ErrorText error={error} />
        </form>
      )}
      <p className="links">
        <Link to="/">Back to sign-in</Link>
      </p>
    </main>
  );
}

/** Reset password, from the emailed link (its token read from the URL, then dropped from it). */
export function ResetPassword() {
  const [token] = useState(takeLinkToken);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await resetPassword(token, String(new FormData(e.currentTarget).get('password')));
      setDone(true);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="signin">
      <h1>Choose a new password</h1>
      {!token ? (
        <p className="error" role="alert">
          This link has no token. Open the link from the email again, or ask for a new one.
        </p>
      ) : done ? (
        <p role="status">Your password is changed, and every session of your account has ended. Sign in with the new password.</p>
      ) : (
        <form onSubmit={submit} aria-label="Reset password">
          <label>
            New password (at least 10 characters, not your email)
            <input name="password" type="password" autoComplete="new-password" required minLength={10} />
          </label>
          <button type="submit" disabled={busy}>
            {busy ? 'Saving…' : 'Set password'}
          </button>
          <ErrorText error={error} />
        </form>
      )}
      <p className="links">
        <Link to="/">Sign in</Link>
        {!done && <Link to="/forgot-password">Ask for a new link</Link>}
      </p>
    </main>
  );
}

/** Verify email: the emailed link's landing page; verifies at once. */
export function VerifyEmail() {
  const [token] = useState(takeLinkToken);
  const [state, setState] = useState<'verifying' | 'verified' | { error: unknown }>('verifying');

  useEffect(() => {
    if (!token) return;
    let shown = true;
    verifyEmail(token).then(
      () => shown && setState('verified'),
      (error: unknown) => shown && setState({ error }),
    );
    return () => {
      shown = false;
    };
  }, [token]);

  return (
    <main className="signin">
      <h1>Confirm your email</h1>
      {!token ? (
        <p className="error" role="alert">
          This link has no token. Open the link from the email again.
        </p>
      ) : state === 'verifying' ? (
        <p role="status">Confirming…</p>
      ) : state === 'verified' ? (
        <p role="status">Your email is confirmed.</p>
      ) : (
        <>
          <ErrorText error={state.error} />
          <p className="muted">The link may have been used already, or expired: sign in and ask for a new one from the banner.</p>
        </>
      )}
      <p className="links">
        <Link to="/">{signedIn() ? 'Open the dashboard' : 'Sign in'}</Link>
      </p>
    </main>
  );
}
