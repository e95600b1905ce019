import { useState, type FormEvent } from 'react';
import { ApiError, needsCode, signIn } from '../session';
import { ErrorText, Link } from '../ui';

/**
 * Sign-in as a person: email and password, then (for a member with 2FA, once the password was right)
 * a code from their authenticator app or one of their recovery codes. Nothing is kept but the
 * session's access token, in memory.
 */
const WRONG_CODE = new ApiError('That code did not work (a code works once, for about 30 seconds). Try the next one, or a recovery code.', 'WRONG_CODE');

export function SignIn() {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  /** The email and password, held while the second factor is asked for. */
  const [pending, setPending] = useState<{ email: string; password: string } | null>(null);

  async function attempt(email: string, password: string, code?: string) {
    setBusy(true);
    setError(null);
    try {
      await signIn(email, password, code);
    } catch (err) {
      if (!code && needsCode(err)) setPending({ email, password });
      // The password was right: a refusal now is the code's.
      else if (code && err instanceof ApiError && err.code === 'INVALID_CLIENT') setError(WRONG_CODE);
      // Production: the right password, an email not yet confirmed. The service's own words (not "do not match").
      else if (err instanceof ApiError && err.code === 'INVALID_CLIENT' && /verify|confirm/i.test(err.message))
        setError(new ApiError(err.message, 'EMAIL_UNVERIFIED'));
      else setError(err);
      setBusy(false);
    }
  }

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    if (pending) void attempt(pending.email, pending.password, String(form.get('code')).replace(/\s+/g, ''));
    else void attempt(String(form.get('email')).trim(), String(form.get('password')));
  }

  return (
    <main className="signin">
      <h1>Merchant dashboard</h1>
      {pending ? (
        <form onSubmit={submit} aria-label="Two-factor code" key="code">
          <p className="muted">Enter the 6-digit code your authenticator app shows for {pending.email}, or one of your recovery codes.</p>
          <label>
            Authentication code
            <input name="code" autoComplete="one-time-code" inputMode="text" required spellCheck={false} autoFocus />
          </label>
          <button type="submit" disabled={busy}>
            {busy ? 'Checking…' : 'Verify'}
          </button>{' '}
          <button
            type="button"
            className="secondary"
            onClick={() => {
              setPending(null);
              setError(null);
            }}
          >
            Back
          </button>
          {error ? <ErrorText error={error} /> : null}
        </form>
      ) : (
        <form onSubmit={submit} aria-label="Sign in" key="password">
          <p className="muted">Sign in with your email and password. You stay signed in until you sign out or close the browser.</p>
          <label>
            Email
            <input name="email" type="email" autoComplete="username" required spellCheck={false} />
          </label>
          <label>
            Password
            <input name="password" type="password" autoComplete="current-password" required />
          </label>
          <button type="submit" disabled={busy}>
            {busy ? 'Signing in…' : 'Sign in'}
          </button>
          {error ? <ErrorText error={error} /> : null}
        </form>
      )}
      <p className="links">
        <Link to="/forgot-password">Forgot your password?</Link>
        <Link to="/sign-up">Create an account</Link>
      </p>
    </main>
  );
}
