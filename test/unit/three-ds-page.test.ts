import { authenticationForm, escapeHtml, messagePage, type ThreeDsPayment } from '../../src/providers/sandbox/three-ds-page';

const payment: ThreeDsPayment = {
  merchantName: 'Acme Stores',
  amount: '2500.00 NGN',
  cardBrand: 'visa',
  cardLast4: '3155',
  description: 'Order 42',
};
const ACTION = '/sandbox/3ds/h_abc123';
const CSRF = 'sig_abc-DEF_123';

describe('escapeHtml', () => {
  it.each([
    ['&', '&amp;'],
    ['<', '&lt;'],
    ['>', '&gt;'],
    ['"', '&quot;'],
    ["'", '&#39;'],
    ['<script>alert(1)</script>', '&lt;script&gt;alert(1)&lt;/script&gt;'],
    ['" onmouseover="x', '&quot; onmouseover=&quot;x'],
    ["' onfocus='x", '&#39; onfocus=&#39;x'],
    ['Tom & Jerry', 'Tom &amp; Jerry'],
    ['&amp;', '&amp;amp;'], // escaped again: the text is text, not markup
    ['&lt;b&gt;', '&amp;lt;b&amp;gt;'],
    ['<<>>""', '&lt;&lt;&gt;&gt;&quot;&quot;'],
    ['', ''],
    ['plain text 123', 'plain text 123'],
    ['Café Ñandú ₦ •••• 日本', 'Café Ñandú ₦ •••• 日本'],
    ['a\nb\tc', 'a\nb\tc'],
  ])('%p → %p', (text, escaped) => {
    expect(escapeHtml(text)).toBe(escaped);
  });

  it('leaves no character that could open a tag, an entity or end an attribute', () => {
    const out = escapeHtml(`<>&"'`.repeat(10) + 'x');
    expect(out).not.toMatch(/[<>"']/);
    expect(out.replace(/&(amp|lt|gt|quot|#39);/g, '')).not.toContain('&');
  });
});

describe('authenticationForm', () => {
  const page = authenticationForm(payment, ACTION, CSRF);

  it('is a complete HTML document with no script', () => {
    expect(page.startsWith('<!doctype html>')).toBe(true);
    expect(page).toContain('<title>Confirm your payment · Sandbox 3-D Secure</title>');
    expect(page).toContain('<meta name="robots" content="noindex">');
    expect(page.toLowerCase()).not.toContain('<script');
    expect(page).not.toMatch(/\son[a-z]+\s*=/i);
    expect(page.trimEnd().endsWith('</html>')).toBe(true);
  });

  it('shows the merchant, amount, card and description', () => {
    expect(page).toContain('<dd id="merchant">Acme Stores</dd>');
    expect(page).toContain('<dd id="amount">2500.00 NGN</dd>');
    expect(page).toContain('<dd id="card">Visa •••• 3155</dd>');
    expect(page).toContain('<dt>For</dt><dd>Order 42</dd>');
  });

  it('posts one form to the action with the CSRF field and the two decisions', () => {
    expect(page.match(/<form /g)).toHaveLength(1);
    expect(page).toContain(`<form method="post" action="${ACTION}">`);
    expect(page).toContain(`<input type="hidden" name="csrf" value="${CSRF}">`);
    expect(page).toContain('<button type="submit" name="decision" value="complete">Complete</button>');
    expect(page).toContain('<button type="submit" name="decision" value="fail">Fail</button>');
  });

  it.each<[string | null, string | null, string]>([
    ['visa', '4242', 'Visa •••• 4242'],
    ['mastercard', '4444', 'Mastercard •••• 4444'],
    ['amex', '0005', 'American Express •••• 0005'],
    ['verve', '3210', 'Verve •••• 3210'],
    ['discover', '1117', 'Discover •••• 1117'],
    ['unknown', '0505', 'Card •••• 0505'],
    [null, '0505', 'Card •••• 0505'],
    ['visa', null, 'Card'],
    [null, null, 'Card'],
  ])('labels a %p card ending %p as %p', (cardBrand, cardLast4, label) => {
    expect(authenticationForm({ ...payment, cardBrand, cardLast4 }, ACTION, CSRF)).toContain(`<dd id="card">${label}</dd>`);
  });

  it.each([null, ''])('has no "For" line when the description is %p', (description) => {
    const html = authenticationForm({ ...payment, description }, ACTION, CSRF);
    expect(html).not.toContain('<dt>For</dt>');
  });
});

describe('messagePage', () => {
  it('shows the title and message, and the payment when given', () => {
    const page = messagePage('Payment authenticated', 'You can close this page.', payment);
    expect(page).toContain('<title>Payment authenticated · Sandbox 3-D Secure</title>');
    expect(page).toContain('<h1>Payment authenticated</h1>');
    expect(page).toContain('<p id="message">You can close this page.</p>');
    expect(page).toContain('<dd id="merchant">Acme Stores</dd>');
    expect(page.toLowerCase()).not.toContain('<script');
    expect(page).not.toContain('<form');
  });

  it('has no payment details without a payment', () => {
    const page = messagePage('Link expired', 'This authentication link is no longer valid.');
    expect(page).not.toContain('<dl>');
    expect(page).not.toContain('id="merchant"');
    expect(page).toContain('<p id="message">This authentication link is no longer valid.</p>');
  });
});

describe('hostile text appears only escaped, on both pages', () => {
  const hostile = [
    '<script>alert(1)</script>',
    '" onmouseover="x',
    "' onmouseover='x",
    '"><img src=x onerror=alert(1)>',
    '</dd></dl><form action="https://evil.example/">',
    '</title><script>alert(1)</script>',
    '<!-- & -->',
  ];

  /** What must not appear raw, whatever field the hostile text went into. */
  function expectOnlyEscaped(page: string, text: string) {
    expect(page).not.toContain(text);
    expect(page).toContain(escapeHtml(text));
    expect(page.toLowerCase()).not.toContain('<script');
    expect(page).not.toMatch(/<img/i);
    expect(page).not.toMatch(/\son[a-z]+\s*=\s*["']/i); // no event-handler attribute
    expect(page).not.toContain('evil.example/">');
    expect(page.match(/<form /g) ?? []).toHaveLength(page.includes('name="decision"') ? 1 : 0);
  }

  describe.each(hostile)('%p', (text) => {
    it.each<[string, Partial<ThreeDsPayment>]>([
      ['merchantName', { merchantName: text }],
      ['amount', { amount: text }],
      ['description', { description: text }],
      ['cardLast4', { cardLast4: text }],
    ])('as %s in the authentication form', (_field, change) => {
      expectOnlyEscaped(authenticationForm({ ...payment, ...change }, ACTION, CSRF), text);
    });

    it.each<[string, Partial<ThreeDsPayment>]>([
      ['merchantName', { merchantName: text }],
      ['amount', { amount: text }],
      ['description', { description: text }],
      ['cardLast4', { cardLast4: text }],
    ])('as %s in the message page', (_field, change) => {
      expectOnlyEscaped(messagePage('Payment failed', 'The payment was declined.', { ...payment, ...change }), text);
    });

    it('as the form action and the CSRF value', () => {
      const page = authenticationForm(payment, text, text);
      expectOnlyEscaped(page, text);
      expect(page).toContain(`action="${escapeHtml(text)}"`);
      expect(page).toContain(`value="${escapeHtml(text)}"`);
    });

    it('as the message page title and message', () => {
      const page = messagePage(text, text, payment);
      expectOnlyEscaped(page, text);
      expect(page).toContain(`<h1>${escapeHtml(text)}</h1>`);
      expect(page).toContain(`<p id="message">${escapeHtml(text)}</p>`);
      expect(page).toContain(`<title>${escapeHtml(text)} · Sandbox 3-D Secure</title>`);
    });
  });

  it('shows the merchant name <script>alert(1)</script> as text in both pages', () => {
    const merchantName = '<script>alert(1)</script>';
    for (const page of [authenticationForm({ ...payment, merchantName }, ACTION, CSRF), messagePage('Done', 'Done.', { ...payment, merchantName })]) {
      expect(page).toContain('<dd id="merchant">&lt;script&gt;alert(1)&lt;/script&gt;</dd>');
    }
  });

  it('keeps the merchant name " onmouseover="x inside its element in both pages', () => {
    const merchantName = '" onmouseover="x';
    for (const page of [authenticationForm({ ...payment, merchantName }, ACTION, CSRF), messagePage('Done', 'Done.', { ...payment, merchantName })]) {
      expect(page).toContain('<dd id="merchant">&quot; onmouseover=&quot;x</dd>');
      expect(page).not.toContain('onmouseover="');
    }
  });
});
