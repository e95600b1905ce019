import { request } from '../../helpers/http';
import { cardPaymentBody, initiatePayment } from '../../helpers/payments';
import { personOf } from '../../helpers/people';
import { captureMail } from '../../helpers/team';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { sql } from '../../helpers/transactions';

/**
 * Issue 39: the evidence deadline on the business-hour clock (Nigeria: 16 hours of weekdays, after Paystack), the
 * reminders 24 and 4 hours before it (an event and an email to the owners and the finance team), and the dispute
 * accepted automatically once it passes without a submission, on the test clock.
 */
let app: TestApp;
beforeAll(async () => {
  // Friday 27 November 2026, 14:00 UTC (15:00 in Lagos).
  app = await createTestApp({ env: { SANDBOX_OPENING_BALANCE: '0', DISPUTE_SWEEP_INTERVAL_S: '0' } });
  app.clock.set(new Date('2026-11-27T14:00:00Z'));
}, 60_000);
afterAll(() => app?.close());

const sweep = () => app.service.app.services.disputes.runDeadlines();
const eventsOf = async (id: string) =>
  (await sql<{ type: string }>(app, `select type from outbox_event where subject_id = ? order by created_at, id`, [id])).map((e) => e.type);

test('a Friday chargeback is due on Monday; reminded at 24 h and 4 h; accepted (lost) automatically after the deadline', async () => {
  const m = await app.createMerchant('Deadline Shop');
  const token = async () => (await app.token(m)).accessToken;
  const owner = await personOf(app, m.merchant.id, 'owner');
  const finance = await personOf(app, m.merchant.id, 'finance');
  await personOf(app, m.merchant.id, 'developer');
  const mail = captureMail(app);

  const paid = await initiatePayment(app, await token(), cardPaymentBody({ amount: '1000.00' }));
  const reference = paid.body.data.reference as string;
  const opened = await request(app.url, 'POST', '/v1/sandbox/disputes', { token: await token(), body: { payment_reference: reference, reason: 'fraudulent' } });
  expect(opened.status).toBe(201);
  const d = opened.body.data;
  // Friday 15:00 → 24:00 Lagos is 9 business hours; the other 7 are Monday 00:00 → 07:00 Lagos (06:00 UTC). The weekend is not counted.
  expect(d.evidence_due_by).toBe('2026-11-30T06:00:00.000Z');

  // Nothing due yet.
  expect(await sweep()).toMatchObject({ reminded: 0, accepted: 0 });
  // Sunday 06:00 UTC: 24 hours before.
  app.clock.set(new Date('2026-11-29T06:00:00Z'));
  expect(await sweep()).toMatchObject({ reminded: 1, accepted: 0 });
  expect(await sweep()).toMatchObject({ reminded: 0 });
  const recipients = mail.map((x) => x.to).sort();
  expect(recipients).toEqual([finance.email, owner.email].sort());
  expect(mail[0]!.subject).toContain('needs your response');
  expect(mail[0]!.text).toContain(`/dashboard/disputes/${d.id}`);
  // Monday 02:00 UTC: 4 hours before.
  app.clock.set(new Date('2026-11-30T02:00:00Z'));
  expect(await sweep()).toMatchObject({ reminded: 1, accepted: 0 });
  expect(mail).toHaveLength(4);
  // The deadline passes without a submission: accepted, the hold paid out.
  app.clock.set(new Date('2026-11-30T06:00:00Z'));
  expect(await sweep()).toMatchObject({ accepted: 1 });
  const after = (await request(app.url, 'GET', `/v1/disputes/${d.id}`, { token: await token() })).body.data;
  expect(after).toMatchObject({ status: 'lost', funds: 'withdrawn' });
  // Events of one transaction share their time (the test clock stands still): compared as a set, each once.
  expect((await eventsOf(d.id)).sort()).toEqual(
    ['dispute.created', 'dispute.funds_withdrawn', 'dispute.evidence_due_soon', 'dispute.evidence_due_soon', 'dispute.closed'].sort(),
  );
  const [audit] = await sql<{ n: string }>(
    app,
    `select count(*)::text as n from audit_log where action = 'dispute.accepted' and target_id = ? and actor_type = 'system'`,
    [d.id],
  );
  expect(audit!.n).toBe('1');
  const report = await app.service.app.services.ledger.verify(app.service.app.services.transactions.expectedLegs());
  expect(report.problems).toEqual([]);
});

test('a submitted dispute is not accepted when its deadline passes', async () => {
  app.clock.set(new Date('2026-12-01T09:00:00Z'));
  const m = await app.createMerchant('Answering Shop');
  const token = (await app.token(m)).accessToken;
  const paid = await initiatePayment(app, token, cardPaymentBody({ amount: '500.00' }));
  const d = (await request(app.url, 'POST', '/v1/sandbox/disputes', { token, body: { payment_reference: paid.body.data.reference, reason: 'general' } })).body
    .data;
  await request(app.url, 'POST', `/v1/disputes/${d.id}/evidence`, { token, body: { uncategorized_text: 'Receipt attached' } });
  expect((await request(app.url, 'POST', `/v1/disputes/${d.id}/submit`, { token })).body.data.status).toBe('under_review');
  app.clock.set(new Date(new Date(d.evidence_due_by).getTime() + 3_600_000));
  expect(await sweep()).toMatchObject({ accepted: 0 });
  const fresh = (await app.token(m)).accessToken;
  expect((await request(app.url, 'GET', `/v1/disputes/${d.id}`, { token: fresh })).body.data.status).toBe('under_review');
});
