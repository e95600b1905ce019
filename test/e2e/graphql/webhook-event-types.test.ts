import { EVENT_TYPES } from '../../../src/modules/outbox/event-types';
import { graphql } from '../../helpers/http';
import { createTestApp, type TestApp } from '../../helpers/test-app';

/** webhookEventTypes: the service's own list of event types (the dashboard's filter reads it). */
describe('GraphQL webhookEventTypes', () => {
  let app: TestApp;
  let token: string;

  beforeAll(async () => {
    app = await createTestApp();
    token = (await app.token(await app.createMerchant('Event Types Merchant'))).accessToken;
  });
  afterAll(() => app.close());

  it('lists every event type the service sends, as its one list has them', async () => {
    const res = await graphql(app.url, 'query WebhookEventTypes { webhookEventTypes }', { token });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.webhookEventTypes).toEqual([...EVENT_TYPES]);
    expect(res.body.data.webhookEventTypes).toEqual(expect.arrayContaining(['collection.successful', 'customer.kyc.approved', 'refund.failed']));
  });

  it('lists only types the event log filter accepts, and the filter refuses others', async () => {
    const types: string[] = (await graphql(app.url, '{ webhookEventTypes }', { token })).body.data.webhookEventTypes;
    const filter = 'query($type: String) { webhookEvents(first: 1, type: $type) { edges { node { id } } } }';
    for (const type of types) {
      const res = await graphql(app.url, filter, { token, variables: { type } });
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.webhookEvents.edges).toEqual([]);
    }
    const unknown = await graphql(app.url, filter, { token, variables: { type: 'collection.unknown' } });
    expect(unknown.body.errors?.[0]?.extensions?.code).toBe('INVALID_REQUEST');
  });

  it('needs a token, as every operation does', async () => {
    const res = await graphql(app.url, '{ webhookEventTypes }');
    expect(res.status).toBe(401);
    expect(res.body.errors?.[0]?.extensions?.code).toBe('INVALID_TOKEN');
  });
});
