import { startService } from '../../../src/bootstrap';
import { loadConfig } from '../../../src/config';
import { mailModule } from '../../../src/modules/mail/mail.module';
import { MailNotSentError, type Mailer } from '../../../src/modules/mail/mailer';
import { invitation, resetPassword, verifyEmail, type MailContent } from '../../../src/modules/mail/templates';
import { createLogger } from '../../../src/shared/logger';
import { linkIn, startSmtpServer, type TestSmtpServer } from '../../helpers/smtp';
import { createTestApp } from '../../helpers/test-app';
import { eventually } from '../../helpers/wait';

/** The mail module as the service makes it, from these variables, logging into `lines`. */
function mailFrom(env: Record<string, string>) {
  const lines: string[] = [];
  const logger = createLogger('trace', { write: (line: string) => void lines.push(line) });
  const parts = mailModule.create({ logger, config: loadConfig(env) }, {});
  return { parts, mailer: parts.services.mailer as Mailer, log: () => lines.join(''), entries: () => lines.map((l) => JSON.parse(l)) };
}

const USER = 'mailer@pay.example.com';
// Characters a URL must percent-encode: the transport reads them back from SMTP_URL.
const PASSWORD = 'p@ss:w/rd Z%9';
const FROM = 'Acme Payments <no-reply@pay.example.com>';
const BASE = 'https://pay.example.com';

/** Every element the templates write. */
const TEMPLATE_TAGS = new Set(['<html', '<head', '<meta', '<title', '<body', '<div', '<p', '<a', '<br']);

/** The three templates, with links whose query strings need escaping in an attribute. */
const TEMPLATES: Array<[string, string, MailContent]> = [
  ['verify', '/dashboard/verify-email', verifyEmail({ name: 'Ada Obi', link: `${BASE}/dashboard/verify-email?token=v3r1fy&next=/` })],
  ['reset', '/dashboard/reset-password', resetPassword({ name: 'Ada Obi', link: `${BASE}/dashboard/reset-password?token=r3s3t` })],
  [
    'invitation',
    '/dashboard/invitations/accept',
    invitation({ inviterName: 'Kemi Ade', merchantName: 'Lagos Foods', role: 'finance', link: `${BASE}/dashboard/invitations/accept?token=1nv1te&x=1` }),
  ],
];

describe('mail over SMTP (a real SMTP conversation with the smtp-server package)', () => {
  let smtp: TestSmtpServer;

  beforeAll(async () => {
    smtp = await startSmtpServer({ user: USER, pass: PASSWORD });
  });
  afterAll(() => smtp.close());

  it('sends each template, logged in with AUTH PLAIN from SMTP_URL, with both bodies, the From of MAIL_FROM and the link alone on a line', async () => {
    const { parts, mailer, log } = mailFrom({ SMTP_URL: smtp.url(USER, PASSWORD), MAIL_FROM: FROM });
    try {
      for (const [name, path, content] of TEMPLATES) {
        const to = `${name}@example.com`;
        await mailer.send({ to, ...content });
        const m = await smtp.waitForMessage((x) => x.envelope.to.includes(to), 5000);
        expect(m.authenticatedAs).toBe(USER);
        expect(m.authMethod).toBe('PLAIN');
        expect(m.envelope).toEqual({ from: 'no-reply@pay.example.com', to: [to] });
        expect(m.from).toBe('Acme Payments <no-reply@pay.example.com>');
        expect(m.to).toBe(to);
        expect(m.subject).toBe(content.subject);
        expect(m.headers.get('content-type')).toMatch(/^multipart\/alternative;/);
        expect(m.headers.get('message-id')).toMatch(/^<[^<>\s]+@[^<>\s]+>$/);
        // Both bodies arrive as written, whatever transfer encoding nodemailer chose.
        expect(m.text).toBe(content.text.replace(/\r\n/g, '\n'));
        expect(m.html).toBe(content.html);
        const link = linkIn(m, path);
        expect(m.text!.split('\n')).toContain(link);
        expect(m.html).toContain(`href="${link.replace(/&/g, '&amp;')}"`);
      }
      // The decoder read what nodemailer chose for these bodies (the em dash makes them quoted-printable).
      expect(smtp.messages.some((m) => /Content-Transfer-Encoding: quoted-printable/i.test(m.raw.toString('latin1')))).toBe(true);
      // The log names recipient, subject and Message-ID; never a body, a link's token, the password or the URL.
      for (const [name] of TEMPLATES) expect(log()).toContain(`"to":"${name}@example.com"`);
      const sent = log()
        .split('\n')
        .filter((l) => l.includes('"mail sent"'))
        .map((l) => JSON.parse(l));
      expect(sent).toHaveLength(3);
      expect(sent.map((e) => e.mail.messageId)).toEqual(smtp.messages.slice(-3).map((m) => m.headers.get('message-id')));
      for (const secret of ['v3r1fy', 'r3s3t', '1nv1te', 'Hello Ada', PASSWORD, encodeURIComponent(PASSWORD), 'smtp://']) expect(log()).not.toContain(secret);
    } finally {
      await parts.stop?.();
    }
  });

  it('escapes every interpolated value in the HTML; text and subject keep them as written, on one line', async () => {
    const { parts, mailer } = mailFrom({ SMTP_URL: smtp.url(USER, PASSWORD), MAIL_FROM: FROM });
    try {
      const hostile = invitation({
        inviterName: 'Eve <script>alert("x")</script>',
        merchantName: `Tom & Jerry's "Shop" <b>\r\nBcc: victim@example.com`,
        role: 'finance',
        link: `${BASE}/dashboard/invitations/accept?token=t&a="><script>`,
      });
      await mailer.send({ to: 'hostile@example.com', ...hostile });
      const named = verifyEmail({ name: '<img src=x onerror=alert(1)> Ọlá Café 🚀', link: `${BASE}/dashboard/verify-email?token=n` });
      await mailer.send({ to: 'named@example.com', ...named });

      const m = await smtp.waitForMessage((x) => x.envelope.to.includes('hostile@example.com'), 5000);
      // No markup from the values: every tag in the body is the template's own.
      expect(m.html).not.toMatch(/<script|<b>/);
      expect(m.html!.match(/<[a-z][^\s>]*/g)!.every((tag) => TEMPLATE_TAGS.has(tag))).toBe(true);
      expect(m.html).toContain('Eve &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
      expect(m.html).toContain('Tom &amp; Jerry&#39;s &quot;Shop&quot; &lt;b&gt; Bcc: victim@example.com');
      expect(m.html).toContain('href="https://pay.example.com/dashboard/invitations/accept?token=t&amp;a=&quot;&gt;&lt;script&gt;"');
      // The line break in the name is gone: no Bcc header, one recipient.
      expect(m.subject).toBe(`Eve <script>alert("x")</script> invited you to join Tom & Jerry's "Shop" <b> Bcc: victim@example.com on Payments Gateway`);
      expect(m.headers.has('bcc')).toBe(false);
      expect(m.envelope.to).toEqual(['hostile@example.com']);
      expect(m.text).toContain(`Eve <script>alert("x")</script> invited you to join the team of Tom & Jerry's "Shop" <b> Bcc: victim@example.com`);

      const n = await smtp.waitForMessage((x) => x.envelope.to.includes('named@example.com'), 5000);
      expect(n.html).toContain('Hello &lt;img src=x onerror=alert(1)&gt; Ọlá Café 🚀,');
      expect(n.html).not.toContain('<img');
      expect(n.text).toContain('Hello <img src=x onerror=alert(1)> Ọlá Café 🚀,');
    } finally {
      await parts.stop?.();
    }
  });

  it('bodies and subjects in any script arrive intact, quoted-printable or base64 as nodemailer picks', async () => {
    const { parts, mailer } = mailFrom({ SMTP_URL: smtp.url(USER, PASSWORD), MAIL_FROM: 'Pàyments Gâteway <no-reply@pay.example.com>' });
    try {
      const text = `${'李小龙 Ọlá 🚀 '.repeat(30)}\n\nhttps://pay.example.com/x?token=ü\n`;
      const html = `<p>${'李小龙 Ọlá 🚀 '.repeat(30)}</p>`;
      await mailer.send({ to: 'script@example.com', subject: `Ẹ kú àbọ̀ — ${'欢迎'.repeat(40)}`, text, html });
      await mailer.send({ to: 'ascii@example.com', subject: 'Plain', text: 'plain text\n', html: '<p>plain</p>' });
      const m = await smtp.waitForMessage((x) => x.envelope.to.includes('script@example.com'), 5000);
      expect(m.raw.toString('latin1')).toMatch(/Content-Transfer-Encoding: base64/i);
      expect(m.subject).toBe(`Ẹ kú àbọ̀ — ${'欢迎'.repeat(40)}`);
      expect(m.from).toBe('Pàyments Gâteway <no-reply@pay.example.com>');
      expect(m.text).toBe(text);
      expect(m.html).toBe(html);
      const a = await smtp.waitForMessage((x) => x.envelope.to.includes('ascii@example.com'), 5000);
      expect([a.subject, a.text, a.html]).toEqual(['Plain', 'plain text\n', '<p>plain</p>']);
    } finally {
      await parts.stop?.();
    }
  });

  it('one pool: messages share at most two connections, and stop closes them', async () => {
    const { parts, mailer } = mailFrom({ SMTP_URL: smtp.url(USER, PASSWORD), MAIL_FROM: FROM });
    const before = smtp.connectionsAccepted();
    await Promise.all(Array.from({ length: 6 }, (_, i) => mailer.send({ to: `pool${i}@example.com`, ...TEMPLATES[0]![2] })));
    expect(smtp.messages.filter((m) => m.envelope.to[0]!.startsWith('pool'))).toHaveLength(6);
    expect(smtp.connectionsAccepted() - before).toBeLessThanOrEqual(2);
    expect(smtp.openConnections()).toBeGreaterThan(0);
    await parts.stop?.();
    expect(await eventually(async () => smtp.openConnections() === 0, { attempts: 100, everyMs: 20 })).toBe(true);
  });

  it('a refused login rejects with a MailNotSentError (EAUTH, 535, permanent), logged without the password', async () => {
    const wrong = 'Wr0ng-p4ssword!';
    const { parts, mailer, log } = mailFrom({ SMTP_URL: smtp.url(USER, wrong), MAIL_FROM: FROM });
    try {
      await parts.start?.();
      const failure = await mailer.send({ to: 'refused@example.com', ...TEMPLATES[1]![2] }).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(failure).toBeInstanceOf(MailNotSentError);
      expect(failure).toMatchObject({ name: 'MailNotSentError', code: 'EAUTH', responseCode: 535, permanent: true });
      expect(smtp.messages.some((m) => m.envelope.to.includes('refused@example.com'))).toBe(false);
    } finally {
      await parts.stop?.();
    }
    // The start's check said so too; neither line holds the password or the message.
    expect(log()).toContain('SMTP server check failed');
    expect(log()).toContain('"mail not sent"');
    for (const secret of [wrong, encodeURIComponent(wrong), 'r3s3t']) expect(log()).not.toContain(secret);
  });

  it('an unreachable server rejects with a MailNotSentError the caller can retry later (not permanent)', async () => {
    const closed = await startSmtpServer();
    const url = closed.url();
    await closed.close();
    const { parts, mailer } = mailFrom({ SMTP_URL: url });
    try {
      const failure = await mailer.send({ to: 'nobody@example.com', ...TEMPLATES[0]![2] }).catch((err: unknown) => err);
      expect(failure).toBeInstanceOf(MailNotSentError);
      expect(failure).toMatchObject({ permanent: false, code: expect.any(String) });
    } finally {
      await parts.stop?.();
    }
  });

  it('refuses anything but one bare recipient before a byte is sent', async () => {
    const { parts, mailer } = mailFrom({ SMTP_URL: smtp.url(USER, PASSWORD), MAIL_FROM: FROM });
    const before = smtp.connectionsAccepted();
    try {
      for (const to of ['a@example.com, b@example.com', 'Eve <eve@example.com>', 'a@example.com\r\nBcc: b@example.com', 'not-an-address']) {
        await expect(mailer.send({ to, ...TEMPLATES[0]![2] })).rejects.toMatchObject({ code: 'INVALID_RECIPIENT', permanent: true });
      }
      expect(smtp.connectionsAccepted()).toBe(before);
    } finally {
      await parts.stop?.();
    }
  });

  it('the running service sends through SMTP_URL (the sandbox default sender when MAIL_FROM is unset) and closes its pool at close', async () => {
    const app = await createTestApp({ env: { SMTP_URL: smtp.url(USER, PASSWORD) } });
    try {
      await app.service.app.services.mailer.send({ to: 'wired@example.com', ...TEMPLATES[2]![2] });
      const m = await smtp.waitForMessage((x) => x.envelope.to.includes('wired@example.com'), 5000);
      expect(m.from).toBe('Payments Gateway <no-reply@localhost>');
      expect(linkIn(m, '/dashboard/invitations/accept')).toBe(`${BASE}/dashboard/invitations/accept?token=1nv1te&x=1`);
    } finally {
      await app.close();
    }
    expect(await eventually(async () => smtp.openConnections() === 0, { attempts: 100, everyMs: 20 })).toBe(true);
  });
});

describe('mail without SMTP', () => {
  it('the sandbox writes each message to the log in full, the link included, so a newcomer can follow it', async () => {
    const { mailer, entries } = mailFrom({});
    const content = TEMPLATES[0]![2];
    await mailer.send({ to: 'newcomer@example.com', ...content });
    const [entry] = entries().filter((e) => e.mail?.to === 'newcomer@example.com');
    expect(entry).toMatchObject({ level: 30, mail: { to: 'newcomer@example.com', subject: content.subject }, body: content.text });
    expect(entry.body.split('\n')).toContain(`${BASE}/dashboard/verify-email?token=v3r1fy&next=/`);
  });

  it('production (an operator CLI: the service does not start so) refuses to send, and logs no link', async () => {
    const { mailer, log } = mailFrom({ PAYMENTS_ENV: 'production' });
    await expect(mailer.send({ to: 'owner@example.com', ...TEMPLATES[1]![2] })).rejects.toMatchObject({
      name: 'MailNotSentError',
      code: 'NOT_CONFIGURED',
      permanent: true,
    });
    expect(log()).toContain('owner@example.com');
    expect(log()).not.toContain('r3s3t');
  });

  it('the production service refuses to start without SMTP_URL and MAIL_FROM, naming both, before it opens anything', async () => {
    const config = loadConfig({
      PAYMENTS_ENV: 'production',
      // Never reached: nothing listens there.
      DATABASE_URL: 'postgresql://127.0.0.1:1/never_opened',
      TOKEN_SIGNING_KEY: 'production-signing-key-0123456789abcdef',
      ENCRYPTION_KEY: 'ab'.repeat(32),
      PORT: '0',
    });
    const refusal = startService(config, { print: () => undefined });
    await expect(refusal).rejects.toThrow(/SMTP_URL is required in production: invitations send email[\s\S]*MAIL_FROM is required in production/);
  });
});
