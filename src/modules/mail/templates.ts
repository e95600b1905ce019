/**
 * The service's emails, each a subject, a plain-text body and an HTML body saying the same. Every value put into
 * the HTML is escaped; in the text the link stands alone on its own line, so any mail client (and a newcomer reading
 * the sandbox's log) can follow it whole. Names come from strangers (a business name, an inviter's name): they are
 * put on one line and cut short before they reach a subject or a body.
 */

/** What `Mailer.send` takes, less the recipient. */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

const PRODUCT = 'Payments Gateway';

/** Confirms the address a person signed up with. */
export function verifyEmail({ name, link }: { name?: string | null; link: string }): MailContent {
  return compose({
    subject: `Confirm your email address for ${PRODUCT}`,
    greeting: name,
    lines: [`Confirm that this is your email address by opening this link:`],
    link: checkedLink(link),
    action: 'Confirm my email address',
    after: [`If you did not sign up for ${PRODUCT}, ignore this email: nothing happens without the link.`],
  });
}

/** The password reset link (single use, one hour). */
export function resetPassword({ name, link }: { name?: string | null; link: string }): MailContent {
  return compose({
    subject: `Reset your ${PRODUCT} password`,
    greeting: name,
    lines: ['Someone asked to reset the password of your account. To choose a new password, open this link:'],
    link: checkedLink(link),
    action: 'Choose a new password',
    after: [
      'The link works once and expires in 1 hour. Resetting your password signs you out everywhere.',
      'If you did not ask for this, ignore this email: your password stays as it is.',
    ],
  });
}

/** An invitation to join a merchant's team (the link expires in 7 days). */
export function invitation({ inviterName, merchantName, role, link }: { inviterName: string; merchantName: string; role: string; link: string }): MailContent {
  const inviter = oneLine(inviterName, 80);
  const merchant = oneLine(merchantName, 80);
  const roleName = capitalized(oneLine(role, 40));
  return compose({
    subject: `${inviter} invited you to join ${merchant} on ${PRODUCT}`,
    greeting: undefined,
    lines: [`${inviter} invited you to join the team of ${merchant} on ${PRODUCT}, with the ${roleName} role. To accept, open this link:`],
    link: checkedLink(link),
    action: 'Accept the invitation',
    after: ['The invitation expires in 7 days.', 'If you did not expect it, ignore this email: nothing happens without the link.'],
  });
}

interface Parts {
  subject: string;
  greeting: string | null | undefined;
  lines: string[];
  link: string;
  action: string;
  after: string[];
}

function compose(parts: Parts): MailContent {
  const name = parts.greeting ? oneLine(parts.greeting, 80) : '';
  const hello = name ? `Hello ${name},` : 'Hello,';
  const text = [hello, '', ...parts.lines, '', parts.link, '', ...parts.after.flatMap((l) => [l, '']), `— ${PRODUCT}`, ''].join('\n');
  const paragraph = (line: string) => `<p style="margin:0 0 16px">${escapeHtml(line)}</p>`;
  const html = [
    '<!doctype html>',
    '<html lang="en">',
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>' + escapeHtml(oneLine(parts.subject, 200)) + '</title></head>',
    '<body style="margin:0;padding:24px;background:#f5f6f8;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#1f2328;line-height:1.5">',
    '<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">',
    paragraph(hello),
    ...parts.lines.map(paragraph),
    `<p style="margin:24px 0"><a href="${escapeHtml(parts.link)}" style="display:inline-block;background:#1f6feb;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px">${escapeHtml(parts.action)}</a></p>`,
    `<p style="margin:0 0 16px;font-size:13px;color:#57606a">Or copy this link into your browser:<br><a href="${escapeHtml(parts.link)}" style="color:#1f6feb;word-break:break-all">${escapeHtml(parts.link)}</a></p>`,
    ...parts.after.map(paragraph),
    `<p style="margin:24px 0 0;font-size:13px;color:#57606a">— ${escapeHtml(PRODUCT)}</p>`,
    '</div>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
  return { subject: oneLine(parts.subject, 200), text, html };
}

/** Text safe inside HTML elements and double- or single-quoted attributes. */
function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

// eslint-disable-next-line no-control-regex -- control characters (line breaks above all) are exactly what is removed
const CONTROL_OR_SPACE = /[\s\u0000-\u001f\u007f-\u009f]+/g;

/** One line, no control characters, at most `max` characters (an ellipsis says it was cut). */
function oneLine(value: string, max: number): string {
  const flat = value.replace(CONTROL_OR_SPACE, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Links are the service's own, absolute http(s), on one line: anything else is a bug upstream, refused here. */
function checkedLink(link: string): string {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    throw new Error('mail template: the link is not an absolute URL');
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || /\s/.test(link))
    throw new Error('mail template: the link must be an http(s) URL without spaces');
  return link;
}

function capitalized(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** To every owner and admin: a lone member changed where payouts go, taking effect after the cooling-off. */
export function payoutDestinationChange(details: {
  merchantName: string;
  maker: string;
  account: string;
  accountName: string;
  currency: string;
  effectiveAt: Date;
  link: string;
}): MailContent {
  const merchant = oneLine(details.merchantName, 80);
  return compose({
    subject: `${merchant}: the ${oneLine(details.currency, 3)} payout account is changing`,
    greeting: undefined,
    lines: [
      `${oneLine(details.maker, 120)} changed where ${merchant}’s ${oneLine(details.currency, 3)} payouts go, to ${oneLine(details.account, 80)} ` +
        `(${oneLine(details.accountName, 120)}).`,
      `No other team member can approve payouts, so the change takes effect on ${details.effectiveAt.toISOString()} (24 hours after it was made).`,
      'If you did not expect this, cancel the change before then:',
    ],
    link: checkedLink(details.link),
    action: 'Review payout destinations',
    after: ['The change and who made it are in the audit log.'],
  });
}

/** A payout failed (issue 38): its money is back in the balance; the owner checks the destination. */
export function payoutFailed({ merchantName, amount, reason, link }: { merchantName: string; amount: string; reason: string; link: string }): MailContent {
  return compose({
    subject: `A payout of ${oneLine(amount, 40)} failed`,
    greeting: null,
    lines: [
      `A payout of ${oneLine(amount, 40)} from ${oneLine(merchantName, 80)} to your payout destination failed (${oneLine(reason, 80)}).`,
      'Its money is back in your available balance. Check your payout destination; the next scheduled payout includes this amount.',
    ],
    link: checkedLink(link),
    action: 'See the payout',
    after: ['You receive this email as an owner of the account.'],
  });
}

/** A dispute's evidence is due soon (issue 39): sent 24 and 4 hours before its deadline to the owners and the finance team. */
export function disputeEvidenceDueSoon(d: { merchantName: string; amount: string; paymentReference: string; dueBy: string; link: string }): MailContent {
  return compose({
    subject: `A dispute of ${oneLine(d.amount, 40)} needs your response by ${oneLine(d.dueBy, 40)}`,
    greeting: null,
    lines: [
      `A cardholder disputes the payment ${oneLine(d.paymentReference, 60)} (${oneLine(d.amount, 40)}) taken by ${oneLine(d.merchantName, 80)}.`,
      `Submit your evidence before ${oneLine(d.dueBy, 40)}, or accept the dispute. Without a response by then, it is accepted automatically and the amount and the dispute fee are not given back.`,
    ],
    link: checkedLink(d.link),
    action: 'Respond to the dispute',
    after: ['You receive this email as an owner or a member of the finance team.'],
  });
}
