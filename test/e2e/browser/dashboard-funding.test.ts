import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { MerchantCredentials } from '../../../src/modules/merchants/merchant.service';
import { ManualClock } from '../../../src/shared/clock';
import { DASHBOARD_DIST } from '../../../src/transport/dashboard/dashboard.routes';
import { launchBrowser, openScreen, readClipboard, screenshots, writeClipboard, type TestBrowser } from '../../helpers/browser';
import { graphql, request } from '../../helpers/http';
import { personOf } from '../../helpers/people';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { transactionCount } from '../../helpers/transactions';
import { ownerLogin } from './owner-login';
import { signInWith } from './sign-in';

/**
 * Adding funds from the Balance page (issue 41, point 3), in headless Chromium against a real service: the form
 * (fundBalance), the account to pay into as the API reports it, the sandbox's transfer arriving (simulateTransaction)
 * and Available rising by exactly the amount; a refused amount shown beside its field; a phone's width; and the roles
 * that may not fund (or may fund but not simulate).
 */

const SHOTS = process.env.SCREENSHOTS === '1' ? path.resolve(__dirname, '../../../docs/dashboard') : null;

/** An amount as the dashboard shows it, made here independently: "1250000.00" → "1,250,000.00". */
const shown = (value: string | number) => Number(value).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: true });

describe('merchant dashboard: adding funds (sandbox)', () => {
  let app: TestApp;
  let browser: TestBrowser;
  let merchant: MerchantCredentials;
  let token: string;
  let page: Page;
  /** The fundBalance requests the page sent. */
  const fundings: string[] = [];

  const availableNgn = async () => {
    const res = await request(app.url, 'GET', '/v1/balances', { token });
    expect(res.status).toBe(200);
    return (res.body.data as Array<{ currency: string; available: number }>).find((b) => b.currency === 'NGN')!.available;
  };
  /** The Balance page, its "Add funds" form opened. */
  async function openForm(p: Page = page) {
    // From the navigation unless it is on the page already (the phone's menu would stay open over it).
    if (!(await p.getByRole('heading', { level: 2, name: 'Balance' }).isVisible())) await openScreen(p, 'Balance');
    await p.getByRole('heading', { name: 'Balance transactions' }).waitFor();
    const button = p.getByRole('button', { name: 'Add funds' });
    if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
    await p.getByRole('form', { name: 'Add funds' }).waitFor();
    return p.getByRole('form', { name: 'Add funds' });
  }

  beforeAll(async () => {
    if (!existsSync(path.join(DASHBOARD_DIST, 'index.html'))) throw new Error('dist/dashboard is missing: run `npm run build`');
    // The service's clock is the browser's (the deadline is read "in 24 hours" on the page); the sandbox decides
    // nothing by itself meanwhile: the test makes the transfer arrive.
    app = await createTestApp({ clock: new ManualClock(), env: { SANDBOX_SETTLE_MS: '600000', SANDBOX_OPENING_BALANCE: '1000000' } });
    merchant = await app.createMerchant('Funding Merchant');
    token = (await app.token(merchant)).accessToken;
    browser = await launchBrowser();
    // The copy button writes to the clipboard; the test reads it back.
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
    page = await browser.newPage();
    page.on('request', (req) => {
      if (req.url().endsWith('/graphql') && req.postData()?.includes('fundBalance')) fundings.push(req.postData()!);
    });
    await signInWith(page, app, await ownerLogin(app, merchant));
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ state: 'attached' });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('a bad amount is refused beside the amount field, and nothing is created', async () => {
    const form = await openForm();
    expect(await form.getByLabel('Currency').inputValue()).toBe('NGN');
    expect(await form.getByLabel('Your reference').inputValue()).toMatch(/^funding-/);
    // Every balance's currency is offered.
    const currencies = (await request(app.url, 'GET', '/v1/balances', { token })).body.data.map((b: { currency: string }) => b.currency);
    const offered = await form.getByLabel('Currency').locator('option').allTextContents();
    expect(offered).toEqual(expect.arrayContaining(currencies));
    const count = await transactionCount(app);
    const amount = form.getByLabel('Amount (NGN)');

    // More decimals than NGN has: the service refuses it, naming the field; the page shows it beside the amount.
    await amount.fill('1.001');
    await form.getByRole('button', { name: 'Get account details' }).click();
    const issue = form.getByTestId('fund-amount-error');
    await issue.waitFor();
    expect(await issue.textContent()).toMatch(/decimal/i);
    expect(await amount.getAttribute('aria-invalid')).toBe('true');
    expect(await amount.getAttribute('aria-describedby')).toBe(await issue.getAttribute('id'));
    // The keyboard is taken to the field to correct; the other fields are not marked.
    expect(await amount.evaluate((el) => el === (el.ownerDocument as unknown as { activeElement: unknown }).activeElement)).toBe(true);
    expect(await form.getByLabel('Your reference').getAttribute('aria-invalid')).toBeNull();
    expect(fundings).toHaveLength(1);
    expect(fundings[0]).toContain('1.001');
    await screenshots(page, SHOTS, 'add-funds-error');

    // Not a number at all: refused here, beside the field, before anything is sent.
    await amount.fill('lots');
    await form.getByRole('button', { name: 'Get account details' }).click();
    await issue.filter({ hasText: 'must be a number' }).waitFor();
    expect(fundings).toHaveLength(1);

    expect(await transactionCount(app)).toBe(count);
    expect((await request(app.url, 'GET', '/v1/transactions?type=funding', { token })).body.data).toEqual([]);
  });

  it('adds NGN 250,000.00: the account shown is the funding’s; the simulated transfer raises Available by exactly the amount', async () => {
    const form = await openForm();
    const reference = await form.getByLabel('Your reference').inputValue();
    await form.getByLabel('Amount (NGN)').fill('250000.00');
    await form.getByRole('button', { name: 'Get account details' }).click();

    await page.getByRole('region', { name: /^Pay 250,000\.00 NGN into this account/ }).waitFor();
    // What the API reports for that reference is what the page shows.
    const funding = (await request(app.url, 'GET', `/v1/balance/funding/${encodeURIComponent(reference)}`, { token })).body.data;
    expect(funding).toMatchObject({ external_reference: reference, type: 'funding', status: 'processing', amount: 250000, currency: 'NGN', fee: 0 });
    // The same panel once the money arrived (its heading says so then).
    const panel = page.locator(`section[data-reference="${funding.reference}"]`);
    expect(await panel.count()).toBe(1);
    // The form that had the keyboard is gone: the keyboard goes on from the panel's heading.
    expect(await page.evaluate('document.activeElement.id')).toBe('funding-title');
    expect(await panel.getByTestId('funding-account-number').textContent()).toBe(funding.bankInfo.accountNumber);
    expect(await panel.getByTestId('funding-account-name').textContent()).toBe('Funding Merchant');
    expect(await panel.getByTestId('funding-bank').textContent()).toContain(funding.bankInfo.bankName);
    expect(await panel.getByTestId('funding-amount').textContent()).toBe('250,000.00 NGN');
    expect(await panel.getByTestId('funding-reference').textContent()).toBe(reference);
    const deadline = panel.getByTestId('funding-deadline');
    expect(new Date((await deadline.getAttribute('datetime'))!).getTime()).toBe(new Date(funding.expires_at).getTime());
    expect(await panel.getByTestId('funding-deadline-words').textContent()).toBe('in 24 hours');
    expect(await panel.textContent()).toContain('credited to your Available balance, with no fee');
    // GraphQL says the same.
    const gql = await graphql(app.url, 'query ($r: String!) { transaction(reference: $r) { bankInfo { accountNumber } status } }', {
      token,
      variables: { r: funding.reference },
    });
    expect(gql.body.data.transaction).toEqual({ bankInfo: { accountNumber: funding.bankInfo.accountNumber }, status: 'PROCESSING' });

    // The account number to the clipboard.
    await writeClipboard(page, '');
    await panel.getByRole('button', { name: 'Copy the account number' }).click();
    await panel.getByText('Copied.').waitFor();
    expect(await readClipboard(page)).toBe(funding.bankInfo.accountNumber);

    await screenshots(page, SHOTS, 'add-funds');

    // Nothing is credited before the money arrives.
    const before = await availableNgn();
    const available = panel.getByTestId('funding-available');
    expect(await available.textContent()).toBe(`${shown(before)} NGN`);

    await panel.getByRole('button', { name: 'Simulate the transfer arriving' }).click();
    await available.filter({ hasText: `${shown(before + 250000)} NGN` }).waitFor();
    await page.getByRole('region', { name: /^250,000\.00 NGN received/ }).waitFor();
    expect(await panel.getByRole('button', { name: 'Simulate the transfer arriving' }).count()).toBe(0);
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Done');
    expect(await availableNgn()).toBe(before + 250000);
    expect((await request(app.url, 'GET', `/v1/balance/funding/${funding.reference}`, { token })).body.data.status).toBe('successful');
    // The list below has the funding's balance transaction, live: the whole amount, no fee.
    const row = page.locator(`tr[data-source="${funding.reference}"]`);
    await row.waitFor();
    expect((await row.locator('td').allTextContents()).slice(1, 6)).toEqual(['funding', 'NGN', '250,000.00', '0.00', '250,000.00']);

    // Done: the panel closes and the keyboard is back on "Add funds".
    await panel.getByRole('button', { name: 'Done' }).click();
    expect(await panel.count()).toBe(0);
    expect(
      await page.getByRole('button', { name: 'Add funds' }).evaluate((el) => el === (el.ownerDocument as unknown as { activeElement: unknown }).activeElement),
    ).toBe(true);

    // The Transactions list filters by every kind, Funding among them: the funding alone.
    await openScreen(page, 'Transactions');
    const filter = page.getByRole('search', { name: 'Filter transactions' }).getByLabel('Type');
    expect(await filter.locator('option').allTextContents()).toEqual(['All', 'collection', 'transfer', 'payment', 'refund', 'payout', 'funding']);
    await filter.selectOption('FUNDING');
    await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('tbody tr').length === 1);
    expect(await page.locator('tbody tr').first().textContent()).toContain(funding.reference);
  });

  it('fits a 390 px screen: the form and the account to pay into, with nothing to scroll sideways', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      const form = await openForm();
      expect(await page.evaluate('document.scrollingElement.scrollWidth')).toBe(390);
      await form.getByLabel('Currency').selectOption('GHS');
      await form.getByLabel('Amount (GHS)').fill('1500.25');
      await form.getByRole('button', { name: 'Get account details' }).click();
      const panel = page.getByRole('region', { name: /^Pay 1,500\.25 GHS into this account/ });
      await panel.waitFor();
      expect(await page.evaluate('document.scrollingElement.scrollWidth')).toBe(390);
      const boxes = await panel
        .locator('[data-testid^="funding-"], button')
        .evaluateAll((els) => els.map((e) => ({ what: e.getAttribute('data-testid') ?? e.textContent, ...e.getBoundingClientRect().toJSON() })));
      expect(boxes.length).toBeGreaterThan(5);
      expect(boxes.filter((b) => b.left < 0 || b.right > 390)).toEqual([]);
      await panel.getByRole('button', { name: 'Done' }).click();
    } finally {
      await page.setViewportSize({ width: 800, height: 640 });
    }
  });

  it('a viewer sees no "Add funds"; finance may add funds but not simulate the transfer', async () => {
    const viewer = await personOf(app, merchant.merchant.id, 'viewer', { withPassword: true });
    const finance = await personOf(app, merchant.merchant.id, 'finance', { withPassword: true });
    // A browser of its own: the owner's session cookie stays in the first one.
    const others = await launchBrowser();
    try {
      const theirs = await others.newPage();
      await signInWith(theirs, app, { email: viewer.email, password: viewer.password });
      await openScreen(theirs, 'Balance');
      await theirs.getByRole('heading', { name: 'Balance transactions' }).waitFor();
      await theirs.locator('table.ledger tbody tr').first().waitFor();
      expect(await theirs.getByRole('button', { name: 'Add funds' }).count()).toBe(0);
      expect(await theirs.getByRole('form', { name: 'Add funds' }).count()).toBe(0);

      await theirs.getByRole('button', { name: 'Sign out' }).click();
      await signInWith(theirs, app, { email: finance.email, password: finance.password });
      const form = await openForm(theirs);
      await form.getByLabel('Amount (NGN)').fill('5000.00');
      await form.getByRole('button', { name: 'Get account details' }).click();
      const panel = theirs.getByRole('region', { name: /^Pay 5,000\.00 NGN into this account/ });
      await panel.getByTestId('funding-account-number').waitFor();
      // Simulations are for roles that make payments (payments:create); finance has none.
      expect(await panel.getByRole('button', { name: 'Done' }).count()).toBe(1);
      expect(await panel.getByRole('button', { name: 'Simulate the transfer arriving' }).count()).toBe(0);
    } finally {
      await others.close();
    }
  });
});
