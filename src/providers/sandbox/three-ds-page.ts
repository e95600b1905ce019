/**
 * The sandbox's 3-D Secure page: plain HTML, no script, one form. Rendering is
 * pure; the route (transport/rest/v1/sandbox-3ds.routes.ts) adds the headers,
 * the CSRF cookie and the decision.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

const BRANDS: Record<string, string> = { visa: 'Visa', mastercard: 'Mastercard', amex: 'American Express', verve: 'Verve', discover: 'Discover' };

export interface ThreeDsPayment {
  merchantName: string;
  /** e.g. "2500.00 NGN". */
  amount: string;
  cardBrand: string | null;
  cardLast4: string | null;
  description: string | null;
}

/** A page of ours for a cardholder: `site` ends its title (the sandbox's 3-D Secure page, a processor's return page). */
function layout(title: string, body: string, site = 'Sandbox 3-D Secure'): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · ${escapeHtml(site)}</title>
<style>
  body { font-family: system-ui, sans-serif; background: #f4f5f7; color: #1d2330; margin: 0; padding: 2rem 1rem; }
  main { max-width: 26rem; margin: 0 auto; background: #fff; border-radius: 8px; padding: 1.5rem; box-shadow: 0 1px 3px rgba(0,0,0,.12); }
  h1 { font-size: 1.25rem; margin: 0 0 1rem; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: .4rem 1rem; margin: 0 0 1.5rem; }
  dt { color: #5b6475; } dd { margin: 0; font-weight: 600; }
  .note { color: #5b6475; font-size: .875rem; }
  .actions { display: flex; gap: .75rem; }
  button { flex: 1; font-size: 1rem; padding: .7rem; border-radius: 6px; border: 1px solid #1d2330; cursor: pointer; }
  button[value=complete] { background: #1a7f37; border-color: #1a7f37; color: #fff; }
  button[value=fail] { background: #fff; color: #b42318; border-color: #b42318; }
  button:focus-visible, input:focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
  label { display: block; font-weight: 600; margin: 0 0 .4rem; }
  input { box-sizing: border-box; width: 100%; font-size: 1.25rem; letter-spacing: .2em; padding: .6rem; margin: 0 0 1rem; border: 1px solid #5b6475; border-radius: 6px; }
  button.primary { background: #1a7f37; border-color: #1a7f37; color: #fff; }
  .error { color: #b42318; font-weight: 600; }
</style>
</head>
<body><main>${body}</main></body>
</html>`;
}

function details(p: ThreeDsPayment): string {
  const card = p.cardLast4 ? `${BRANDS[p.cardBrand ?? ''] ?? 'Card'} •••• ${p.cardLast4}` : 'Card';
  return `<dl>
  <dt>Merchant</dt><dd id="merchant">${escapeHtml(p.merchantName)}</dd>
  <dt>Amount</dt><dd id="amount">${escapeHtml(p.amount)}</dd>
  <dt>Card</dt><dd id="card">${escapeHtml(card)}</dd>${p.description ? `\n  <dt>For</dt><dd>${escapeHtml(p.description)}</dd>` : ''}
</dl>`;
}

/** The page asking the cardholder to complete or fail the authentication. */
export function authenticationForm(p: ThreeDsPayment, action: string, csrf: string): string {
  return layout(
    'Confirm your payment',
    `<h1>Confirm your payment</h1>
${details(p)}
<form method="post" action="${escapeHtml(action)}">
  <input type="hidden" name="csrf" value="${escapeHtml(csrf)}">
  <div class="actions">
    <button type="submit" name="decision" value="complete">Complete</button>
    <button type="submit" name="decision" value="fail">Fail</button>
  </div>
</form>
<p class="note">Sandbox: no bank is involved. Complete authenticates the payment; Fail declines it.</p>`,
  );
}

/** A page that only says something: the outcome, or why nothing happened. */
export function messagePage(title: string, message: string, p?: ThreeDsPayment, site?: string): string {
  return layout(title, `<h1>${escapeHtml(title)}</h1>\n${p ? details(p) : ''}<p id="message">${escapeHtml(message)}</p>`, site);
}
