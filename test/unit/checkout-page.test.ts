import { gzipSync } from 'node:zlib';
import type { CheckoutAttemptView, CheckoutPageView } from '../../src/modules/checkout/checkout.views';
import { readNetworkPrefixes } from '../../src/modules/reference/reference.data';
import { pagePrefixTable } from '../../src/shared/network-prediction';
import { checkoutAssetPaths, checkoutAssets } from '../../src/transport/checkout/checkout-assets';
import { renderCheckoutPage, type CheckoutPageOptions } from '../../src/transport/checkout/checkout-page';
import { compile, templatesCompiled } from '../../src/transport/checkout/checkout-template';

const NOW = new Date('2026-11-28T13:06:00Z');
const REDIRECT = 'https://shop.example/return';
const CANCEL = 'https://shop.example/cart';
const LOGO = `/checkout/logos/${'ab12'.repeat(16)}`;
const NEXT = 'https://approve.provider.example/otp/abc';

const view = (over: Partial<CheckoutPageView> = {}): CheckoutPageView => ({
  id: 'cs_01HXYZ',
  status: 'open',
  merchantName: 'Acme Stores',
  merchantLogoPath: LOGO,
  amount: '2500.00',
  currency: 'GHS',
  countryCode: 'GH',
  description: 'Order 42',
  methods: ['momo', 'card', 'bank_transfer'],
  networks: [
    { code: 'MTN', name: 'MTN MoMo' },
    { code: 'TELECEL', name: 'Telecel Cash' },
  ],
  customer: { email: 'ama@example.com', phone: '241234567', name: 'Ama Mensah' },
  redirectUrl: REDIRECT,
  cancelUrl: CANCEL,
  expiresAt: new Date('2026-11-28T14:05:00Z'),
  attempt: null,
  ...over,
});

const attempt = (over: Partial<CheckoutAttemptView> = {}): CheckoutAttemptView => ({
  reference: 'pay_01',
  method: 'momo',
  status: 'processing',
  failureReason: null,
  nextActionUrl: null,
  cardBrand: null,
  cardLast4: null,
  phone: '241234567',
  bankDetails: null,
  expiresAt: null,
  ...over,
});

const BANK = { accountName: 'Acme Stores / Paygate', accountNumber: '9912345678', bankName: 'GCB Bank', bankCode: 'GHCBGHAC' };
const bankAttempt = attempt({ method: 'bank_transfer', phone: null, bankDetails: BANK, expiresAt: new Date('2026-11-28T14:05:00Z') });

const opts = (over: Partial<CheckoutPageOptions> = {}): CheckoutPageOptions => ({
  lang: 'en',
  csrfField: 'csrf_tok-123',
  assetPaths: checkoutAssetPaths,
  now: NOW,
  prefixTable: pagePrefixTable(readNetworkPrefixes(), 'GH', '+233', '0'),
  ...over,
});

const STATES: Record<string, CheckoutPageView> = {
  open: view(),
  failed: view({ attempt: attempt({ status: 'failed', failureReason: 'insufficient_funds' }) }),
  pinRequired: view({ attempt: attempt({ method: 'card', phone: null, status: 'failed', failureReason: 'pin_required' }) }),
  momoWaiting: view({ attempt: attempt({ expiresAt: new Date('2026-11-28T13:08:00Z') }) }),
  momoApprovalPage: view({ attempt: attempt({ nextActionUrl: NEXT }) }),
  threeDs: view({ attempt: attempt({ method: 'card', phone: null, status: 'requires_action', nextActionUrl: NEXT, cardBrand: 'visa', cardLast4: '4242' }) }),
  cardProcessing: view({ attempt: attempt({ method: 'card', phone: null }) }),
  initiating: view({ attempt: attempt({ status: 'initiating' }) }),
  bankTransfer: view({ attempt: bankAttempt }),
  complete: view({ status: 'complete', attempt: attempt({ status: 'successful' }) }),
  expired: view({ status: 'expired' }),
};

/** Every tag's attributes, their quoted values emptied, to look for attributes that must never be there. */
const tags = (html: string) => [...html.matchAll(/<([a-z]+)\b([^>]*)>/gi)].map((m) => ({ name: m[1]!.toLowerCase(), attrs: m[2]!.replace(/"[^"]*"/g, '""') }));

describe('renderCheckoutPage: each state', () => {
  it.each(Object.entries(STATES))('%s renders a whole page with the merchant and the amount', (_name, v) => {
    const html = renderCheckoutPage(v, opts());
    expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(html).toContain('<p class="merchant-name">Acme Stores</p>');
    expect(html).toContain('<p class="amount" id="amount">GHS 2,500.00</p>');
    expect(html).toContain('<p class="description">Order 42</p>');
    expect(html).toContain(`<img class="logo" src="${LOGO}"`);
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
  });

  it('open: one form per listed method, in order, each posting csrf and method to /checkout/{id}/pay; the first is open', () => {
    const html = renderCheckoutPage(view({ methods: ['momo', 'bank_transfer'] }), opts());
    const forms = [...html.matchAll(/<form method="post" action="([^"]+)" class="pay" data-form="(\w+)">/g)].map((m) => [m[1], m[2]]);
    expect(forms).toEqual([
      ['/checkout/cs_01HXYZ/pay', 'momo'],
      ['/checkout/cs_01HXYZ/pay', 'bank_transfer'],
    ]);
    expect(html).not.toContain('card_number');
    expect(html).toContain('<details class="method" name="method" id="method-momo" open>');
    expect(html.match(/name="csrf" value="csrf_tok-123"/g)).toHaveLength(3); // two methods and cancel
    expect(html).toContain('<input type="hidden" name="method" value="bank_transfer">');
    expect(html).toContain('<button type="submit">Pay by bank transfer</button>');
  });

  it('open: the momo form has the phone (prefilled), and the networks with "Detect from my number" first', () => {
    const html = renderCheckoutPage(STATES.open!, opts());
    expect(html).toMatch(/<input id="momo-phone" name="phone" type="tel" inputmode="tel" autocomplete="tel" [^>]*value="241234567"/);
    expect(html).toMatch(
      /<select id="momo-network" name="network">\n<option value="">Detect from my number<\/option>\n<option value="MTN">MTN MoMo<\/option>\n<option value="TELECEL">Telecel Cash<\/option>/,
    );
  });

  it('open: the card form asks number, expiry, CVC, postal code and a PIN behind "My card asks for a PIN"', () => {
    const html = renderCheckoutPage(STATES.open!, opts());
    expect(html).toMatch(/name="card_number" [^>]*inputmode="numeric" autocomplete="cc-number"/);
    expect(html).toMatch(/name="expiry_month" [^>]*autocomplete="cc-exp-month"/);
    expect(html).toMatch(/name="expiry_year" [^>]*autocomplete="cc-exp-year"/);
    expect(html).toMatch(/name="cvc" [^>]*autocomplete="cc-csc"/);
    expect(html).toMatch(/name="postal_code" [^>]*autocomplete="billing postal-code"/);
    expect(html).toMatch(/<details class="pin" id="card-pin-box">\n<summary>My card asks for a PIN<\/summary>/);
    expect(html).toMatch(/<input id="card-pin" name="pin" type="password" inputmode="numeric" autocomplete="off" maxlength="4"/);
    expect(html).toContain('<button type="submit">Pay GHS 2,500.00</button>');
  });

  it('card fields are never prefilled, whatever the view holds', () => {
    for (const v of Object.values(STATES)) {
      const html = renderCheckoutPage(v, opts());
      for (const input of html.match(/<input [^>]*name="(card_number|expiry_month|expiry_year|cvc|pin|postal_code)"[^>]*>/g) ?? []) {
        expect(input).not.toMatch(/\svalue=/);
      }
    }
  });

  it('failed: the reason in plain words, announced, above the chooser; the failed method opens', () => {
    const html = renderCheckoutPage(STATES.failed!, opts());
    expect(html).toMatch(
      /<div class="alert" role="alert">\n<h2>The payment did not go through<\/h2>\n<p id="failure-reason">There was not enough money in the account or wallet.<\/p>\n<p>Try again/,
    );
    expect(html.indexOf('role="alert"')).toBeLessThan(html.indexOf('How do you want to pay?'));
    const pin = renderCheckoutPage(STATES.pinRequired!, opts());
    expect(pin).toContain('Your card needs its PIN: enter the card again with its PIN.');
    expect(pin).toContain('<details class="method" name="method" id="method-card" open>');
    expect(pin).toContain('<details class="pin" id="card-pin-box" open>');
    expect(pin).not.toContain('id="method-momo" open');
    const other = renderCheckoutPage(view({ attempt: attempt({ status: 'failed', failureReason: 'weird_new_reason' }) }), opts());
    expect(other).toContain('The payment was not completed.');
  });

  it('a refused submission: the routes’ words announced above the methods, with that method open', () => {
    const html = renderCheckoutPage(STATES.failed!, opts({ formError: { method: 'card', message: 'The expiry date <is> in the past' } }));
    expect(html).toContain('<div class="alert" role="alert">\n<p id="form-error">The expiry date &lt;is&gt; in the past</p>');
    expect(html).not.toContain('failure-reason'); // one alert at a time: the latest thing that went wrong
    expect(html).toContain('<details class="method" name="method" id="method-card" open>');
    expect(html).not.toContain('id="method-momo" open');
  });

  it('momo processing: check your phone, the number and the (predicted) network, a spinner, and a retry that shows later', () => {
    const html = renderCheckoutPage(STATES.momoWaiting!, opts());
    expect(html).toContain('<h1>Check your phone</h1>');
    expect(html).toContain('We sent a payment request to 241234567 (MTN MoMo).');
    expect(html).toContain('<div class="spinner" aria-hidden="true"></div>');
    expect(html).toContain('<div class="retry later" id="retry">');
    expect(html).toMatch(
      /<form method="post" action="\/checkout\/cs_01HXYZ\/pay">\n<input type="hidden" name="csrf" value="csrf_tok-123">\n<input type="hidden" name="method" value="momo">/,
    );
    expect(html).toContain('"poll":true');
    expect(html).toContain('"retryIn":45000');
    expect(html).toContain('<noscript><meta http-equiv="refresh" content="15"></noscript>');
    expect(html).not.toContain('How do you want to pay?');
    // The service's network wins over the prediction; past the attempt's expiry the retry shows at once.
    const overdue = renderCheckoutPage(view({ attempt: attempt({ network: 'TELECEL', expiresAt: new Date('2026-11-28T13:00:00Z') }) }), opts());
    expect(overdue).toContain('(Telecel Cash)');
    expect(overdue).toContain('<div class="retry" id="retry">');
    expect(overdue).toContain('"retryIn":0');
  });

  it('momo processing after a refused retry: the routes’ words, announced and escaped, and the retry shown at once', () => {
    const html = renderCheckoutPage(STATES.momoWaiting!, opts({ formError: { method: 'momo', message: 'Still <open> on the network' } }));
    expect(html).toContain('<div class="alert" role="alert">\n<p id="form-error">Still &lt;open&gt; on the network</p>');
    expect(html).toContain('<h1>Check your phone</h1>');
    expect(html).toContain('<div class="retry" id="retry">');
    expect(html).toContain('"retryIn":0');
  });

  it('momo with a provider page: a prominent link to it', () => {
    const html = renderCheckoutPage(STATES.momoApprovalPage!, opts());
    expect(html).toContain(`<a class="button" id="next-action" href="${NEXT}">Approve the payment</a>`);
  });

  it('requires_action: "Continue to your bank" to the 3-D Secure page', () => {
    const html = renderCheckoutPage(STATES.threeDs!, opts());
    expect(html).toContain(`<a class="button" id="next-action" href="${NEXT}">Continue to your bank</a>`);
    expect(html).toContain('Visa •••• 4242');
    expect(html).toContain('"attempt":"requires_action"');
  });

  it('bank transfer: the amount, account number, bank and account name with copy buttons, and the deadline as text', () => {
    const html = renderCheckoutPage(STATES.bankTransfer!, opts());
    expect(html).toContain('<span id="bt-amount">GHS 2,500.00</span>');
    expect(html).toContain('<span class="mono" id="bt-account">9912345678</span>');
    expect(html).toContain('<span id="bt-bank">GCB Bank</span>');
    expect(html).toContain('<span id="bt-name">Acme Stores / Paygate</span>');
    expect(html).toContain('data-copy="9912345678"');
    expect(html).toContain('data-copy="2500.00"');
    expect(html.match(/<button type="button" class="copy"[^>]* hidden>Copy<\/button>/g)).toHaveLength(4);
    // Accra is UTC+0; 13:06 to 14:05 is 59 minutes.
    expect(html).toContain('<p class="countdown" id="countdown">Pay before 14:05 (about 59 minutes)</p>');
    // What happens to a different amount, as it truly does (docs/checkout.md, "Paid short or over"): nothing is promised that nothing does.
    expect(html).toContain(
      '<p class="hint">Send exactly this amount: a different one is not settled automatically. More completes this payment, and the extra is returned to you or passed to Acme Stores once a person has checked it. Less does not complete it: this page keeps waiting, and the money is returned to you or credited to Acme Stores once a person has checked it. Either way it is not lost; contact Acme Stores if it happens.</p>',
    );
    expect(html).not.toMatch(/as Acme Stores decides|is completed or refunded/);
    expect(html).toContain('"expiresIn":3540000');
  });

  it('bank transfer: the deadline in the country’s time zone (Nairobi is UTC+3)', () => {
    const html = renderCheckoutPage(view({ countryCode: 'KE', currency: 'KES', attempt: bankAttempt }), opts({ prefixTable: null }));
    expect(html).toContain('Pay before 17:05 (about 59 minutes)');
  });

  it('complete: success and "Return to {merchant}" (with the session, the payment and its status in the query); no cancel, no polling', () => {
    const html = renderCheckoutPage(STATES.complete!, opts());
    expect(html).toContain('<h1>Payment successful</h1>');
    expect(html).toContain(
      `<a class="button" id="return" href="${REDIRECT}?checkout_session_id=cs_01HXYZ&amp;reference=pay_01&amp;status=successful">Return to Acme Stores</a>`,
    );
    expect(html).not.toContain('/cancel');
    expect(html).toContain('"poll":false');
  });

  it('expired: nothing was charged, back to the cancel URL, else the redirect URL', () => {
    const html = renderCheckoutPage(STATES.expired!, opts());
    expect(html).toContain('<h1>This checkout has expired</h1>');
    expect(html).toContain('Nothing was charged.');
    expect(html).toContain(`href="${CANCEL}">Back to Acme Stores</a>`);
    expect(renderCheckoutPage(view({ status: 'expired', cancelUrl: null }), opts())).toContain(`href="${REDIRECT}">Back to Acme Stores</a>`);
  });

  it('the cancel form posts to /checkout/{id}/cancel only when the session has a cancel URL', () => {
    const html = renderCheckoutPage(STATES.open!, opts());
    expect(html).toMatch(
      /<form method="post" action="\/checkout\/cs_01HXYZ\/cancel" class="cancel">\n<input type="hidden" name="csrf" value="csrf_tok-123">\n<button type="submit" class="link">Cancel and return to Acme Stores<\/button>/,
    );
    expect(renderCheckoutPage(view({ cancelUrl: null }), opts())).not.toContain('/cancel');
  });
});

describe('renderCheckoutPage: safety', () => {
  const EVIL = '<script>alert("x")</script>';
  const evil = view({
    id: 'cs_"><script>',
    merchantName: EVIL,
    description: `" onmouseover="alert(1)`,
    currency: 'GH<S',
    merchantLogoPath: '/checkout/logos/x.png" onerror="alert(1)',
    networks: [{ code: '"><b>', name: '</script><script>alert(1)</script>' }],
    customer: { email: 'a@b.c', phone: '"><img src=x onerror=alert(1)>', name: null },
  });
  const evilStates = [
    evil,
    { ...evil, attempt: attempt({ phone: EVIL, nextActionUrl: 'javascript:alert(1)' }) },
    { ...evil, attempt: { ...bankAttempt, bankDetails: { ...BANK, accountName: EVIL, accountNumber: '"1', bankName: '<i>' } } },
  ];

  it('escapes every dynamic value', () => {
    for (const v of evilStates) {
      const html = renderCheckoutPage(v, opts());
      expect(html).not.toContain('<script>alert');
      expect(html).not.toContain('<img src=x');
      expect(html).not.toContain('<i>');
      expect(html).not.toContain('<b>');
      expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
      expect(html).not.toContain('javascript:');
    }
  });

  it('has no script but the asset and the JSON data, no style, no inline handler', () => {
    for (const v of [...Object.values(STATES), ...evilStates]) {
      const html = renderCheckoutPage(v, opts());
      const scripts = html.match(/<script\b[^>]*>/g) ?? [];
      expect(scripts).toEqual([`<script src="${checkoutAssets.js.path}" defer>`, '<script type="application/json" id="checkout-data">']);
      expect(html.match(/<\/script>/g)).toHaveLength(2);
      expect(html).not.toMatch(/<style/i);
      for (const tag of tags(html)) {
        expect(tag.attrs).not.toMatch(/\sstyle\s*=/i);
        expect(tag.attrs).not.toMatch(/\son[a-z]+\s*=/i);
      }
    }
  });

  it('the JSON data parses back, whatever it carries', () => {
    const html = renderCheckoutPage(evil, opts());
    const json = /<script type="application\/json" id="checkout-data">([^<]*)<\/script>/.exec(html)![1]!;
    expect(JSON.parse(json).networks['"><b>']).toBe('</script><script>alert(1)</script>');
  });

  it('links to no absolute URL but the merchant’s and the next action; nothing third-party (the logo is ours, a path)', () => {
    const allowed = new Set([REDIRECT, CANCEL, NEXT]);
    for (const v of Object.values(STATES)) {
      const html = renderCheckoutPage(v, opts());
      // The merchant's page may carry the session's outcome in its query.
      for (const url of html.match(/(https?:)?\/\/[^\s"'<>]+/g) ?? []) expect(allowed).toContain(url.split('?')[0]);
      expect([...html.matchAll(/<img [^>]*src="([^"]*)"/g)].map((m) => m[1])).toEqual([LOGO]);
    }
  });

  it('shows no logo without one, and links only to http(s)', () => {
    const html = renderCheckoutPage(view({ merchantLogoPath: null, redirectUrl: 'javascript:alert(1)', status: 'complete' }), opts());
    expect(html).not.toContain('<img');
    expect(html).not.toContain('javascript:');
    expect(html).not.toContain('id="return"');
  });

  it('every visible input and select has a label', () => {
    const html = renderCheckoutPage(STATES.open!, opts());
    const ids = [...html.matchAll(/<(?:input|select) id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids.length).toBeGreaterThan(6);
    for (const id of ids) expect(html).toContain(`<label for="${id}">`);
    expect(html).not.toMatch(/<input (?!type="hidden")(?!id=)/);
  });
});

describe('renderCheckoutPage: French', () => {
  it('is in French', () => {
    const html = renderCheckoutPage(STATES.open!, opts({ lang: 'fr' }));
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain('<title>Payer Acme Stores</title>');
    expect(html).toContain('<h1>Comment voulez-vous payer ?</h1>');
    expect(html).toContain('Reconnaître d’après mon numéro');
    expect(html).toContain('Ma carte demande un code PIN');
    expect(html).toContain('Payer par virement bancaire');
    expect(html).toContain('Annuler et retourner sur Acme Stores');
    expect(html).toContain('2\u202f500,00\u00a0GHS');
    expect(html).not.toContain('How do you want to pay');
    const bank = renderCheckoutPage(STATES.bankTransfer!, opts({ lang: 'fr' }));
    expect(bank).toContain('Payez avant 14:05 (environ 59 minutes)');
    expect(bank).toContain('Virez exactement ce montant : un autre montant n’est pas traité automatiquement.');
    expect(bank).toContain('le surplus vous est rendu ou reversé à Acme Stores après vérification par une personne');
    expect(bank).not.toContain('selon le choix de');
    expect(renderCheckoutPage(STATES.failed!, opts({ lang: 'fr' }))).toContain('Le solde du compte ou du portefeuille était insuffisant.');
    expect(renderCheckoutPage(STATES.momoWaiting!, opts({ lang: 'fr' }))).toContain('Regardez votre téléphone');
  });
});

describe('size and cost', () => {
  it('the largest first load (HTML + CSS + JS, gzip) is at most 100 KB', () => {
    const sizes = Object.entries(STATES).map(([name, v]) => {
      const html = renderCheckoutPage(v, opts());
      return { name, html: gzipSync(html, { level: 6 }).length };
    });
    const largest = sizes.reduce((a, b) => (b.html > a.html ? b : a));
    const total = largest.html + checkoutAssets.css.gzip.length + checkoutAssets.js.gzip.length;
    console.log(
      `checkout first load, gzip: largest HTML (${largest.name}) ${largest.html} B + CSS ${checkoutAssets.css.gzip.length} B + JS ${checkoutAssets.js.gzip.length} B = ${total} B`,
    );
    expect(total).toBeLessThanOrEqual(100 * 1024);
    expect(total).toBeLessThan(20 * 1024);
  });

  it('renders from templates compiled once, at load: rendering every state in both languages compiles none, and keeps no state', () => {
    const compiledAtLoad = templatesCompiled();
    expect(compiledAtLoad).toBeGreaterThan(30);
    const first = Object.values(STATES).flatMap((v) => (['en', 'fr'] as const).map((lang) => renderCheckoutPage(v, opts({ lang }))));
    const again = Object.values(STATES).flatMap((v) => (['en', 'fr'] as const).map((lang) => renderCheckoutPage(v, opts({ lang }))));
    expect(templatesCompiled()).toBe(compiledAtLoad);
    expect(again).toEqual(first);
  });

  it('a template refuses a missing value, and never reads a value as a template', () => {
    const tpl = compile('<p>{{a}}</p>{{{b}}}');
    expect(() => tpl({ a: 'x' })).toThrow(/no value for b/);
    expect(tpl({ a: '{{b}}', b: '<i>{{a}}</i>' })).toBe('<p>{{b}}</p><i>{{a}}</i>');
  });
});
