import { referenceIdOf } from '../../../src/providers/mtn-momo/mapping';
import { PROMPT_TIMEOUT_MS } from '../../../src/transport/checkout/checkout-states';
import { MtnMomoFake } from '../../fakes/mtn-momo.fake';
import { fetchCheckoutPage, openSession, postForm, type CheckoutPage } from '../../helpers/checkout';
import { request } from '../../helpers/http';
import { railsApp } from '../../helpers/rails';
import type { TestApp } from '../../helpers/test-app';
import { sql } from '../../helpers/transactions';
import { eventually } from '../../helpers/wait';

/**
 * Issue 37: the checkout page's "Didn't get the prompt? Try again" while the first mobile money prompt is still in
 * flight. The provider is asked about that prompt at once: decided failed, a new prompt goes out; still pending, the
 * page says the request is still open (approve it on the phone, or wait for it to expire) and sends nothing, so one
 * session never holds two prompts that could both be approved.
 *
 * Production mode against MTN's fake; the provider's own polls are an hour apart and its callbacks are dropped, so
 * only the retry's own question can learn the first prompt's fate.
 */

/** MTN fake: a wallet ending in 0009 stays PENDING until the test decides it. */
const PENDING_WALLET = '0241230009';

describe('checkout: mobile money "Try again" while the first prompt is in flight (production, MTN fake)', () => {
  let fake: MtnMomoFake;
  let app: TestApp;
  let token: string;

  beforeAll(async () => {
    fake = await MtnMomoFake.start({ decisionDelayMs: 30, targetEnvironment: 'mtnghana', currency: 'GHS' });
    app = await railsApp({ ...fake.env(), PROVIDER_POLL_SCHEDULE: '1h' });
    token = (await app.token(await app.createMerchant('Accra Shop'))).accessToken;
    fake.dropCallbacks = true;
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await fake?.close();
  });

  const fetchPage = (path: string) => fetchCheckoutPage(app, path);
  const post = (path: string, page: CheckoutPage, fields: Record<string, string>) => postForm(app, path, page, fields);
  /** The retry form's own fields, as the waiting page renders them. */
  const retryFields = (html: string): Record<string, string> => {
    const form = /<div class="retry[^"]*" id="retry">[\s\S]*?<\/form>/.exec(html)?.[0] ?? '';
    return Object.fromEntries([...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!]));
  };
  const attempts = (sessionId: string) =>
    sql<{ id: string; reference: string; status: string; failure_reason: string | null }>(
      app,
      'select id, reference, status, failure_reason from "transaction" where checkout_session_id = ? order by created_at, id',
      [sessionId],
    );
  const prompts = () => fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/requesttopay'));

  /** A session paid by mobile money on the page, left waiting on the phone; then the payer waits past the prompt timeout. */
  async function waitingSession() {
    const session = await openSession(app, token, { currency: 'GHS', amount: '25.00', customer: { email: 'ama@example.com' } });
    const page = await fetchPage(`/checkout/${session.id}`);
    const paid = await post(`/checkout/${session.id}/pay`, page, { method: 'momo', phone: PENDING_WALLET, network: '' });
    expect(paid.status).toBe(303);
    const [first] = await attempts(session.id);
    expect(first).toMatchObject({ status: 'processing' });
    app.clock.advance(PROMPT_TIMEOUT_MS + 1000);
    const waiting = await fetchPage(`/checkout/${session.id}`);
    expect(waiting.html).toContain('id="retry"');
    return { session, first: first!, waiting };
  }

  it('with MTN’s connector alone, the page offers mobile money only: no card processor, no account to pay into', async () => {
    const session = await openSession(app, token, { currency: 'GHS', amount: '25.00', customer: { email: 'ama@example.com' } });
    const page = await fetchPage(`/checkout/${session.id}`);
    expect([...page.html.matchAll(/<details class="method" name="method" id="method-(\w+)"/g)].map((m) => m[1])).toEqual(['momo']);
    // And only the networks MTN serves are offered.
    expect([...page.html.matchAll(/<option value="(\w+)">/g)].map((m) => m[1])).toEqual(['MTN']);
  });

  it('still pending at the provider: the page says the request is still open, sends no second prompt, and keeps the retry', async () => {
    const { session, first, waiting } = await waitingSession();
    const before = prompts().length;
    const retried = await post(`/checkout/${session.id}/pay`, waiting, retryFields(waiting.html));
    expect(retried.status).toBe(409);
    const html = await retried.text();
    expect(html).toContain('still open');
    expect(html).toContain('approve it on your phone');
    expect(html).not.toContain('already has a payment under way');
    // The retry stays on offer, shown at once this time.
    expect(html).toMatch(/<div class="retry" id="retry">/);
    // The provider was asked about the first prompt; no second prompt went out.
    expect(fake.requests.some((r) => r.method === 'GET' && r.path.endsWith(`/requesttopay/${referenceIdOf(first.id)}`))).toBe(true);
    expect(prompts()).toHaveLength(before);
    expect(await attempts(session.id)).toEqual([expect.objectContaining({ id: first.id, status: 'processing' })]);

    // Approved on the phone after all: the session completes with that first prompt, and a retry now sends nothing.
    await fake.decide(referenceIdOf(first.id), 'SUCCESSFUL');
    const again = await post(`/checkout/${session.id}/pay`, waiting, retryFields(waiting.html));
    expect(again.status).toBe(303);
    expect(await eventually(async () => (await request(app.url, 'GET', `/checkout/${session.id}/status`)).body.status === 'complete')).toBe(true);
    expect(prompts()).toHaveLength(before);
    expect(await attempts(session.id)).toEqual([expect.objectContaining({ id: first.id, status: 'successful' })]);
  });

  it('decided failed at the provider (the prompt expired): the retry fails the first attempt and sends a new prompt', async () => {
    const { session, first, waiting } = await waitingSession();
    await fake.decide(referenceIdOf(first.id), 'FAILED', 'EXPIRED');
    const before = prompts().length;
    const retried = await post(`/checkout/${session.id}/pay`, waiting, retryFields(waiting.html));
    expect(retried.status).toBe(303);
    expect(retried.headers.get('location')).toBe(`/checkout/${session.id}`);
    const rows = await attempts(session.id);
    expect(rows).toHaveLength(2);
    expect(rows.find((r) => r.id === first.id)).toMatchObject({ status: 'failed' });
    expect(rows.find((r) => r.id !== first.id)).toMatchObject({ status: 'processing' });
    expect(prompts()).toHaveLength(before + 1);
    // The page waits on the new prompt.
    const page = await fetchPage(`/checkout/${session.id}`);
    expect(page.html).toContain('id="retry"');
  });

  it('two retries at once after the first prompt failed: one new prompt, the other refused', async () => {
    const { session, first, waiting } = await waitingSession();
    await fake.decide(referenceIdOf(first.id), 'FAILED', 'APPROVAL_REJECTED');
    const before = prompts().length;
    const answers = await Promise.all([1, 2].map(() => post(`/checkout/${session.id}/pay`, waiting, retryFields(waiting.html))));
    expect(answers.map((a) => a.status).sort()).toEqual([303, 409]);
    expect(prompts()).toHaveLength(before + 1);
    const rows = await attempts(session.id);
    expect(rows.filter((r) => r.status === 'processing')).toHaveLength(1);
    expect(rows.find((r) => r.id === first.id)).toMatchObject({ status: 'failed' });
  });
});
