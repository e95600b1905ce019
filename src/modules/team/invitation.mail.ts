import type { MailMessage } from '../mail/mailer';
import type { Role } from '../access/permissions';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** Where the invitation is accepted: the dashboard's page, with the token in the query. */
export function invitationLink(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl}/dashboard/accept-invitation?token=${encodeURIComponent(token)}`;
}

/** The invitation email, in plain text and HTML (every value from a person escaped). */
export function invitationMessage(p: { to: string; merchantName: string; inviterName: string | null; role: Role; link: string; expiresAt: Date }): MailMessage {
  const who = p.inviterName ? `${p.inviterName} invited you` : 'You are invited';
  const expires = p.expiresAt.toISOString().replace('T', ' ').slice(0, 16);
  const text = [
    `${who} to join ${p.merchantName} on the payments dashboard, as ${p.role}.`,
    '',
    `Accept the invitation: ${p.link}`,
    '',
    `The link works once and expires on ${expires} UTC. If you did not expect this, ignore this email.`,
  ].join('\n');
  const html = [
    `<p>${escapeHtml(who)} to join <strong>${escapeHtml(p.merchantName)}</strong> on the payments dashboard, as ${escapeHtml(p.role)}.</p>`,
    `<p><a href="${escapeHtml(p.link)}">Accept the invitation</a></p>`,
    `<p>The link works once and expires on ${escapeHtml(expires)} UTC. If you did not expect this, ignore this email.</p>`,
  ].join('\n');
  return { to: p.to, subject: `You are invited to ${p.merchantName}`, text, html };
}
