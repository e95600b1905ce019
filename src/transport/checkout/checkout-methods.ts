import type { CheckoutLanguage, CheckoutMethod, CheckoutPageView } from '../../modules/checkout/checkout.views';
import { failureMessage } from './checkout-i18n';
import { compile, formatAmount, perLanguage, tx } from './checkout-template';

/**
 * The open session's body: why the last attempt failed (if it did), and one form per method the
 * session offers, each in a <details> (works without script or style; the failed attempt's method,
 * or the first, starts open). Card fields are never given a value.
 */
const METHODS = perLanguage((t) => ({
  formError: compile(`<div class="alert" role="alert">
<p id="form-error">{{message}}</p>
</div>
`),
  failure: compile(`<div class="alert" role="alert">
<h2>${tx(t, 'failedTitle')}</h2>
<p id="failure-reason">{{reason}}</p>
<p>${tx(t, 'tryAgain')}</p>
</div>
`),
  chooser: compile(`<h1>${tx(t, 'chooseMethod')}</h1>
{{{methods}}}`),
  momo: compile(`<details class="method" name="method" id="method-momo"{{{open}}}>
<summary>${tx(t, 'momo')}</summary>
<form method="post" action="{{action}}" class="pay" data-form="momo">
<input type="hidden" name="csrf" value="{{csrf}}">
<input type="hidden" name="method" value="momo">
<label for="momo-phone">${tx(t, 'phone')}</label>
<input id="momo-phone" name="phone" type="tel" inputmode="tel" autocomplete="tel" required maxlength="20" value="{{phone}}" aria-describedby="momo-phone-hint momo-predicted">
<p class="hint" id="momo-phone-hint">${tx(t, 'phoneHint')}</p>
<p class="hint predicted" id="momo-predicted" aria-live="polite"></p>{{{networks}}}
<button type="submit">${tx(t, 'payMomo')}</button>
</form>
</details>
`),
  networks: compile(`
<label for="momo-network">${tx(t, 'network')}</label>
<select id="momo-network" name="network">
<option value="">${tx(t, 'detectNetwork')}</option>{{{options}}}
</select>`),
  option: compile(`\n<option value="{{code}}">{{name}}</option>`),
  card: compile(`<details class="method" name="method" id="method-card"{{{open}}}>
<summary>${tx(t, 'card')}</summary>
<form method="post" action="{{action}}" class="pay" data-form="card">
<input type="hidden" name="csrf" value="{{csrf}}">
<input type="hidden" name="method" value="card">
<label for="card-number">${tx(t, 'cardNumber')}</label>
<input id="card-number" name="card_number" type="text" inputmode="numeric" autocomplete="cc-number" required minlength="12" maxlength="23" pattern="[0-9 ]{12,23}" spellcheck="false">
<div class="row">
<div><label for="card-exp-month">${tx(t, 'expiryMonth')}</label>
<input id="card-exp-month" name="expiry_month" type="text" inputmode="numeric" autocomplete="cc-exp-month" required maxlength="2" pattern="[0-9]{1,2}"></div>
<div><label for="card-exp-year">${tx(t, 'expiryYear')}</label>
<input id="card-exp-year" name="expiry_year" type="text" inputmode="numeric" autocomplete="cc-exp-year" required maxlength="4" pattern="[0-9]{2,4}"></div>
<div><label for="card-cvc">${tx(t, 'cvc')}</label>
<input id="card-cvc" name="cvc" type="text" inputmode="numeric" autocomplete="cc-csc" required maxlength="4" pattern="[0-9]{3,4}"></div>
</div>
<label for="card-postal">${tx(t, 'postalCode')}</label>
<input id="card-postal" name="postal_code" type="text" autocomplete="billing postal-code" maxlength="16">
<details class="pin" id="card-address-box"{{{addressOpen}}}>
<summary>${tx(t, 'addressToggle')}</summary>
<label for="card-address-line">${tx(t, 'addressLine')}</label>
<input id="card-address-line" name="address_line1" type="text" autocomplete="billing address-line1" maxlength="100">
<label for="card-address-city">${tx(t, 'addressCity')}</label>
<input id="card-address-city" name="address_city" type="text" autocomplete="billing address-level2" maxlength="60">
<label for="card-address-state">${tx(t, 'addressState')}</label>
<input id="card-address-state" name="address_state" type="text" autocomplete="billing address-level1" maxlength="60">
<label for="card-address-country">${tx(t, 'addressCountry')}</label>
<input id="card-address-country" name="address_country" type="text" autocomplete="billing country" maxlength="2" pattern="[A-Za-z]{2}">
</details>
<details class="pin" id="card-pin-box"{{{pinOpen}}}>
<summary>${tx(t, 'pinToggle')}</summary>
<label for="card-pin">${tx(t, 'pin')}</label>
<input id="card-pin" name="pin" type="password" inputmode="numeric" autocomplete="off" maxlength="4" pattern="[0-9]{4}" aria-describedby="card-pin-hint">
<p class="hint" id="card-pin-hint">${tx(t, 'pinHint')}</p>
</details>
<button type="submit">${tx(t, 'payCard')}</button>
</form>
</details>
`),
  bank_transfer: compile(`<details class="method" name="method" id="method-bank_transfer"{{{open}}}>
<summary>${tx(t, 'bankTransfer')}</summary>
<form method="post" action="{{action}}" class="pay" data-form="bank_transfer">
<input type="hidden" name="csrf" value="{{csrf}}">
<input type="hidden" name="method" value="bank_transfer">
<p class="hint">${tx(t, 'bankIntro')}</p>
<button type="submit">${tx(t, 'payBank')}</button>
</form>
</details>
`),
}));

export function renderMethods(
  view: CheckoutPageView,
  lang: CheckoutLanguage,
  ctx: { action: string; csrf: string; formError: { method: CheckoutMethod; message: string } | null },
): string {
  const tpl = METHODS[lang];
  const { action, csrf, formError } = ctx;
  const attempt = view.attempt;
  const failed = attempt !== null && (attempt.status === 'failed' || attempt.status === 'expired');
  const openMethod: CheckoutMethod | undefined =
    formError && view.methods.includes(formError.method)
      ? formError.method
      : failed && view.methods.includes(attempt.method)
        ? attempt.method
        : view.methods[0];
  const open = (m: CheckoutMethod) => (m === openMethod ? ' open' : '');
  const forms = view.methods.map((method) => {
    switch (method) {
      case 'momo': {
        const options = view.networks.map((n) => tpl.option({ code: n.code, name: n.name })).join('');
        const phone = failed && attempt.method === 'momo' && attempt.phone ? attempt.phone : (view.customer.phone ?? '');
        return tpl.momo({ open: open(method), action, csrf, phone, networks: view.networks.length ? tpl.networks({ options }) : '' });
      }
      case 'card':
        return tpl.card({
          open: open(method),
          action,
          csrf,
          pinOpen: failed && (attempt.failureReason === 'pin_required' || attempt.failureReason === 'incorrect_pin') ? ' open' : '',
          addressOpen: failed && attempt.failureReason === 'address_required' ? ' open' : '',
          amount: formatAmount(view.amount, view.currency, lang),
        });
      case 'bank_transfer':
        return tpl.bank_transfer({ open: open(method), action, csrf });
    }
  });
  const failure = formError
    ? tpl.formError({ message: formError.message })
    : failed
      ? tpl.failure({ reason: failureMessage(attempt.failureReason, lang) })
      : '';
  return failure + tpl.chooser({ methods: forms.join('') });
}
