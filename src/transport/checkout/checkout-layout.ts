import type { CheckoutLanguage, CheckoutMethod } from '../../modules/checkout/checkout.views';
import type { PagePrefixTable } from '../../shared/network-prediction';
import { say, compile, jsonBlock, perLanguage, tx } from './checkout-template';

/** What the routes give the checkout page's renderer besides the view. */
export interface CheckoutPageOptions {
  lang: CheckoutLanguage;
  /** The CSRF token every form posts back in its hidden `csrf` field. */
  csrfField: string;
  /** Where the forms post and the script polls; by default /checkout/{id}/pay, /checkout/{id}/cancel and /checkout/{id}/status. */
  formActions?: { pay?: string; cancel?: string; status?: string };
  /** The hashed asset paths (checkoutAssets.css.path, checkoutAssets.js.path). */
  assetPaths: { css: string; js: string };
  now: Date;
  /** The country's prefixes for predicting the network as the phone is typed (pagePrefixTable); none: no prediction. */
  prefixTable?: PagePrefixTable | null;
  /**
   * A submission the routes refused (an invalid phone number, an expired card…), shown announced above
   * the methods with that method's form open. The routes give the words, in `lang`.
   */
  formError?: { method: CheckoutMethod; message: string } | null;
}

/** The parts every page shares: the head, the merchant, the amount, and the page's body. */
export interface LayoutValues {
  title: string;
  css: string;
  /** The script's path, or null for a page without one. */
  js: string | null;
  /** A `<noscript>` refresh for pages that change by themselves, or ''. */
  refresh: string;
  merchant: string;
  /** The merchant's logo on this service (`/checkout/logos/{sha256}`), or null. */
  logoPath: string | null;
  /** The amount as shown, or '' (a payment link without a fixed amount). */
  amount: string;
  description: string | null;
  body: string;
  /** After the body: the cancel form, or ''. */
  footer: string;
  /** The script's data (jsonBlock), or ''. */
  data: string;
}

// `<link rel="icon" href="data:,">`: the browser asks no /favicon.ico (a round trip on 3G, and a 404 in the console).
const LAYOUT = perLanguage((t, lang) => ({
  page: compile(`<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta name="referrer" content="no-referrer">
<meta name="format-detection" content="telephone=no">{{{refresh}}}
<title>{{title}}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="{{css}}">{{{script}}}
</head>
<body>
<main class="checkout" id="checkout">
{{{header}}}{{{summary}}}<div class="content">
{{{body}}}
</div>
{{{footer}}}<p class="secure">${tx(t, 'secured')}</p>
<p class="sr-only" id="announce" aria-live="polite"></p>
</main>
{{{data}}}
</body>
</html>
`),
  summary: compile(`<section class="summary">{{{amount}}}{{{description}}}
</section>
`),
  amount: compile(`
<p class="label">${tx(t, 'amountDue')}</p>
<p class="amount" id="amount">{{amount}}</p>`),
  description: compile(`\n<p class="description">{{description}}</p>`),
  script: compile(`\n<script src="{{js}}" defer></script>`),
  header: compile(`<header class="merchant">{{{logo}}}<p class="merchant-name">{{merchant}}</p></header>\n`),
  logo: compile(`<img class="logo" src="{{src}}" alt="" width="40" height="40">`),
  refresh: compile(`\n<noscript><meta http-equiv="refresh" content="{{seconds}}"></noscript>`),
  cancel: compile(`<form method="post" action="{{action}}" class="cancel">
<input type="hidden" name="csrf" value="{{csrf}}">
<button type="submit" class="link">${tx(t, 'cancel')}</button>
</form>
`),
}));

export function renderLayout(lang: CheckoutLanguage, v: LayoutValues): string {
  const tpl = LAYOUT[lang];
  const logo = v.logoPath;
  const description = v.description ? tpl.description({ description: v.description }) : '';
  return tpl.page({
    title: v.title,
    css: v.css,
    script: v.js ? tpl.script({ js: v.js }) : '',
    refresh: v.refresh,
    header: v.merchant ? tpl.header({ logo: logo ? tpl.logo({ src: logo }) : '', merchant: v.merchant }) : '',
    summary: v.amount || description ? tpl.summary({ amount: v.amount ? tpl.amount({ amount: v.amount }) : '', description }) : '',
    body: v.body,
    footer: v.footer,
    data: v.data,
  });
}

/** A `<noscript>` refresh every `seconds`: without the script, a waiting page still moves on. */
export function noscriptRefresh(lang: CheckoutLanguage, seconds: number): string {
  return LAYOUT[lang].refresh({ seconds: String(seconds) });
}

export function cancelForm(lang: CheckoutLanguage, action: string, csrf: string, merchant: string): string {
  return LAYOUT[lang].cancel({ action, csrf, merchant });
}

/** What the page's script reads (see assets/checkout-script.ts). */
export interface ScriptData {
  /** The session's and the attempt's status as rendered: the script reloads when /status says otherwise. */
  status: string;
  attempt: string | null;
  /** Poll /status every 2 s while this is true. */
  poll: boolean;
  statusUrl: string;
  /** Bank transfer: the deadline the countdown counts to (ISO 8601), and how far it is from the render (ms; the payer's clock may be wrong). */
  expires: string | null;
  expiresIn: number | null;
  /** Mobile money: in how many ms after the render "Didn't get the prompt?" shows. */
  retryIn: number | null;
  networks: Record<string, string>;
  prefixes: PagePrefixTable | null;
  lang: CheckoutLanguage;
  t: Record<string, string>;
}

const SCRIPT_STRINGS = perLanguage((_t, lang) => {
  const keys = ['payBefore', 'aboutMinutes', 'aboutMinute', 'aboutHours', 'expiredNow', 'copied', 'predicted'] as const;
  return Object.fromEntries(keys.map((k) => [k, say(lang, k)]));
});

export function scriptData(data: Omit<ScriptData, 't' | 'lang'>, lang: CheckoutLanguage): string {
  return jsonBlock('checkout-data', { ...data, lang, t: SCRIPT_STRINGS[lang] });
}
