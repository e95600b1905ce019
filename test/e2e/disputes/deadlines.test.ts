import { request } from '../../helpers/http';
import { cardPaymentBody, initiatePayment } from '../../helpers/payments';
import { personOf } from '../../helpers/people';
import { captureMail } from '../../helpers/team';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { sql } from '../../helpers/transactions';
import { eventually } from '../../helpers/wait';

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

/**
 * The sweep on its own: every test above calls runDeadlines() itself (DISPUTE_SWEEP_INTERVAL_S=0). Here a service runs
 * it every second, as a chain of `disputes.sweep` jobs on the system clock (one per slot, each adding the next) that the
 * job worker runs, while deadlines are decided by the service's test clock. Nothing here calls the sweep.
 */
test('with DISPUTE_SWEEP_INTERVAL_S=1 the job worker runs the sweep by itself: an overdue dispute is accepted (lost), a timely one is not', async () => {
  const scheduled = await createTestApp({ env: { SANDBOX_OPENING_BALANCE: '0', DISPUTE_SWEEP_INTERVAL_S: '1' } });
  try {
    const db = (text: string, params: unknown[] = []) => sql(scheduled, text, params);
    /** The slots of the sweep jobs queued now (the next one; the running one while it runs). */
    const slots = async () =>
      (
        await db(
          `select (j.payload->>'slot')::bigint as slot from graphile_worker._private_jobs j
           join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'disputes.sweep'`,
        )
      ).map((r: { slot: string }) => Number(r.slot));
    // Wednesday 2 December 2026, 09:00 UTC (10:00 in Lagos): due 16 business hours later, Thursday 02:00 in Lagos (01:00 UTC).
    scheduled.clock.set(new Date('2026-12-02T09:00:00Z'));
    const m = await scheduled.createMerchant('Scheduled Sweep Shop');
    const token = (await scheduled.token(m)).accessToken;
    const open = async () => {
      const paid = await initiatePayment(scheduled, token, cardPaymentBody({ amount: '1000.00' }));
      const res = await request(scheduled.url, 'POST', '/v1/sandbox/disputes', {
        token,
        body: { payment_reference: paid.body.data.reference, reason: 'general' },
      });
      expect(res.body.data).toMatchObject({ status: 'needs_response', funds: 'held', evidence_due_by: '2026-12-03T01:00:00.000Z' });
      return res.body.data.id as string;
    };
    const overdue = await open();
    const answered = await open();
    await request(scheduled.url, 'POST', `/v1/disputes/${answered}/evidence`, { token, body: { uncategorized_text: 'Delivered, signed for' } });
    expect((await request(scheduled.url, 'POST', `/v1/disputes/${answered}/submit`, { token })).body.data.status).toBe('under_review');
    const statusOf = async (id: string) => (await db(`select status from dispute where id = ?`, [id]))[0].status as string;

    // The chain runs: a later slot is queued once a sweep has run (each adds the next), and before the deadline (on the
    // test clock) it accepts nothing.
    const first = Math.max(...(await slots()));
    expect(Number.isFinite(first)).toBe(true);
    expect(await eventually(async () => Math.max(...(await slots())) > first, { attempts: 100, everyMs: 100 })).toBe(true);
    expect(await statusOf(overdue)).toBe('needs_response');

    // The deadline passes on the test clock: the next scheduled sweep accepts the dispute nobody answered.
    scheduled.clock.set(new Date('2026-12-03T01:00:00Z'));
    expect(await eventually(async () => (await statusOf(overdue)) === 'lost', { attempts: 100, everyMs: 100 })).toBe(true);
    const [row] = await db(`select status, funds, closed_at = '2026-12-03T01:00:00Z'::timestamptz as closed_at_deadline from dispute where id = ?`, [overdue]);
    expect(row).toEqual({ status: 'lost', funds: 'withdrawn', closed_at_deadline: true });
    expect(await db(`select actor_type, actor_label from audit_log where action = 'dispute.accepted' and target_id = ?`, [overdue])).toEqual([
      { actor_type: 'system', actor_label: 'dispute deadline' },
    ]);
    // The answered one stays under review, and the chain goes on.
    const after = Math.max(...(await slots()));
    expect(await eventually(async () => Math.max(...(await slots())) > after, { attempts: 100, everyMs: 100 })).toBe(true);
    expect(await statusOf(answered)).toBe('under_review');
    const report = await scheduled.service.app.services.ledger.verify(scheduled.service.app.services.transactions.expectedLegs());
    expect(report.problems).toEqual([]);
  } finally {
    await scheduled.close();
  }
});
