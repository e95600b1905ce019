import { useState, type FormEvent } from 'react';
import { signUp, type SignUpAnswer } from '../account';
import { navigate } from '../router';
import { adopt } from '../session';
import { ErrorText, Link, ShownOnce } from '../ui';

/**
 * Sign-up: a sandbox merchant with its owner (you) and its first API key. The key's secret and the
 * webhook signing secret are shown once, here; the dashboard opens when you say you stored them.
 * A verification email is on its way meanwhile.
 */
export function SignUp() {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [made, setMade] = useState<SignUpAnswer | null>(null);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    try {
      setMade(
        await signUp({
          email: String(f.get('email')).trim(),
          name: String(f.get('name')).trim(),
          businessName: String(f.get('businessName')).trim(),
          country: String(f.get('country')).trim().toUpperCase(),
          password: String(f.get('password')),
        }),
      );
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  if (made)
    return (
      <main className="signin">
        <h1>Your merchant is ready</h1>
        <p className="muted">
          We sent you an email to confirm your address. Your API key is below: <code>{made.clientId}</code> is its client ID.
        </p>
        <ShownOnce
          title="Your API secrets"
          secrets={[
            { label: 'Client secret', value: made.clientSecret, testId: 'client-secret' },
            { label: 'Webhook secret', value: made.webhookSecret, testId: 'webhook-secret' },
          ]}
          done="I have saved them"
          onDone={() => {
            navigate('/');
            adopt(made.session);
          }}
        >
          They are shown only now, never again: store them where your integration reads them. (You can make new keys later, under API keys.)
        </ShownOnce>
      </main>
    );

  return (
    <main className="signin">
      <h1>Create your account</h1>
      <p className="muted">A sandbox merchant to build against, with test money and simulated outcomes. You will be its owner.</p>
      <form onSubmit={submit} aria-label="Sign up">
        <label>
          Email
          <input name="email" type="email" autoComplete="email" required spellCheck={false} />
        </label>
        <label>
          Your name
          <input name="name" autoComplete="name" />
        </label>
        <label>
          Business name
          <input name="businessName" autoComplete="organization" required />
        </label>
        <label>
          Country (two letters, e.g. NG)
          <input name="country" autoComplete="country" required minLength={2} maxLength={2} pattern="[A-Za-z]{2}" spellCheck={false} />
        </label>
        <label>
          Password (at least 10 characters, not your email)
          <input name="password" type="password" autoComplete="new-password" required minLength={10} />
        </label>
        <button type="submit" disabled={busy}>
          {busy ? 'Creating…' : 'Create account'}
        </button>
        <ErrorText error={error} />
      </form>
      <p className="links">
        <Link to="/">Already have an account? Sign in</Link>
      </p>
    </main>
  );
}
