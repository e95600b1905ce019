import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { MerchantCredentials } from '../../../src/modules/merchants/merchant.service';
import { DASHBOARD_DIST } from '../../../src/transport/dashboard/dashboard.routes';
import { launchBrowser, type TestBrowser } from '../../helpers/browser';
import { approvedCustomer } from '../../helpers/factories';
import { request } from '../../helpers/http';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { momoCollectionBody } from '../../helpers/transactions';
import { FAST_WEBHOOKS, setEndpoint, verifyDelivery } from '../../helpers/webhooks';
import { ownerLogin } from './owner-login';
import { signInWith } from './sign-in';

/**
 * Issue 24, point 3, in the dashboard (headless Chromium against a real service): a new transaction
 * appears in the list as soon as it is created, the test event button reports the endpoint's answer,
 * and the event types are chosen there.
 */
describe('dashboard: live creations, the test event, the event types', () => {
  let app: TestApp;
  let browser: TestBrowser;
  let receiver: Receiver;
  let merchant: MerchantCredentials;
  let token: string;
  let page: Page;

  beforeAll(async () => {
    if (!existsSync(path.join(DASHBOARD_DIST, 'index.html'))) throw new Error('dist/dashboard is missing: run `npm run build`');
    // Collections stay processing: only their creation can put them in the list.
    app = await createTestApp({ env: { ...FAST_WEBHOOKS, SANDBOX_SETTLE_MS: '600000' } });
    receiver = await startReceiver(() => 204);
    merchant = await app.createMerchant('Live Dashboard Merchant');
    token = (await app.token(merchant)).accessToken;
    browser = await launchBrowser();
    page = await browser.newPage();
    await signInWith(page, app, await ownerLogin(app, merchant));
    await page.getByRole('heading', { name: 'Overview', level: 2 }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await app?.close();
  });

  const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name });

  it('a transaction appears in the list as soon as it is created, still processing', async () => {
    await nav('Transactions').click();
    await page.getByRole('heading', { name: 'Transactions', level: 2 }).waitFor();
    const customer = await approvedCustomer(app, token);
    const created = await request(app.url, 'POST', '/v1/crossborder/global-collection', { token, body: momoCollectionBody(customer.customer_uuid) });
    expect(created.body.data.status).toBe('processing');
    // No reload, no decision: the creation's event put it there.
    const row = page
      .locator(
        `[data-reference="${created.body.data.reference}"], tr:has-text("${created.body.data.external_reference}"), li:has-text("${created.body.data.external_reference}")`,
      )
      .first();
    await row.waitFor();
    expect(await row.textContent()).toMatch(/processing/i);
  });

  it('sends a test event and says how the endpoint answered', async () => {
    await setEndpoint(app.url, token, receiver.url);
    await nav('Webhooks').click();
    await page.getByRole('heading', { name: 'Webhooks', level: 2 }).waitFor();
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByText(/Your endpoint answered 204 in \d+ ms\./).waitFor();
    expect(receiver.received).toHaveLength(1);
    expect(verifyDelivery(merchant.webhookSecret, receiver.received[0]!).type).toBe('webhook.test');
    await page.getByRole('link', { name: 'See the event' }).click();
    await page.getByText('webhook.test').first().waitFor();
  });

  it('chooses the event types: the progress ones added, then the default again', async () => {
    await nav('Webhooks').click();
    const form = page.getByRole('form', { name: 'Which events you receive' });
    await form.waitFor();
    const box = form.getByRole('checkbox', { name: 'collection.processing' });
    expect(await box.isChecked()).toBe(false);
    expect(await form.getByRole('checkbox', { name: 'collection.successful' }).isChecked()).toBe(true);
    expect(await form.getByRole('checkbox', { name: 'webhook.test' }).count()).toBe(0);
    await box.check();
    await form.getByRole('button', { name: 'Save event types' }).click();
    await form.getByText('Event types saved.').waitFor();
    const chosen = (await request(app.url, 'GET', '/v1/merchant', { token })).body.data.webhook_event_types;
    expect(chosen).toContain('collection.processing');
    expect(chosen).toContain('collection.successful');

    await page.getByRole('button', { name: 'Use the default' }).click();
    await page.getByText('Back to the default event types.').waitFor();
    expect((await request(app.url, 'GET', '/v1/merchant', { token })).body.data.webhook_event_types).not.toContain('collection.processing');
    expect(await page.getByRole('form', { name: 'Which events you receive' }).getByRole('checkbox', { name: 'collection.processing' }).isChecked()).toBe(false);
  });
});
