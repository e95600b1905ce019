/** One email: plain text and HTML bodies of the same message. */
export interface MailMessage {
  /** One bare address (`ada@example.com`): no display name, no list. */
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * Sends mail: over SMTP (SMTP_URL), or, in the sandbox without SMTP, into the log in full (mail.module.ts).
 *
 * `send` resolves once the SMTP server has accepted the message (or the sandbox has logged it), and rejects with a
 * MailNotSentError when it was not sent: the server could not be reached or refused it, the recipient is not one
 * bare address, or production has no SMTP (a CLI's; the service itself does not start without it). It is a plain
 * Error, not an AppError: the caller decides what its own caller sees. A link already written to the database stays
 * valid, so the usual answer is to log it and let the person ask again (resend, forgot password); answering a
 * stranger differently when mail fails would tell them whether an address is known.
 */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** Why a message was not sent, in nodemailer's codes where it had one. */
export type MailFailureCode =
  /** Login refused: SMTP_URL's credentials. */
  | 'EAUTH'
  /** The server could not be reached, or the connection dropped. */
  | 'ECONNECTION'
  /** The server did not answer in time. */
  | 'ETIMEDOUT'
  /** A sender or recipient refused by the server. */
  | 'EENVELOPE'
  /** The message refused by the server. */
  | 'EMESSAGE'
  /** `to` is not one bare address: nothing was attempted. */
  | 'INVALID_RECIPIENT'
  /** Production without SMTP_URL or MAIL_FROM: nothing was attempted (production never logs a message's links). */
  | 'NOT_CONFIGURED'
  /** Anything else nodemailer reports (its code as given, or undefined). */
  | (string & {});

/**
 * A message that was not sent. It carries what the operator needs (the code, the server's status), never the
 * message's body, the server's credentials or the transport's options.
 */
export class MailNotSentError extends Error {
  readonly code: MailFailureCode | undefined;
  /** The SMTP status the server answered, when it answered (535, 550, 421…). */
  readonly responseCode: number | undefined;
  /** Sending the same message again will fail the same way (a 5xx answer, a bad recipient, no configuration). */
  readonly permanent: boolean;

  constructor(message: string, details: { code?: MailFailureCode; responseCode?: number; permanent?: boolean } = {}) {
    super(message);
    this.name = 'MailNotSentError';
    this.code = details.code;
    this.responseCode = details.responseCode;
    this.permanent = details.permanent ?? false;
  }
}

/** One bare address, as the accounts store them: a display name, a list or a line break is refused, never parsed. */
const BARE_ADDRESS = /^[^\s@<>,;:"()[\]\\]+@[^\s@<>,;:"()[\]\\]+$/;

/** Refuses anything but one bare recipient address before a backend sees it. */
export function assertOneRecipient(to: string): void {
  if (!BARE_ADDRESS.test(to)) {
    throw new MailNotSentError('mail not sent: the recipient must be one bare address (name@example.com)', { code: 'INVALID_RECIPIENT', permanent: true });
  }
}
