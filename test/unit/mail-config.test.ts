import { SANDBOX_MAIL_FROM, loadConfig } from '../../src/config';
import { assertServiceStartable, serviceStartProblems } from '../../src/startup-checks';

/** A production start's other needs (keys, a database), so that only mail is missing. */
const PRODUCTION = {
  PAYMENTS_ENV: 'production',
  TOKEN_SIGNING_KEY: 'production-signing-key-0123456789abcdef',
  ENCRYPTION_KEY: 'ab'.repeat(32),
  DATABASE_URL: 'postgresql://127.0.0.1:5432/payments',
};
/** What each problem says, in the order found. */
const said = (config: Parameters<typeof serviceStartProblems>[0]) => serviceStartProblems(config).map((p) => p.problem);
const SMTP = { SMTP_URL: 'smtps://mailer%40pay.example.com:s3cr%3At@smtp.example.com:465', MAIL_FROM: 'Payments <no-reply@pay.example.com>' };

describe('mail configuration (SMTP_URL, MAIL_FROM, SIGNUP_ENABLED)', () => {
  it('the sandbox needs none of it: no SMTP (mail goes to the log), a default sender, sign-up on', () => {
    const config = loadConfig({});
    expect(config.mail).toEqual({ smtpUrl: undefined, from: SANDBOX_MAIL_FROM });
    expect(SANDBOX_MAIL_FROM).toBe('Payments Gateway <no-reply@localhost>');
    expect(config.signupEnabled).toBe(true);
    expect(said(config)).toEqual([]);
    expect(loadConfig({ SIGNUP_ENABLED: 'false' }).signupEnabled).toBe(false);
  });

  it('reads SMTP_URL and MAIL_FROM as given; SIGNUP_ENABLED is off in production unless true', () => {
    const config = loadConfig({ ...PRODUCTION, ...SMTP });
    expect(config.mail).toEqual({ smtpUrl: SMTP.SMTP_URL, from: SMTP.MAIL_FROM });
    expect(config.signupEnabled).toBe(false);
    expect(said(config)).toEqual([]);
    expect(loadConfig({ ...PRODUCTION, ...SMTP, SIGNUP_ENABLED: 'true' }).signupEnabled).toBe(true);
    expect(loadConfig({ ...SMTP, MAIL_FROM: 'no-reply@pay.example.com' }).mail.from).toBe('no-reply@pay.example.com');
    expect(loadConfig({ SMTP_URL: 'smtp://relay.internal:2525' }).mail.smtpUrl).toBe('smtp://relay.internal:2525');
  });

  it('production without SMTP_URL is refused with a clear message, every missing variable at once', () => {
    const invitationsOnly = loadConfig(PRODUCTION);
    expect(serviceStartProblems(invitationsOnly)).toEqual([
      {
        variables: ['SMTP_URL'],
        problem: 'SMTP_URL is required in production: invitations send email',
        fix: 'set SMTP_URL to your mail server, e.g. smtps://user:password@smtp.example.com (percent-encode @ : / in the password)',
        doc: 'docs/going-live.md#keys-and-secrets',
      },
      {
        variables: ['MAIL_FROM'],
        problem: 'MAIL_FROM is required in production: invitations send email from it',
        fix: 'set MAIL_FROM to the sender, e.g. MAIL_FROM="Payments Gateway <no-reply@pay.example.com>"',
        doc: 'docs/going-live.md#keys-and-secrets',
      },
    ]);
    expect(() => assertServiceStartable(invitationsOnly)).toThrow(
      /^Invalid configuration, the service cannot start \(2 to fix\):\n {2}- SMTP_URL is required in production: invitations send email\n {6}fix: set SMTP_URL to .*\n {6}see: docs\/going-live\.md#keys-and-secrets\n {2}- MAIL_FROM is required/,
    );
    // With sign-up on, the message says so too.
    expect(said(loadConfig({ ...PRODUCTION, SIGNUP_ENABLED: 'true', MAIL_FROM: SMTP.MAIL_FROM }))).toEqual([
      'SMTP_URL is required in production: sign-up (SIGNUP_ENABLED=true) and invitations send email',
    ]);
    expect(said(loadConfig({ ...PRODUCTION, SMTP_URL: SMTP.SMTP_URL }))).toEqual([expect.stringMatching(/^MAIL_FROM is required in production/)]);
    // Operator CLIs load the same configuration without being refused: they do not start the service.
    expect(loadConfig(PRODUCTION).env).toBe('production');
  });

  it('refuses a malformed SMTP_URL or MAIL_FROM by name, without quoting the value (it holds a password)', () => {
    for (const url of ['https://user:hunter2-secret@smtp.example.com', 'smtp://', 'user:hunter2-secret@smtp.example.com', 'hunter2-secret']) {
      let message = '';
      try {
        loadConfig({ SMTP_URL: url });
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toMatch(/^Invalid configuration: SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/);
      expect(message).not.toContain('hunter2');
    }
    for (const from of ['Payments Gateway', 'a@b\r\nBcc: c@d', 'Name <a@b', '<>']) {
      expect(() => loadConfig({ MAIL_FROM: from })).toThrow(/MAIL_FROM: must be an address or `Name <address>`/);
    }
    expect(() => loadConfig({ SIGNUP_ENABLED: 'yes' })).toThrow(/SIGNUP_ENABLED/);
  });
});
