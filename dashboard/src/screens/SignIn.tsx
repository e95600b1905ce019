import { useState, type FormEvent } from 'react';
import { signIn } from '../session';
import { ErrorText } from '../ui';

export function SignIn() {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    try {
      await signIn(String(form.get('clientId')).trim(), String(form.get('clientSecret')));
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  }

  return (
    <main className="signin">
      <h1>Merchant dashboard</h1>
      <p className="muted">
        Sign in with your API credentials. The secret is sent once and kept nowhere; you stay signed in until you sign out or close the browser.
      </p>
      <form onSubmit={submit} aria-label="Sign in">
        <label>
          Client ID
          <input name="clientId" autoComplete="username" required spellCheck={false} />
        </label>
        <label>
          Client secret
          <input name="clientSecret" type="password" autoComplete="current-password" required />
        </label>
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        {error ? <ErrorText error={error} /> : null}
      </form>
    </main>
  );
}
