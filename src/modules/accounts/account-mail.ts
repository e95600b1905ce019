import type { MailMessage } from '../mail/mailer';

/** The emails a person receives about their account: plain text and the same in HTML. */
const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function message(to: string, subject: string, lines: string[], link?: { href: string; label: string }): MailMessage {
  const text = [...lines, ...(link ? ['', link.href] : [])].join('\n');
  const html = [
    ...lines.map((l) => `<p>${escape(l)}</p>`),
    ...(link ? [`<p><a href="${escape(link.href)}">${escape(link.label)}</a></p>`, `<p>${escape(link.href)}</p>`] : []),
  ].join('\n');
  return { to, subject, text, html };
}

export function verifyEmailMessage(to: string, link: string): MailMessage {
  return message(
    to,
    'Verify your email address',
    ['Welcome to the Payments Gateway dashboard.', 'Confirm that this is your email address by opening the link below. It works once, for 24 hours.'],
    { href: link, label: 'Verify my email address' },
  );
}

export function resetPasswordMessage(to: string, link: string): MailMessage {
  return message(
    to,
    'Reset your password',
    [
      'Someone (we hope you) asked to reset the password of your Payments Gateway account.',
      'Open the link below to choose a new one. It works once, for 1 hour. Resetting signs you out everywhere.',
      'If you did not ask for this, ignore this email: your password stays as it is.',
    ],
    { href: link, label: 'Choose a new password' },
  );
}

export function signUpAttemptMessage(to: string, signInLink: string): MailMessage {
  return message(
    to,
    'Someone tried to sign up with your email address',
    [
      'Someone tried to create a new Payments Gateway account with this email address, which already has one.',
      'If it was you, sign in instead (or reset your password from the sign-in page). If not, you need do nothing.',
    ],
    { href: signInLink, label: 'Sign in' },
  );
}
