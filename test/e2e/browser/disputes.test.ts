import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { MerchantCredentials } from '../../../src/modules/merchants/merchant.service';
import { DASHBOARD_DIST } from '../../../src/transport/dashboard/dashboard.routes';
import { launchBrowser, openScreen, screenshots, type TestBrowser } from '../../helpers/browser';
import { graphql, request } from '../../helpers/http';
import { cardPaymentBody, initiatePayment } from '../../helpers/payments';
import { personOf, type TestPerson } from '../../helpers/people';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { signInWith } from './sign-in';

/**
 * Issue 39, point 6 in the merchant dashboard, in headless Chromium at a desktop's width and a phone's: a sandbox
 * card payment disputed through GraphQL's simulateDispute; the overview's banner; the Disputes list with its status
 * filter and its countdown (red under 24 h); a dispute's page with the disputed payment, evidence typed and a PNG
 * uploaded (multipart, with the session's token), submitted after a confirmation; the bank's decision (WON, by
 * simulateDisputeOutcome) shown live; the payment's page linking its dispute; a viewer who reads but cannot answer;
 * Accept. With SCREENSHOTS=1 it writes docs/dashboard/disputes-*, dispute-detail-* and overview-disputes-*.
 * The browser's clock is set (Playwright's page.clock) relative to the dispute's deadline, so the countdowns are exact.
 */

const SHOTS = process.env.SCREENSHOTS === '1' ? path.resolve(__dirname, '../../../docs/dashboard') : null;
const HOUR = 3_600_000;
const MINUTE = 60_000;
/** An element's computed text colour (in the page; the tests' own types have no DOM). */
const colourOf = (el: unknown) => String((globalThis as any).getComputedStyle(el).color);
/** A 1×1 PNG: what the service checks by content. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

interface Opened {
  id: string;
  status: string;
  evidenceDueBy: string;
  paymentReference: string;
}

describe('merchant dashboard: disputes (sandbox)', () => {
  let app: TestApp;
  let browser: TestBrowser;
  let merchant: MerchantCredentials;
  let owner: TestPerson;
  let token: string;
  let page: Page;

  /** A successful sandbox card payment, disputed by its cardholder (GraphQL simulateDispute): the dispute. */
  async function disputedPayment(amount: string): Promise<Opened> {
    const paid = await initiatePayment(app, token, cardPaymentBody({ amount }));
    expect(paid.status).toBe(200);
    expect(paid.body.data.status).toBe('successful');
    const res = await graphql<{ simulateDispute: Opened }>(
      app.url,
      `
        mutation ($r: String!) {
          simulateDispute(input: { paymentReference: $r, reason: FRAUDULENT }) {
            id
            status
            evidenceDueBy
            paymentReference
          }
        }
      `,
      { variables: { r: paid.body.data.reference }, token: owner.token },
    );
    expect(res.body.errors).toBeUndefined();
    const dispute = res.body.data!.simulateDispute;
    expect(dispute).toMatchObject({ status: 'NEEDS_RESPONSE', paymentReference: paid.body.data.reference, evidenceDueBy: expect.any(String) });
    return dispute;
  }

  /** The dispute as the REST API reads it. */
  const restDispute = async (id: string) => {
    const res = await request(app.url, 'GET', `/v1/disputes/${id}`, { token });
    expect(res.status).toBe(200);
    return res.body.data;
  };

  /** No screen scrolls sideways (a wide table scrolls inside its card). */
  const fits = async (width: number) => expect(await page.evaluate('document.scrollingElement.scrollWidth')).toBe(width);

  beforeAll(async () => {
    if (!existsSync(path.join(DASHBOARD_DIST, 'index.html'))) throw new Error('dist/dashboard is missing: run `npm run build`');
    app = await createTestApp({ env: { SANDBOX_SETTLE_MS: '600000' } });
    merchant = await app.createMerchant('Dispute Merchant');
    owner = await personOf(app, merchant.merchant.id, 'owner', { withPassword: true });
    token = (await app.token(merchant)).accessToken;
    browser = await launchBrowser();
    page = await browser.newPage();
    await signInWith(page, app, { email: owner.email, password: owner.password });
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ state: 'attached' });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  describe.each([1280, 390])('at %i px', (width) => {
    let dispute: Opened;
    let due: number;

    beforeAll(async () => {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      dispute = await disputedPayment(width === 1280 ? '1500.00' : '900.00');
      due = new Date(dispute.evidenceDueBy).getTime();
      // The browser's clock 5 h 30 min before the deadline (the service's test clock is its own).
      await page.clock.setFixedTime(new Date(due - 5 * HOUR - 30 * MINUTE));
      await page.goto(`${app.url}/dashboard/disputes`);
      await page.getByRole('heading', { name: 'Disputes', level: 2 }).waitFor();
    });

    it('the overview shows a banner while a dispute needs a response, linking to the disputes that do', async () => {
      await openScreen(page, 'Overview');
      const banner = page.getByRole('region', { name: 'Disputes' });
      // The previous width's dispute was decided: one needs a response.
      const link = banner.getByRole('link', { name: '1 dispute needs a response' });
      await link.waitFor();
      expect(await link.getAttribute('href')).toBe('/dashboard/disputes?status=needs_response');
      await fits(width);
      if (width === 1280) await screenshots(page, SHOTS, 'overview-disputes');
      await link.click();
      await page.getByRole('heading', { name: 'Disputes', level: 2 }).waitFor();
      expect(new URL(page.url()).search).toBe('?status=needs_response');
      expect(await page.getByRole('form', { name: 'Filter disputes' }).getByLabel('Status').inputValue()).toBe('NEEDS_RESPONSE');
      const rows = page.locator('tr[data-dispute]');
      await rows.first().waitFor();
      expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-dispute')))).toEqual([dispute.id]);
    });

    it('the list shows each dispute’s time left to answer, red under 24 hours; the filter changes the list', async () => {
      const row = page.locator(`tr[data-dispute="${dispute.id}"]`);
      const deadline = row.getByTestId('deadline');
      await deadline.filter({ hasText: /^5 h 30 min left$/ }).waitFor();
      expect(await deadline.getAttribute('data-urgent')).toBe('true');
      expect(await deadline.evaluate(colourOf)).toBe('rgb(180, 35, 24)');
      expect(await row.textContent()).toMatch(width === 1280 ? /1,500\.00 NGN.*fraudulent.*needs response/ : /900\.00 NGN.*fraudulent.*needs response/);

      if (width === 1280) {
        // 2 days and 3 hours before the deadline: the plain countdown.
        await page.clock.setFixedTime(new Date(due - 51 * HOUR));
        await page.reload();
        await deadline.filter({ hasText: /^2 d 3 h left$/ }).waitFor();
        expect(await deadline.getAttribute('data-urgent')).toBe('false');
        expect(await deadline.evaluate(colourOf)).not.toBe('rgb(180, 35, 24)');
        await page.clock.setFixedTime(new Date(due - 5 * HOUR - 30 * MINUTE));
        await page.reload();
        await deadline.filter({ hasText: /^5 h 30 min left$/ }).waitFor();
      }

      const status = page.getByRole('form', { name: 'Filter disputes' }).getByLabel('Status');
      await status.selectOption('WON');
      await page.waitForURL(/\?status=won$/);
      if (width === 1280) await page.getByText('No disputes in “won”').waitFor();
      else await page.locator('tr[data-dispute]').first().waitFor(); // the 1280 px pass's dispute, won
      expect(await row.count()).toBe(0);
      await status.selectOption('');
      await row.waitFor();
      await fits(width);
      if (width === 1280) await screenshots(page, SHOTS, 'disputes');
    });

    it('a dispute’s page: its facts, the disputed payment linked, evidence typed, a PNG uploaded with the session’s token, then submitted once confirmed', async () => {
      await page.goto(`${app.url}/dashboard/disputes?status=needs_response`);
      await page.locator(`tr[data-dispute="${dispute.id}"]`).getByRole('link').first().click();
      await page.getByRole('heading', { name: new RegExp(dispute.id), level: 2 }).waitFor();
      expect(new URL(page.url()).pathname).toBe(`/dashboard/disputes/${dispute.id}`);
      const facts = page.getByRole('definition');
      await facts.filter({ hasText: /^Fraudulent: / }).waitFor();
      await page.locator('dl[aria-label="Dispute"]').getByTestId('deadline').filter({ hasText: '5 h 30 min left' }).waitFor();
      const payment = page.getByTestId('disputed-payment').getByRole('link').first();
      expect(await payment.getAttribute('href')).toBe(`/dashboard/transactions/${dispute.paymentReference}`);

      const form = page.getByRole('form', { name: 'Evidence' });
      await form.getByLabel('Product or service description').fill('Two bags of rice, 50 kg each, ordered online.');
      await form.getByLabel('Customer communication').fill('The customer confirmed delivery by email on the day.');
      await form.getByLabel('Shipping or service details').fill('Delivered by our van; signed for at the door.');
      await form.getByLabel('Shipping or service date').fill('2026-11-20');

      const sent = page.waitForRequest((req) => req.method() === 'POST' && req.url().endsWith(`/v1/disputes/${dispute.id}/files`));
      await form.getByLabel('Add a file').setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: PNG });
      const upload = await sent;
      expect(upload.headers().authorization).toMatch(/^Bearer \S+$/);
      expect(upload.headers()['content-type']).toMatch(/^multipart\/form-data; boundary=/);
      await page.getByText('Uploaded receipt.png.').waitFor();
      const file = page.getByRole('list', { name: 'Files' }).locator('li', { hasText: 'receipt.png' });
      await file.getByText(/image\/png · \d+ B/).waitFor();
      const files = (await restDispute(dispute.id)).evidence.files as Array<{ filename: string; content_type: string; size: number }>;
      expect(files).toEqual([expect.objectContaining({ filename: 'receipt.png', content_type: 'image/png', size: PNG.length })]);
      // Downloaded through the session's token (never in a URL): the bytes uploaded.
      const download = page.waitForEvent('download');
      const asked = page.waitForRequest((req) => req.url().includes(`/v1/disputes/${dispute.id}/files/`));
      await file.getByRole('button', { name: 'Download receipt.png' }).click();
      expect((await asked).headers().authorization).toMatch(/^Bearer \S+$/);
      const saved = await download;
      expect(saved.suggestedFilename()).toBe('receipt.png');
      expect(await readFile((await saved.path())!)).toEqual(PNG);
      await fits(width);
      if (width === 1280) await screenshots(page, SHOTS, 'dispute-detail');

      const answer = page.getByRole('group', { name: 'Answer the dispute' });
      // The confirmation, refused: nothing is sent.
      page.once('dialog', (d) => void d.dismiss());
      await answer.getByRole('button', { name: 'Submit evidence' }).click();
      expect((await restDispute(dispute.id)).status).toBe('needs_response');
      page.once('dialog', (d) => {
        expect(d.message()).toContain('It is sent once');
        void d.accept();
      });
      await answer.getByRole('button', { name: 'Submit evidence' }).click();
      await page.getByText('Evidence submitted.').waitFor();
      await page.getByRole('heading', { level: 2 }).getByText('under review').waitFor();
      expect(await answer.getByRole('button', { name: 'Submit evidence' }).isDisabled()).toBe(true);
      expect(await answer.getByRole('button', { name: 'Accept dispute' }).isDisabled()).toBe(true);
      expect(await form.getByLabel('Product or service description').isDisabled()).toBe(true);
      await page.getByTestId('evidence-locked').filter({ hasText: 'The evidence was submitted' }).waitFor();
      const submitted = await restDispute(dispute.id);
      expect(submitted).toMatchObject({
        status: 'under_review',
        submission_count: 1,
        evidence: {
          product_description: 'Two bags of rice, 50 kg each, ordered online.',
          customer_communication: 'The customer confirmed delivery by email on the day.',
          service_details: 'Delivered by our van; signed for at the door.',
          service_date: '2026-11-20',
          refund_policy: null,
        },
      });
    });

    it('the bank’s decision (simulateDisputeOutcome WON) shows on the page as it happens', async () => {
      const res = await graphql(
        app.url,
        `
          mutation ($id: ID!) {
            simulateDisputeOutcome(id: $id, outcome: WON) {
              id
              status
            }
          }
        `,
        {
          variables: { id: dispute.id },
          token: owner.token,
        },
      );
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.simulateDisputeOutcome.status).toBe('WON');
      // No reload: the disputeChanged subscription reads it again.
      await page.getByRole('heading', { level: 2 }).getByText('won', { exact: true }).waitFor();
      await page.locator('dl[aria-label="Dispute"]').getByText('Closed').waitFor();
      expect((await restDispute(dispute.id)).status).toBe('won');
    });

    it('the payment’s page links its dispute', async () => {
      await page.getByTestId('disputed-payment').getByRole('link').first().click();
      await page.getByRole('heading', { level: 2 }).filter({ hasText: 'successful' }).waitFor();
      const link = page.getByTestId('dispute').getByRole('link', { name: dispute.id });
      expect(await link.getAttribute('href')).toBe(`/dashboard/disputes/${dispute.id}`);
      await link.click();
      await page.getByRole('heading', { name: new RegExp(dispute.id), level: 2 }).waitFor();
      await fits(width);
    });
  });

  it('a viewer reads a dispute but may not answer it; the owner accepts it once confirmed', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const dispute = await disputedPayment('300.00');
    const viewer = await personOf(app, merchant.merchant.id, 'viewer', { withPassword: true });
    // A browser of its own: the owner's session cookie stays in the first one.
    const viewers = await launchBrowser();
    try {
      const theirs = await viewers.newPage();
      await signInWith(theirs, app, { email: viewer.email, password: viewer.password });
      await openScreen(theirs, 'Disputes');
      await theirs.locator(`tr[data-dispute="${dispute.id}"]`).getByRole('link').first().click();
      await theirs.getByTestId('evidence-locked').filter({ hasText: 'Your role can read disputes but not answer them.' }).waitFor();
      const answer = theirs.getByRole('group', { name: 'Answer the dispute' });
      expect(await answer.getByRole('button', { name: 'Submit evidence' }).isDisabled()).toBe(true);
      expect(await answer.getByRole('button', { name: 'Accept dispute' }).isDisabled()).toBe(true);
      const form = theirs.getByRole('form', { name: 'Evidence' });
      expect(await form.getByLabel('Product or service description').isDisabled()).toBe(true);
      expect(await form.getByLabel('Add a file').isDisabled()).toBe(true);
      expect(await form.getByRole('button', { name: 'Save draft' }).count()).toBe(0);
    } finally {
      await viewers.close();
    }

    await page.goto(`${app.url}/dashboard/disputes/${dispute.id}`);
    const answer = page.getByRole('group', { name: 'Answer the dispute' });
    page.once('dialog', (d) => {
      expect(d.message()).toMatch(/^Accept this dispute without contesting it\? 300\.00 NGN and the dispute fee of [\d.,]+ NGN will not come back/);
      void d.accept();
    });
    await answer.getByRole('button', { name: 'Accept dispute' }).click();
    await page.getByText('Dispute accepted.').waitFor();
    expect(await answer.getByRole('button', { name: 'Accept dispute' }).isDisabled()).toBe(true);
    const accepted = await restDispute(dispute.id);
    expect(accepted).toMatchObject({ status: 'lost', submission_count: 0 });
    await page.getByRole('heading', { level: 2 }).getByText('lost', { exact: true }).waitFor();
    // Nothing needs a response any more: no banner, once the count is in.
    const counted = page.waitForResponse((res) => res.url().endsWith('/graphql') && (res.request().postData() ?? '').includes('openDisputeCount'));
    await openScreen(page, 'Overview');
    expect(((await (await counted).json()) as { data: { openDisputeCount: number } }).data.openDisputeCount).toBe(0);
    await page.getByRole('heading', { name: 'Overview', level: 2 }).waitFor();
    expect(await page.getByRole('region', { name: 'Disputes' }).count()).toBe(0);
  });
});
