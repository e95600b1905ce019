import type { CheckoutLanguage, PaymentLinkPageView } from '../../modules/checkout/checkout.views';
import { checkoutAssetPaths } from './checkout-assets';
import { renderLayout } from './checkout-layout';
import { compile, formatAmount, perLanguage, say, tx } from './checkout-template';

/** What the routes give the payment-link page's renderer besides the view. */
export interface PaymentLinkPageOptions {
  lang: CheckoutLanguage;
  /** The CSRF token the form posts back in its hidden `csrf` field. */
  csrfField: string;
  /** Where the form posts; by default /pay/{slug}. */
  formAction?: string;
  /** The style sheet's path; by default the hashed asset's. The page needs no script. */
  assetPaths?: { css: string };
  /** A submission the route refused (an amount out of bounds, an invalid email), announced above the form; the route's words. */
  formError?: string | null;
}

const LINK = perLanguage((t) => ({
  active: compile(`<h1 id="link-name">{{name}}</h1>
{{{error}}}<form method="post" action="{{action}}" class="pay">
<input type="hidden" name="csrf" value="{{csrf}}">{{{amount}}}{{{fields}}}
<button type="submit">${tx(t, 'continue')}</button>
</form>
`),
  amount: compile(`
<label for="link-amount">${tx(t, 'linkAmount')}</label>
<input id="link-amount" name="amount" type="text" inputmode="decimal" autocomplete="off" required maxlength="20" pattern="[0-9]+([.,][0-9]{1,4})?"{{{describedBy}}}>{{{hint}}}`),
  hint: compile(`\n<p class="hint" id="link-amount-hint">{{text}}</p>`),
  error: compile(`<div class="alert" role="alert">
<p id="form-error">{{message}}</p>
</div>
`),
  email: compile(`
<label for="link-email">${tx(t, 'email')}</label>
<input id="link-email" name="email" type="email" autocomplete="email" required maxlength="254">`),
  phone: compile(`
<label for="link-phone">${tx(t, 'phoneNumber')}</label>
<input id="link-phone" name="phone" type="tel" inputmode="tel" autocomplete="tel" required maxlength="20">`),
  name: compile(`
<label for="link-fullname">${tx(t, 'fullName')}</label>
<input id="link-fullname" name="name" type="text" autocomplete="name" required maxlength="120">`),
  gone: compile(`<div class="alert" role="alert">
<h1>{{title}}</h1>
<p>${tx(t, 'linkGone')}</p>
</div>
`),
  message: compile(`<h1>{{title}}</h1>
<p>{{message}}</p>
`),
}));

const GONE_TITLES = { inactive: 'linkInactive', expired: 'linkExpired', used_up: 'linkUsedUp' } as const;

/**
 * A payment link's landing page (`/pay/{slug}`): active, the amount to choose (when the link has
 * none) and the details the link collects, posted to open a checkout session; otherwise a page
 * saying the link can no longer be paid.
 */
export function renderPaymentLinkPage(view: PaymentLinkPageView, opts: PaymentLinkPageOptions): string {
  const lang = opts.lang;
  const tpl = LINK[lang];
  let body: string;
  if (view.state === 'active') {
    let amount = '';
    if (view.amount === null) {
      const min = view.minAmount !== null ? formatAmount(view.minAmount, view.currency, lang) : null;
      const max = view.maxAmount !== null ? formatAmount(view.maxAmount, view.currency, lang) : null;
      const text =
        min && max ? say(lang, 'linkAmountHint', { min, max }) : min ? say(lang, 'linkAmountMin', { min }) : max ? say(lang, 'linkAmountMax', { max }) : null;
      amount = tpl.amount({
        currency: view.currency,
        describedBy: text ? ' aria-describedby="link-amount-hint"' : '',
        hint: text ? tpl.hint({ text }) : '',
      });
    }
    const fields = (['email', 'phone', 'name'] as const).filter((f) => view.collect.includes(f)).map((f) => tpl[f]({}));
    body = tpl.active({
      name: view.name,
      error: opts.formError ? tpl.error({ message: opts.formError }) : '',
      action: opts.formAction ?? `/pay/${encodeURIComponent(view.slug)}`,
      csrf: opts.csrfField,
      amount,
      fields: fields.join(''),
    });
  } else {
    body = tpl.gone({ title: say(lang, GONE_TITLES[view.state]), merchant: view.merchantName });
  }
  return renderLayout(lang, {
    title: view.state === 'active' ? view.name : say(lang, GONE_TITLES[view.state]),
    css: opts.assetPaths?.css ?? checkoutAssetPaths.css,
    js: null,
    refresh: '',
    merchant: view.merchantName,
    logoPath: view.merchantLogoPath,
    amount: view.state === 'active' && view.amount !== null ? formatAmount(view.amount, view.currency, lang) : '',
    description: view.state === 'active' ? view.description : null,
    body,
    footer: '',
    data: '',
  });
}

/**
 * A page that only says something (not found, forbidden, an error), in the payer's language. The
 * routes give the words; `invalidLinkPage` is the one for a forged or unknown id or slug.
 */
export function renderMessagePage(title: string, message: string, lang: CheckoutLanguage, assetPaths: { css: string } = checkoutAssetPaths): string {
  return renderLayout(lang, {
    title,
    css: assetPaths.css,
    js: null,
    refresh: '',
    merchant: '',
    logoPath: null,
    amount: '',
    description: null,
    body: LINK[lang].message({ title, message }),
    footer: '',
    data: '',
  });
}

/** "This checkout link is not valid": for a checkout id or link slug that names nothing (or was forged). */
export function renderInvalidLinkPage(lang: CheckoutLanguage): string {
  return renderMessagePage(say(lang, 'invalidTitle'), say(lang, 'invalidBody'), lang);
}
