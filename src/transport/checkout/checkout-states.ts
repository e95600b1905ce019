import type { CheckoutAttemptView, CheckoutLanguage, CheckoutPageView } from '../../modules/checkout/checkout.views';
import { compile, formatAmount, formatClock, linkable, perLanguage, say, timeLeft, tx } from './checkout-template';

/**
 * The bodies of the checkout page once the payer has started an attempt, or the session ended:
 * waiting for the phone, the bank's 3-D Secure, the bank-transfer details, success, expiry.
 */
const STATES = perLanguage((t) => ({
  momo: compile(`{{{notice}}}<div class="waiting">
<div class="spinner" aria-hidden="true"></div>
<h1>${tx(t, 'checkPhoneTitle')}</h1>
<p id="momo-sent">${tx(t, 'checkPhoneBody')}</p>
<p class="hint" role="status">${tx(t, 'checkPhoneWait')}</p>
</div>
{{{approve}}}{{{retry}}}`),
  notice: compile(`<div class="alert" role="alert">
<p id="form-error">{{message}}</p>
</div>
`),
  approve: compile(`<p><a class="button" id="next-action" href="{{url}}">${tx(t, 'approveLink')}</a></p>
<p class="hint">${tx(t, 'approveLinkHint')}</p>
`),
  retry: compile(`<div class="retry{{later}}" id="retry">
<h2>${tx(t, 'noPrompt')}</h2>
<p class="hint">${tx(t, 'noPromptHint')}</p>
<form method="post" action="{{action}}">
<input type="hidden" name="csrf" value="{{csrf}}">
<input type="hidden" name="method" value="momo">
<input type="hidden" name="phone" value="{{phone}}">
<button type="submit" class="secondary">${tx(t, 'noPromptRetry')}</button>
</form>
</div>
`),
  action: compile(`<h1>${tx(t, 'threeDsTitle')}</h1>
<p>${tx(t, 'threeDsBody')}</p>{{{card}}}
<p><a class="button" id="next-action" href="{{url}}">${tx(t, 'continueToBank')}</a></p>
`),
  card: compile(`\n<p class="card-used">{{card}}</p>`),
  processing: compile(`<div class="waiting">
<div class="spinner" aria-hidden="true"></div>
<h1>${tx(t, 'processingTitle')}</h1>
<p role="status">${tx(t, 'processingBody')}</p>
</div>
`),
  bank: compile(`<h1>${tx(t, 'bankTitle')}</h1>
<p>${tx(t, 'bankBody')}</p>
<dl class="bank">
<div><dt>${tx(t, 'bankAmount')}</dt><dd><span id="bt-amount">{{amount}}</span> <button type="button" class="copy" data-copy="{{amountRaw}}" aria-describedby="bt-amount" hidden>${tx(t, 'copy')}</button></dd></div>
<div><dt>${tx(t, 'accountNumber')}</dt><dd><span class="mono" id="bt-account">{{accountNumber}}</span> <button type="button" class="copy" data-copy="{{accountNumber}}" aria-describedby="bt-account" hidden>${tx(t, 'copy')}</button></dd></div>
<div><dt>${tx(t, 'bankName')}</dt><dd><span id="bt-bank">{{bankName}}</span> <button type="button" class="copy" data-copy="{{bankName}}" aria-describedby="bt-bank" hidden>${tx(t, 'copy')}</button></dd></div>
<div><dt>${tx(t, 'accountName')}</dt><dd><span id="bt-name">{{accountName}}</span> <button type="button" class="copy" data-copy="{{accountName}}" aria-describedby="bt-name" hidden>${tx(t, 'copy')}</button></dd></div>
</dl>
{{{countdown}}}<p class="hint">${tx(t, 'differentAmount')}</p>
<p class="hint">${tx(t, 'bankAfter')}</p>
`),
  countdown: compile(`<p class="countdown" id="countdown">{{text}}</p>\n`),
  complete: compile(`<div class="done" role="status">
<div class="tick" aria-hidden="true"></div>
<h1>${tx(t, 'completeTitle')}</h1>
<p>${tx(t, 'completeBody')}</p>
</div>
{{{back}}}`),
  returnTo: compile(`<p><a class="button" id="return" href="{{url}}">${tx(t, 'returnTo')}</a></p>\n`),
  expired: compile(`<h1>${tx(t, 'expiredTitle')}</h1>
<p>${tx(t, 'expiredBody')}</p>
{{{back}}}`),
  backTo: compile(`<p><a class="button" id="return" href="{{url}}">${tx(t, 'backTo')}</a></p>\n`),
}));

const BRANDS: Record<string, string> = { visa: 'Visa', mastercard: 'Mastercard', amex: 'American Express', verve: 'Verve', discover: 'Discover' };

/** "Visa •••• 4242": the card a payment is made with, as the pages show it; null without its last four digits. */
export function cardUsed(brand: string | null, last4: string | null, lang: CheckoutLanguage): string | null {
  return last4 ? `${BRANDS[brand ?? ''] ?? say(lang, 'card')} •••• ${last4}` : null;
}

/** How long the payer waits for the phone's prompt before "Didn't get the prompt?" shows, without an expiry. */
export const PROMPT_TIMEOUT_MS = 45_000;

export function momoWaiting(
  attempt: CheckoutAttemptView,
  lang: CheckoutLanguage,
  ctx: { action: string; csrf: string; now: Date; networkName: string | null; notice: string | null },
): string {
  const tpl = STATES[lang];
  const url = linkable(attempt.nextActionUrl);
  // After a refused retry (the notice says why) the retry stays shown: the payer has waited already.
  const overdue = ctx.notice !== null || (attempt.expiresAt !== null && ctx.now.getTime() >= attempt.expiresAt.getTime());
  return tpl.momo({
    notice: ctx.notice ? tpl.notice({ message: ctx.notice }) : '',
    phone: attempt.phone ?? '',
    network: ctx.networkName ?? say(lang, 'momo'),
    approve: url ? tpl.approve({ url }) : '',
    retry: tpl.retry({ later: overdue ? '' : ' later', action: ctx.action, csrf: ctx.csrf, phone: attempt.phone ?? '' }),
  });
}

export function requiresAction(attempt: CheckoutAttemptView, lang: CheckoutLanguage): string {
  const tpl = STATES[lang];
  const url = linkable(attempt.nextActionUrl);
  if (!url) return tpl.processing({});
  const used = cardUsed(attempt.cardBrand, attempt.cardLast4, lang);
  const card = used ? tpl.card({ card: used }) : '';
  return tpl.action({ url, card });
}

export function processing(lang: CheckoutLanguage): string {
  return STATES[lang].processing({});
}

export function bankTransfer(view: CheckoutPageView, attempt: CheckoutAttemptView, lang: CheckoutLanguage, now: Date): string {
  const tpl = STATES[lang];
  const bank = attempt.bankDetails;
  if (!bank) return tpl.processing({});
  const expiresAt = attempt.expiresAt;
  const countdown = expiresAt
    ? tpl.countdown({ text: say(lang, 'payBefore', { time: formatClock(expiresAt, view.countryCode, lang), left: timeLeft(now, expiresAt, lang) }) })
    : '';
  return tpl.bank({
    amount: formatAmount(view.amount, view.currency, lang),
    amountRaw: view.amount,
    accountNumber: bank.accountNumber,
    bankName: bank.bankName,
    accountName: bank.accountName,
    countdown,
    merchant: view.merchantName,
  });
}

/**
 * The merchant's page after the session, with what the payer did in the query: `checkout_session_id`, the payment's
 * `reference` and `status` (a convenience, not proof: the webhook is). Both the redirect after paying and the
 * success page's "Return to" link go there.
 */
export function backToMerchant(view: CheckoutPageView): string {
  const target = new URL(view.redirectUrl);
  target.searchParams.set('checkout_session_id', view.id);
  const reference = view.attempt?.reference ?? null;
  if (reference) target.searchParams.set('reference', reference);
  target.searchParams.set('status', view.status === 'complete' ? 'successful' : (view.attempt?.status ?? view.status));
  return target.toString();
}

export function complete(view: CheckoutPageView, lang: CheckoutLanguage): string {
  const tpl = STATES[lang];
  const url = linkable(view.redirectUrl) ? linkable(backToMerchant(view)) : null;
  return tpl.complete({
    amount: formatAmount(view.amount, view.currency, lang),
    merchant: view.merchantName,
    back: url ? tpl.returnTo({ url, merchant: view.merchantName }) : '',
  });
}

export function expired(view: CheckoutPageView, lang: CheckoutLanguage): string {
  const tpl = STATES[lang];
  const url = linkable(view.cancelUrl) ?? linkable(view.redirectUrl);
  return tpl.expired({ merchant: view.merchantName, back: url ? tpl.backTo({ url, merchant: view.merchantName }) : '' });
}
