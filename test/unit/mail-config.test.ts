import { SANDBOX_MAIL_FROM, assertServiceStartable, loadConfig, serviceStartProblems } from '../../src/config';

/** What a production start needs besides mail (keys are resolveKeys', the database openDatabase's). */
const PRODUCTION = { PAYMENTS_ENV: 'production' };
const SMTP = { SMTP_URL: 'smtps://mailer%40pay.example.com:s3cr%3At@smtp.example.com:465', MAIL_FROM: 'Payments <no-reply@pay.example.com>' };

describe('mail configuration (SMTP_URL, MAIL_FROM, SIGNUP_ENABLED)', () => {
  it('the sandbox needs none of it: no SMTP (mail goes to the log), a default sender, sign-up on', () => {
    const config = loadConfig({});
    expect(config.mail).toEqual({ smtpUrl: undefined, from: SANDBOX_MAIL_FROM });
    expect(SANDBOX_MAIL_FROM).toBe('Payments Gateway <no-reply@localhost>');
    expect(config.signupEnabled).toBe(true);
    expect(serviceStartProblems(config)).toEqual([]);
    expect(loadConfig({ SIGNUP_ENABLED: 'false' }).signupEnabled).toBe(false);
  });

  it('reads SMTP_URL and MAIL_FROM as given; SIGNUP_ENABLED is off in production unless true', () => {
    const config = loadConfig({ ...PRODUCTION, ...SMTP });
    expect(config.mail).toEqual({ smtpUrl: SMTP.SMTP_URL, from: SMTP.MAIL_FROM });
    expect(config.signupEnabled).toBe(false);
    expect(serviceStartProblems(config)).toEqual([]);
    expect(loadConfig({ ...PRODUCTION, ...SMTP, SIGNUP_ENABLED: 'true' }).signupEnabled).toBe(true);
    expect(loadConfig({ ...SMTP, MAIL_FROM: 'no-reply@pay.example.com' }).mail.from).toBe('no-reply@pay.example.com');
    expect(loadConfig({ SMTP_URL: 'smtp://relay.internal:2525' }).mail.smtpUrl).toBe('smtp://relay.internal:2525');
  });

  it('production without SMTP_URL is refused with a clear message, every missing variable at once', () => {
    const invitationsOnly = loadConfig(PRODUCTION);
    expect(serviceStartProblems(invitationsOnly)).toEqual([
      'SMTP_URL is required in production: invitations send email. Set SMTP_URL=smtps://user:password@smtp.example.com',
      'MAIL_FROM is required in production: invitations send email from it. Set MAIL_FROM="Payments Gateway <no-reply@pay.example.com>"',
    ]);
    expect(() => assertServiceStartable(invitationsOnly)).toThrow(
      /^Invalid configuration, the service cannot start \(2 to fix\):\n {2}- SMTP_URL is required in production: invitations send email\. Set SMTP_URL=.*\n {2}- MAIL_FROM is required/,
    );
    // With sign-up on, the message says so too.
    expect(serviceStartProblems(loadConfig({ ...PRODUCTION, SIGNUP_ENABLED: 'true', MAIL_FROM: SMTP.MAIL_FROM }))).toEqual([
      'SMTP_URL is required in production: sign-up (SIGNUP_ENABLED=true) and invitations send email. Set SMTP_URL=smtps://user:password@smtp.example.com',
    ]);
    expect(serviceStartProblems(loadConfig({ ...PRODUCTION, SMTP_URL: SMTP.SMTP_URL }))).toEqual([
      expect.stringMatching(/^MAIL_FROM is required in production/),
    ]);
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
