import type { Client } from 'graphql-ws';
import { enroll } from '../../helpers/factories';
import { graphql, request } from '../../helpers/http';
import { cardPaymentBody } from '../../helpers/payments';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { transactionCount } from '../../helpers/transactions';
import { connect } from '../../helpers/ws';

/** A body as raw JSON, so it can carry escapes JSON.stringify would never write (a lone surrogate). */
const rawJson = (app: TestApp, method: string, path: string, raw: string, token: string) =>
  request(app.url, method, path, { raw, token, headers: { 'content-type': 'application/json' } });

const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('input hygiene at the edge: strings PostgreSQL cannot store, crafted cursors', () => {
  let app: TestApp;
  let token: string;
  let client: Client;

  beforeAll(async () => {
    app = await createTestApp();
    token = (await app.token(await app.createMerchant('Hygiene'))).accessToken;
    client = connect(app, token);
  });
  afterAll(async () => {
    await client.dispose();
    await app.close();
  });

  it.each([
    ['NUL in a top-level field', '{"customerid":"a\\u0000b","first_name":"A"}', 'customerid', /NUL/],
    ['a lone high surrogate', '{"customerid":"x","first_name":"\\ud800"}', 'first_name', /unpaired surrogate/],
    ['a lone low surrogate, nested', '{"customerid":"x","address":{"line1":"\\udc00"}}', 'address.line1', /unpaired surrogate/],
    ['NUL in an array item', '{"customerid":"x","tags":["ok","\\u0000"]}', 'tags[1]', /NUL/],
    ['NUL in a field name', '{"a\\u0000":1}', 'body', /field name/],
  ])('REST: %s → 400 naming the field, nothing written', async (_name, raw, field, issue) => {
    const res = await rawJson(app, 'POST', '/v1/customer/enroll', raw, token);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 'error', code: 'INVALID_REQUEST', details: [{ field, issue: expect.stringMatching(issue) }] });
    expect((await request(app.url, 'GET', '/v1/customers', { token })).body.data).toEqual([]);
  });

  it('REST: NUL in a query string or a path parameter → 400, not a database error', async () => {
    const query = await request(app.url, 'GET', '/v1/crossborder/channels?country_code=K%00E&ramptype=deposit', { token });
    expect(query.status).toBe(400);
    expect(query.body.details).toEqual([{ field: 'country_code', issue: expect.stringMatching(/NUL/) }]);
    const path = await request(app.url, 'GET', '/v1/customer/ab%00cd', { token });
    expect(path.status).toBe(400);
    expect(path.body.code).toBe('INVALID_REQUEST');
  });

  it('a card payment whose description has a lone surrogate → 400, no transaction', async () => {
    const before = await transactionCount(app);
    const body = JSON.stringify(cardPaymentBody()).replace('"Order 1001"', '"Order \\ud83d"');
    const res = await rawJson(app, 'POST', '/v1/payments/initiate', body, token);
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ field: 'description', issue: expect.stringMatching(/surrogate/) }]);
    expect(await transactionCount(app)).toBe(before);
  });

  it('GraphQL over HTTP: a bad string in the variables → INVALID_REQUEST naming it', async () => {
    const raw = JSON.stringify({ query: 'query($r: String!) { transaction(reference: $r) { reference } }', variables: { r: 'x' } }).replace('"x"', '"\\ud800"');
    const res = await rawJson(app, 'POST', '/graphql', raw, token);
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({
      extensions: { code: 'INVALID_REQUEST' },
      message: expect.stringMatching(/^variables\.r must be valid Unicode/),
    });
  });

  it('GraphQL over the socket: the same', async () => {
    const errors = await new Promise<any>((resolve) => {
      client.subscribe(
        { query: 'query($r: String!) { transaction(reference: $r) { reference } }', variables: { r: 'a\u0000b' } },
        { next: (v) => resolve((v as any).errors), error: resolve, complete: () => undefined },
      );
    });
    expect(errors[0]).toMatchObject({ extensions: { code: 'INVALID_REQUEST' }, message: expect.stringMatching(/^variables\.r must not contain NUL/) });
  });

  it.each([
    ['not base64 JSON', 'not-a-cursor', 400],
    ['a JSON object', cursorOf({ a: 1 }), 400],
    ['a date PostgreSQL refuses', cursorOf(['-271821-04-20T00:00:00.000Z', '3f1c2d4e-0000-4000-8000-000000000000']), 400],
    ['a number for a date', cursorOf([1, '3f1c2d4e-0000-4000-8000-000000000000']), 400],
    ['an id that is not a uuid', cursorOf(['2026-11-22T12:00:00.000Z', "x' or 1=1 --"]), 400],
    // An event id is a valid cursor of the event log (evt_ and 22 base64url characters), not of a list of uuids.
    ['an event id where a uuid belongs', cursorOf(['2026-11-22T12:00:00.000Z', 'evt_AAAAAAAAAAAAAAAAAAAAAA']), 200],
    // Issue 18: and the event log takes only an event id.
    ['a malformed event id', cursorOf(['2026-11-22T12:00:00.000Z', 'evt_123']), 400],
  ])('a crafted cursor (%s) is 400 on every list, REST and GraphQL', async (_name, cursor, eventLogStatus) => {
    await enroll(app, token);
    const customers = await request(app.url, 'GET', `/v1/customers?after=${encodeURIComponent(cursor)}`, { token });
    expect({ status: customers.status, code: customers.body.code }).toEqual({ status: 400, code: 'INVALID_REQUEST' });
    const events = await request(app.url, 'GET', `/v1/webhooks/events?after=${encodeURIComponent(cursor)}`, { token });
    expect(events.status).toBe(eventLogStatus);
    const gql = await graphql(app.url, 'query($a: String) { transactions(after: $a) { edges { cursor } } customers(after: $a) { edges { cursor } } }', {
      token,
      variables: { a: cursor },
    });
    expect(gql.body.errors?.[0]?.extensions?.code).toBe('INVALID_REQUEST');
  });
});
