import type { MailMessage } from '../mail/mailer';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** To the owner of an email someone tried to sign up with again (sign-up answers 409 and says no more). */
export function signUpAttemptMessage(to: string, signInLink: string): MailMessage {
  const lines = [
    'Someone tried to create a new Payments Gateway account with this email address, which already has one.',
    'If it was you, sign in instead (or reset your password from the sign-in page). If not, you need do nothing.',
  ];
  return {
    to,
    subject: 'Someone tried to sign up with your email address',
    text: [...lines, '', signInLink].join('\n'),
    html: [...lines.map((l) => `<p>${escape(l)}</p>`), `<p><a href="${escape(signInLink)}">Sign in</a></p>`].join('\n'),
  };
}
