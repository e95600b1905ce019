import type { PaymentLinkPageView } from '../../src/modules/checkout/checkout.views';
import { checkoutAssets } from '../../src/transport/checkout/checkout-assets';
import { renderInvalidLinkPage, renderMessagePage, renderPaymentLinkPage } from '../../src/transport/checkout/payment-link-page';

describe('renderPaymentLinkPage', () => {
  const link = (over: Partial<PaymentLinkPageView> = {}): PaymentLinkPageView => ({
    slug: 'acme-donate',
    state: 'active',
    name: 'Support Acme',
    merchantName: 'Acme Stores',
    merchantLogoPath: null,
    countryCode: 'GH',
    description: 'Any amount helps',
    currency: 'GHS',
    amount: null,
    minAmount: '10.00',
    maxAmount: '5000.00',
    collect: ['email', 'phone', 'name'],
    ...over,
  });
  const linkOpts = { lang: 'en' as const, csrfField: 'tok' };

  it('active without an amount: the amount field with its bounds, the collected fields, and "Continue to payment"', () => {
    const html = renderPaymentLinkPage(link(), linkOpts);
    expect(html).toContain('<h1 id="link-name">Support Acme</h1>');
    expect(html).toContain('<form method="post" action="/pay/acme-donate" class="pay">');
    expect(html).toContain('<input type="hidden" name="csrf" value="tok">');
    expect(html).toMatch(/<label for="link-amount">Amount \(GHS\)<\/label>\n<input id="link-amount" name="amount" type="text" inputmode="decimal"/);
    expect(html).toContain('Between GHS 10.00 and GHS 5,000.00');
    expect(html).toMatch(/name="email" type="email" autocomplete="email"/);
    expect(html).toMatch(/name="phone" type="tel" inputmode="tel" autocomplete="tel"/);
    expect(html).toMatch(/name="name" type="text" autocomplete="name"/);
    expect(html).toContain('<button type="submit">Continue to payment</button>');
    expect(html).toContain('Any amount helps');
    expect(html).not.toMatch(/<script/);
  });

  it('a refused submission: the route’s words announced above the form', () => {
    const html = renderPaymentLinkPage(link(), { ...linkOpts, formError: 'The amount must be at least GHS 10.00' });
    expect(html).toContain('<div class="alert" role="alert">\n<p id="form-error">The amount must be at least GHS 10.00</p>\n</div>\n<form');
  });

  it('active with a fixed amount: no amount field, the amount shown; only the fields it collects', () => {
    const html = renderPaymentLinkPage(link({ amount: '2500.00', collect: ['email'] }), linkOpts);
    expect(html).not.toContain('link-amount');
    expect(html).toContain('GHS 2,500.00');
    expect(html).toContain('name="email"');
    expect(html).not.toContain('name="phone"');
  });

  it.each([
    ['inactive', 'This payment link is no longer active'],
    ['expired', 'This payment link has expired'],
    ['used_up', 'This payment link has already been used'],
  ] as const)('%s: a clear page, no form', (state, title) => {
    const html = renderPaymentLinkPage(link({ state }), linkOpts);
    expect(html).toContain(`<h1>${title}</h1>`);
    expect(html).toContain('Ask Acme Stores for a new link. Nothing was charged.');
    expect(html).not.toContain('<form');
  });

  it('French, and escaped', () => {
    const html = renderPaymentLinkPage(link({ name: '<script>x</script>', minAmount: null }), { ...linkOpts, lang: 'fr' });
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain('Continuer vers le paiement');
    expect(html).toContain('Au plus 5\u202f000,00\u00a0GHS');
    expect(html).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(renderPaymentLinkPage(link({ state: 'expired' }), { ...linkOpts, lang: 'fr' })).toContain('Ce lien de paiement a expiré');
  });
});

describe('renderMessagePage', () => {
  it('says its words, escaped, in the language, with the style sheet only', () => {
    const html = renderMessagePage('Not <found>', 'Nothing & nobody', 'en');
    expect(html).toContain('<h1>Not &lt;found&gt;</h1>\n<p>Nothing &amp; nobody</p>');
    expect(html).toContain(`<link rel="stylesheet" href="${checkoutAssets.css.path}">`);
    expect(html).not.toContain('<script');
    expect(html).not.toContain('class="merchant"');
  });

  it('a forged id or slug: "This checkout link is not valid"', () => {
    expect(renderInvalidLinkPage('en')).toContain('<h1>This checkout link is not valid</h1>');
    expect(renderInvalidLinkPage('fr')).toContain('<html lang="fr">');
    expect(renderInvalidLinkPage('fr')).toContain('Ce lien de paiement n’est pas valide');
  });
});
