import nodemailer from 'nodemailer';
import type { Logger } from '../../shared/logger';
import { MailNotSentError, assertOneRecipient, type Mailer, type MailMessage } from './mailer';

/** What the SMTP backend is made with. */
export interface SmtpMailerSettings {
  /** SMTP_URL: smtps:// (TLS from the start) or smtp:// (STARTTLS); query parameters are nodemailer's options and win. */
  url: string;
  from: string;
  /** Production: an smtp:// server must upgrade to TLS before the login and the message (requireTLS), unless the URL says otherwise. */
  production: boolean;
  logger: Logger;
}

/**
 * Mail over SMTP through one pooled nodemailer transport, made with the module and closed at its stop. Nothing a
 * message holds beyond its recipient, subject and Message-ID is logged (its links are secrets), nor the URL.
 */
export class SmtpMailer implements Mailer {
  private readonly transport;
  private readonly logger: Logger;
  /** SMTP_URL's password, decoded: cut out of any error message that might quote it. */
  private readonly password: string | undefined;
  private verifying: Promise<void> | undefined;

  constructor(settings: SmtpMailerSettings) {
    this.logger = settings.logger;
    const url = new URL(settings.url);
    this.password = url.password === '' ? undefined : decodeURIComponent(url.password);
    this.transport = nodemailer.createTransport(
      {
        url: settings.url,
        pool: true,
        maxConnections: 2,
        // A request waiting on a send waits at most this long for a server that does not answer (nodemailer waits minutes).
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
        requireTLS: settings.production && url.protocol === 'smtp:',
        // nodemailer's own logger would write the conversation, credentials and bodies included.
        logger: false,
        debug: false,
      },
      { from: settings.from },
    );
  }

  async send(message: MailMessage): Promise<void> {
    assertOneRecipient(message.to);
    const mail = { to: message.to, subject: message.subject };
    try {
      const info = await this.transport.sendMail({ to: message.to, subject: message.subject, text: message.text, html: message.html });
      this.logger.info({ mail: { ...mail, messageId: info.messageId } }, 'mail sent');
    } catch (err) {
      const failure = this.notSent(err);
      this.logger.warn({ mail, code: failure.code, responseCode: failure.responseCode, reason: failure.message }, 'mail not sent');
      throw failure;
    }
  }

  /**
   * Tries the server once, in the background: a wrong SMTP_URL is in the log at start rather than at the first
   * sign-up. Not awaited, and not a refusal: the payments keep running while the mail server is down.
   */
  start(): void {
    this.verifying = this.transport.verify().then(
      () => this.logger.info('SMTP server reachable; login accepted'),
      (err: unknown) => {
        const failure = this.notSent(err);
        this.logger.warn(
          { code: failure.code, responseCode: failure.responseCode, reason: failure.message },
          'SMTP server check failed: mail will not be sent until SMTP_URL works',
        );
      },
    );
  }

  /** Closes the pool: idle connections at once, a message being sent once it is sent. */
  async stop(): Promise<void> {
    await this.verifying;
    this.transport.close();
  }

  /** nodemailer's error as a MailNotSentError: its code and status only (its other properties may hold the server's words or more). */
  private notSent(err: unknown): MailNotSentError {
    const e = (err ?? {}) as { message?: unknown; code?: unknown; responseCode?: unknown; permanent?: unknown };
    let reason = typeof e.message === 'string' ? e.message : String(err);
    if (this.password) reason = reason.split(this.password).join('[redacted]');
    const responseCode = typeof e.responseCode === 'number' ? e.responseCode : undefined;
    return new MailNotSentError(`mail not sent: ${reason}`, {
      code: typeof e.code === 'string' ? e.code : undefined,
      responseCode,
      permanent: e.permanent === true || (responseCode !== undefined && responseCode >= 500),
    });
  }
}
