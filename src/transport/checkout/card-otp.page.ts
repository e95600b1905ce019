import type { CheckoutLanguage } from '../../modules/checkout/checkout.views';
import type { PaymentTransaction } from '../../modules/transactions/transaction.record';
import { checkoutAssetPaths } from './checkout-assets';
import { renderLayout } from './checkout-layout';
import { cardUsed } from './checkout-states';
import { compile, formatAmount, perLanguage, say, tx } from './checkout-template';

/** What the one-time code page shows of its payment (AuthenticationView's open, decided or expired view). */
export interface OtpPagePayment {
  merchantName: string;
  /** With exactly its currency's decimals. */
  amount: string;
  payment: Pick<PaymentTransaction, 'currency' | 'cardBrand' | 'cardLast4' | 'description'>;
}

/**
 * The page where a cardholder enters the code the card's bank sent (a PIN card's OTP, after the PIN), in English or
 * French: the hosted checkout's layout, style sheet and headers, no script, one field. Rendering is pure, from
 * templates built once per language; the route (card-otp.routes.ts) adds the headers, the CSRF cookie and the decision.
 */
const OTP = perLanguage((t) => ({
  form: compile(`<h1>${tx(t, 'otpHeading')}</h1>
{{{card}}}<form method="post" action="{{action}}">
<input type="hidden" name="csrf" value="{{csrf}}">
<label for="otp">${tx(t, 'otpTitle')}</label>{{{error}}}
<input id="otp" name="otp" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{4,8}" minlength="4" maxlength="8" required{{{invalid}}}>
<button type="submit">${tx(t, 'otpConfirm')}</button>
</form>
<p class="hint">${tx(t, 'otpNote')}</p>
`),
  error: compile(`\n<p class="alert" id="otp-error" role="alert">{{message}}</p>`),
  card: compile(`<p class="card-used" id="card">{{card}}</p>\n`),
  message: compile(`<h1>{{title}}</h1>
{{{card}}}<p id="message">{{message}}</p>
`),
}));

function page(lang: CheckoutLanguage, title: string, body: string, p?: OtpPagePayment): string {
  return renderLayout(lang, {
    title,
    css: checkoutAssetPaths.css,
    js: null,
    refresh: '',
    merchant: p?.merchantName ?? '',
    logoPath: null,
    amount: p ? formatAmount(p.amount, p.payment.currency, lang) : '',
    description: p?.payment.description ?? null,
    body,
    footer: '',
    data: '',
  });
}

const cardOf = (lang: CheckoutLanguage, p?: OtpPagePayment): string => {
  const used = p ? cardUsed(p.payment.cardBrand, p.payment.cardLast4, lang) : null;
  return used ? OTP[lang].card({ card: used }) : '';
};

/** The form; `error`: why the last code was not taken, in `lang` (the code itself is never shown back). */
export function otpForm(lang: CheckoutLanguage, p: OtpPagePayment, action: string, csrf: string, error: string | null = null): string {
  const tpl = OTP[lang];
  const body = tpl.form({
    card: cardOf(lang, p),
    action,
    csrf,
    error: error ? tpl.error({ message: error }) : '',
    invalid: error ? ' aria-invalid="true" aria-describedby="otp-error"' : '',
  });
  return page(lang, say(lang, 'otpTitle'), body, p);
}

/** A page that only says something (the outcome, or why nothing happened), in `lang`. */
export function otpMessage(lang: CheckoutLanguage, title: string, message: string, p?: OtpPagePayment): string {
  return page(lang, title, OTP[lang].message({ title, card: cardOf(lang, p), message }), p);
}
