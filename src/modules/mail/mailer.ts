/** One email: plain text and HTML bodies of the same message. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Sends mail: over SMTP (SMTP_URL), or, in the sandbox without SMTP, into the log in full (mail.module.ts). */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
