import { details, escapeHtml, layout, messagePage, type ThreeDsPayment } from '../../providers/sandbox/three-ds-page';
import { PAYMENT_SITE as SITE } from '../rest/v1/payment-pages';

/**
 * The page where a cardholder enters the code the card's bank sent (a PIN card's OTP, after the PIN): plain HTML, no
 * script, one field. Rendering is pure; the route (card-otp.routes.ts) adds the headers, the CSRF cookie and the decision.
 * `error`: why the last code was not taken (it is never shown back).
 */
export function otpForm(p: ThreeDsPayment, action: string, csrf: string, error: string | null = null): string {
  return layout(
    'Enter the code your bank sent',
    `<h1>Confirm your payment</h1>
${details(p)}
<form method="post" action="${escapeHtml(action)}">
  <input type="hidden" name="csrf" value="${escapeHtml(csrf)}">
  <label for="otp">Enter the code your bank sent</label>${error ? `\n  <p class="error" id="otp-error" role="alert">${escapeHtml(error)}</p>` : ''}
  <input id="otp" name="otp" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{4,8}" minlength="4" maxlength="8" required${error ? ' aria-invalid="true" aria-describedby="otp-error"' : ''}>
  <div class="actions"><button type="submit" class="primary">Confirm</button></div>
</form>
<p class="note">The code came to the phone number or email your bank has for this card.</p>`,
    SITE,
  );
}

/** A page that only says something (the outcome, or why nothing happened), with this page's title. */
export function otpMessage(title: string, message: string, p?: ThreeDsPayment): string {
  return messagePage(title, message, p, SITE);
}
