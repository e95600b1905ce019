import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { DASHBOARD_DIST } from '../../../src/transport/dashboard/dashboard.routes';
import { launchBrowser, openScreen, type TestBrowser } from '../../helpers/browser';
import { personOf } from '../../helpers/people';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { signInWith } from './sign-in';

/**
 * Issue 38, point 2 in the merchant dashboard, in headless Chromium: the Payout destinations page (/payouts/destinations) adds a destination (the
 * provider's name for the account shown), a change waits for another member, who approves it; a mismatch is refused.
 * The sandbox names the holder of …0 "Adaeze Okafor" and of …1 "Chinedu Emeka Nwosu".
 */
describe('merchant dashboard: payout destinations (sandbox)', () => {
  let app: TestApp;
  let browser: TestBrowser;
  /** The finance member's own browser: a second tab of the owner's would resume the owner's session (its cookie). */
  let financeBrowser: TestBrowser;
  let ownerPage: Page;
  let financePage: Page;

  beforeAll(async () => {
    if (!existsSync(path.join(DASHBOARD_DIST, 'index.html'))) throw new Error('dist/dashboard is missing: run `npm run build`');
    app = await createTestApp();
    const merchant = await app.createMerchant('Adaeze Okafor');
    const [owner, finance] = await Promise.all(
      (['owner', 'finance'] as const).map((role) => personOf(app, merchant.merchant.id, role, { withPassword: true })),
    );
    browser = await launchBrowser();
    ownerPage = await browser.newPage();
    await signInWith(ownerPage, app, { email: owner!.email, password: owner!.password });
    await ownerPage.getByRole('navigation', { name: 'Main' }).waitFor({ state: 'attached' });
    financeBrowser = await launchBrowser();
    financePage = await financeBrowser.newPage();
    await signInWith(financePage, app, { email: finance!.email, password: finance!.password });
    await financePage.getByRole('navigation', { name: 'Main' }).waitFor({ state: 'attached' });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await financeBrowser?.close();
    await app?.close();
  });

  const addOn = async (page: Page, accountNumber: string) => {
    const form = page.getByRole('form', { name: 'Add a payout destination' });
    await form.getByLabel('Country').fill('NG');
    await form.getByLabel('Bank code').fill('058');
    await form.getByLabel('Account number').fill(accountNumber);
    await form.getByRole('button', { name: 'Add destination' }).click();
  };

  it('adds the first destination: the resolved name is shown, and it is active', async () => {
    await openScreen(ownerPage, 'Payout destinations');
    await ownerPage.getByText('No payout destinations').waitFor();
    await addOn(ownerPage, '0123456780');
    const added = ownerPage.getByTestId('destination-added');
    await added.waitFor();
    expect(await added.textContent()).toBe('Guaranty Trust Bank ••••6780, held by Adaeze Okafor: payouts go there now.');
    await ownerPage.locator('tr', { hasText: '••••6780' }).getByText('active', { exact: true }).waitFor();
  });

  it('a change waits: its maker can only cancel it; another member approves it', async () => {
    await addOn(ownerPage, '0987654320');
    const row = ownerPage.locator('tr', { hasText: '••••4320' });
    await row.getByText('pending approval', { exact: true }).waitFor();
    expect(await row.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    expect(await row.getByRole('button', { name: 'Cancel change' }).count()).toBe(1);

    await openScreen(financePage, 'Payout destinations');
    const theirs = financePage.locator('tr', { hasText: '••••4320' });
    await theirs.getByRole('button', { name: 'Approve' }).click();
    await theirs.getByText('active', { exact: true }).waitFor();
    await financePage.locator('tr', { hasText: '••••6780' }).getByText('replaced', { exact: true }).waitFor();
  });

  it('a name mismatch is refused, naming the holder, and nothing is listed', async () => {
    await addOn(ownerPage, '0123456781');
    await ownerPage.getByText(/Chinedu Emeka Nwosu/).waitFor();
    expect(await ownerPage.locator('tr', { hasText: '••••6781' }).count()).toBe(0);
  });
});
