import type { CheckoutAttemptView, CheckoutPageView } from '../../modules/checkout/checkout.views';
import { predictFromPageTable } from '../../shared/network-prediction';
import { formatAmount, say } from './checkout-template';
import { cancelForm, noscriptRefresh, renderLayout, scriptData, type CheckoutPageOptions } from './checkout-layout';
import { renderMethods } from './checkout-methods';
import { bankTransfer, complete, expired, momoWaiting, PROMPT_TIMEOUT_MS, processing, requiresAction } from './checkout-states';

export type { CheckoutPageOptions } from './checkout-layout';

/** The attempt statuses the page waits on: it polls /status and reloads when they change. */
const WAITING: ReadonlySet<CheckoutAttemptView['status']> = new Set(['initiating', 'processing', 'requires_action', 'successful']);

/**
 * The hosted checkout page (`/checkout/{id}`) of a session, in `opts.lang`: pure, from the view.
 * What it shows follows the session and its latest attempt: the method chooser (open, no attempt
 * or a failed one), "check your phone" (mobile money), "continue to your bank" (3-D Secure), the
 * account to pay into (bank transfer), success, or expiry. Readable without script; the asset
 * script adds polling, the countdown, copy buttons and the network prediction.
 */
export function renderCheckoutPage(view: CheckoutPageView, opts: CheckoutPageOptions): string {
  const lang = opts.lang;
  const base = `/checkout/${encodeURIComponent(view.id)}`;
  const pay = opts.formActions?.pay ?? `${base}/pay`;
  const statusUrl = opts.formActions?.status ?? `${base}/status`;
  const cancel = opts.formActions?.cancel ?? `${base}/cancel`;
  const attempt = view.attempt;
  const networks = Object.fromEntries(view.networks.map((n) => [n.code, n.name]));

  let body: string;
  let poll = false;
  let expires: string | null = null;
  let expiresIn: number | null = null;
  let retryIn: number | null = null;
  let refresh = '';
  if (view.status === 'complete') {
    body = complete(view, lang);
  } else if (view.status === 'expired') {
    body = expired(view, lang);
  } else if (attempt === null || attempt.status === 'failed' || attempt.status === 'expired') {
    body = renderMethods(view, lang, { action: pay, csrf: opts.csrfField, formError: opts.formError ?? null });
  } else {
    poll = WAITING.has(attempt.status);
    refresh = noscriptRefresh(lang, attempt.method === 'bank_transfer' ? 60 : 15);
    if (attempt.status === 'requires_action' && attempt.method !== 'momo') {
      body = requiresAction(attempt, lang);
    } else if (attempt.method === 'momo' && (attempt.status === 'processing' || attempt.status === 'requires_action')) {
      const code = attempt.network ?? (opts.prefixTable && attempt.phone ? predictFromPageTable(opts.prefixTable, attempt.phone) : null);
      const networkName = code ? (networks[code] ?? code) : null;
      // A refused submission (a retry while the first prompt is still open) is said above the waiting state.
      const notice = opts.formError?.message ?? null;
      body = momoWaiting(attempt, lang, { action: pay, csrf: opts.csrfField, now: opts.now, networkName, notice });
      const untilExpiry = attempt.expiresAt ? attempt.expiresAt.getTime() - opts.now.getTime() : PROMPT_TIMEOUT_MS;
      retryIn = notice ? 0 : Math.max(0, Math.min(untilExpiry, PROMPT_TIMEOUT_MS));
    } else if (attempt.method === 'bank_transfer' && attempt.status === 'processing') {
      body = bankTransfer(view, attempt, lang, opts.now);
      expires = attempt.expiresAt?.toISOString() ?? null;
      expiresIn = attempt.expiresAt ? attempt.expiresAt.getTime() - opts.now.getTime() : null;
    } else {
      body = processing(lang);
    }
  }

  const footer = view.status === 'open' && view.cancelUrl ? cancelForm(lang, cancel, opts.csrfField, view.merchantName) : '';
  const data = scriptData(
    {
      status: view.status,
      attempt: attempt?.status ?? null,
      poll,
      statusUrl,
      expires,
      expiresIn,
      retryIn,
      networks,
      prefixes: view.status === 'open' && view.methods.includes('momo') ? (opts.prefixTable ?? null) : null,
    },
    lang,
  );
  return renderLayout(lang, {
    title: say(lang, 'pageTitle', { merchant: view.merchantName }),
    css: opts.assetPaths.css,
    js: opts.assetPaths.js,
    refresh,
    merchant: view.merchantName,
    logoPath: view.merchantLogoPath,
    amount: formatAmount(view.amount, view.currency, lang),
    description: view.description,
    body,
    footer,
    data,
  });
}
