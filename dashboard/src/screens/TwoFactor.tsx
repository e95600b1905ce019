import { useState, type FormEvent } from 'react';
import { useMe } from '../access';
import { useMutation } from '../data';
import { graphql } from '../generated';
import type { BeginTwoFactorMutation } from '../generated/graphql';
import { refreshNow, signOut } from '../session';
import { CopyButton, ErrorText } from '../ui';

const BEGIN = graphql(`
  mutation BeginTwoFactor {
    beginTwoFactorEnrolment {
      secret
      otpauthUri
      qrSvg
    }
  }
`);
const CONFIRM = graphql(`
  mutation ConfirmTwoFactor($code: String!) {
    confirmTwoFactor(code: $code)
  }
`);
const DISABLE = graphql(`
  mutation DisableTwoFactor($password: String!, $code: String!) {
    disableTwoFactor(password: $password, code: $code)
  }
`);

type Enrolment = BeginTwoFactorMutation['beginTwoFactorEnrolment'];

/**
 * Enrolment: a QR code for an authenticator app (and the secret, for typing in by hand), a code
 * from the app to confirm, then the 10 recovery codes, shown this once. `onDone` runs when the
 * person says they stored them.
 */
function TwoFactorSetup({ onDone }: { onDone: () => void }) {
  const [begun, begin] = useMutation(BEGIN);
  const [confirming, confirm] = useMutation(CONFIRM);
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);

  async function start() {
    const res = await begin({});
    if (res.data) setEnrolment(res.data.beginTwoFactorEnrolment);
  }

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const code = String(new FormData(e.currentTarget).get('code')).replace(/\s+/g, '');
    const res = await confirm({ code });
    if (res.data) {
      setCodes(res.data.confirmTwoFactor);
      setEnrolment(null);
    }
  }

  if (codes)
    return (
      <div className="secret" role="region" aria-label="Recovery codes">
        <p>
          <strong>Two-factor authentication is on.</strong> These recovery codes are shown only now. Each signs you in once if you lose your phone: store them
          somewhere safe, apart from it.
        </p>
        <ol className="codes" data-testid="recovery-codes">
          {codes.map((c) => (
            <li key={c}>{c}</li>
          ))}
        </ol>
        <div className="actions">
          <CopyButton value={codes.join('\n')} label="Copy the codes" />
        </div>
        <button type="button" onClick={onDone}>
          I have saved them
        </button>
      </div>
    );

  if (!enrolment)
    return (
      <>
        <button type="button" onClick={() => void start()} disabled={begun.fetching}>
          Set up two-factor authentication
        </button>
        <ErrorText error={begun.error} />
      </>
    );

  return (
    <form className="card" onSubmit={submit} aria-label="Confirm two-factor authentication">
      <p>Scan this code with your authenticator app (or type the secret into it), then enter the 6-digit code it shows.</p>
      <div className="qr">
        <img src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qrSvg)}`} alt="QR code for your authenticator app" />
      </div>
      <p>
        Secret: <code data-testid="totp-secret">{enrolment.secret}</code> <CopyButton value={enrolment.secret} label="Copy the secret" />
      </p>
      <label>
        Code from your app
        <input name="code" autoComplete="one-time-code" inputMode="numeric" pattern="[0-9 ]{6,7}" required spellCheck={false} />
      </label>
      <button type="submit" disabled={confirming.fetching}>
        {confirming.fetching ? 'Checking…' : 'Turn on'}
      </button>
      <ErrorText error={confirming.error} />
    </form>
  );
}

/** Profile → Two-factor: on (with a way to turn it off), or the enrolment. */
export function TwoFactorCard() {
  const me = useMe();
  const [disabling, disable] = useMutation(DISABLE);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!confirm('Turn off two-factor authentication? Your recovery codes stop working too.')) return;
    const f = new FormData(e.currentTarget);
    const res = await disable({ password: String(f.get('password')), code: String(f.get('code')).replace(/\s+/g, '') });
    if (res.data) await refreshNow();
  }

  return (
    <section className="card" id="two-factor" aria-labelledby="tf-title">
      <h3 id="tf-title">Two-factor authentication</h3>
      {me.user?.twoFactorEnabled ? (
        <form onSubmit={submit} aria-label="Turn off two-factor authentication">
          <p>
            <strong data-testid="two-factor-status">On.</strong> Signing in asks for a code from your authenticator app.
          </p>
          <label>
            Password
            <input name="password" type="password" autoComplete="current-password" required />
          </label>
          <label>
            A code from your app (or a recovery code)
            <input name="code" autoComplete="one-time-code" required spellCheck={false} />
          </label>
          <button type="submit" className="secondary" disabled={disabling.fetching}>
            Turn off
          </button>
          <ErrorText error={disabling.error} />
        </form>
      ) : (
        <>
          <p className="muted" data-testid="two-factor-status">
            Off. A code from your phone at each sign-in keeps your account safe if your password leaks.
          </p>
          {/* Once the codes are stored, a new session token: the member's own, no longer enrolment-only; `me` is read again. */}
          <TwoFactorSetup onDone={() => void refreshNow()} />
        </>
      )}
    </section>
  );
}

/** A member who must enrol before anything else: the enrolment alone (the service refuses the rest meanwhile). */
export function EnrolmentOnly() {
  return (
    <main className="signin">
      <h1>Set up two-factor authentication</h1>
      <p className="muted">
        Your team requires two-factor authentication for your role. Set it up to continue: you will need an authenticator app on your phone.
      </p>
      <TwoFactorSetup onDone={() => void refreshNow()} />
      <p className="links">
        <button type="button" className="secondary" onClick={() => void signOut()}>
          Sign out
        </button>
      </p>
    </main>
  );
}
