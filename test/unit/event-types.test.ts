import { DEFAULT_EVENT_TYPES, EVENT_TYPES, PROGRESS_EVENT_TYPES, SELECTABLE_EVENT_TYPES, subjectOf } from '../../src/modules/outbox/event-types';
import { Outbox } from '../../src/modules/outbox/outbox';
import { TRANSACTION_KINDS, TRANSACTION_STATUSES } from '../../src/modules/transactions/transaction.state';

/** Issue 24, point 3: the event types, the default a merchant receives, and ids derived for events that happen once. */
describe('event types', () => {
  it('every status a transaction is shown in has its event type, for each kind that reaches it', () => {
    const reachable: Record<string, string[]> = {
      collection: ['processing', 'successful', 'failed', 'expired'],
      transfer: ['processing', 'successful', 'failed'],
      // A bank transfer payment nobody paid into expires (issue 41).
      payment: ['processing', 'requires_action', 'successful', 'failed', 'expired'],
      refund: ['processing', 'successful', 'failed'],
      // Issue 38: a payout's events are named for the payout (processing → created, successful → paid, failed).
      payout: ['created', 'paid', 'failed'],
      // Issue 41: a funding of the merchant's balance: an account to pay into, paid, failed or expired.
      funding: ['processing', 'successful', 'failed', 'expired'],
    };
    const transactionTypes = EVENT_TYPES.filter((t) => TRANSACTION_KINDS.some((k) => t.startsWith(`${k}.`)));
    expect(transactionTypes.sort()).toEqual(TRANSACTION_KINDS.flatMap((k) => reachable[k]!.map((s) => `${k}.${s}`)).sort());
    // `initiating` is internal (milliseconds, and shown as itself only by the status history): no event.
    expect(TRANSACTION_STATUSES.filter((s) => EVENT_TYPES.some((t) => t.endsWith(`.${s}`)))).not.toContain('initiating');
  });

  it('the default is every selectable type but the progress ones; the test event is not selectable', () => {
    expect(SELECTABLE_EVENT_TYPES).not.toContain('webhook.test');
    expect([...DEFAULT_EVENT_TYPES, ...PROGRESS_EVENT_TYPES].sort()).toEqual([...SELECTABLE_EVENT_TYPES].sort());
    expect(DEFAULT_EVENT_TYPES.filter((t) => (PROGRESS_EVENT_TYPES as readonly string[]).includes(t))).toEqual([]);
  });

  it('subjects: a transaction, a customer, or nothing for the test event', () => {
    expect(subjectOf({ type: 'collection.processing', subjectId: 'col_1' })).toEqual({ reference: 'col_1', customerUuid: null });
    expect(subjectOf({ type: 'customer.kyc.approved', subjectId: 'c-1' })).toEqual({ reference: null, customerUuid: 'c-1' });
    expect(subjectOf({ type: 'webhook.test', subjectId: 'm-1' })).toEqual({ reference: null, customerUuid: null });
  });

  it('an event that happens once has an id derived from it: stamped again (reconciliation), the same id', () => {
    const outbox = new Outbox({ clock: { now: () => new Date('2026-11-27T10:00:00Z') }, followUps: [() => ({ ctes: [], selects: [] })] });
    const event = { merchantId: 'm', type: 'collection.processing' as const, subjectId: 'col_1', payload: {} };
    const at = new Date('2026-11-27T09:59:59.123Z');
    const first = outbox.stamp(event, { key: 'txn-1:processing', at });
    const again = outbox.stamp(event, { key: 'txn-1:processing', at });
    expect(again.id).toBe(first.id);
    expect(outbox.stamp(event, { key: 'txn-2:processing', at }).id).not.toBe(first.id);
    expect(outbox.stamp(event, { key: 'txn-1:successful', at }).id).not.toBe(first.id);
    // Still time-ordered (the first six bytes are the time), like every other event id.
    expect(Buffer.from(first.id.slice(4), 'base64url').readUIntBE(0, 6)).toBe(at.getTime());
    expect(first.id).toMatch(/^evt_[A-Za-z0-9_-]{22}$/);
    // Without a key, each stamp is a new event.
    expect(outbox.stamp(event).id).not.toBe(outbox.stamp(event).id);
  });
});
