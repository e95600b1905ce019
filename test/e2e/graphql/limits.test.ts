import type { Client } from 'graphql-ws';
import { graphql } from '../../helpers/http';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { sql } from '../../helpers/transactions';
import { connect } from '../../helpers/ws';

/** Runs a document over the socket and resolves with its errors (or undefined when it ran). */
function overSocket(client: Client, query: string): Promise<Array<{ message: string; extensions: Record<string, any> }> | undefined> {
  return new Promise((resolve) => {
    const stop = client.subscribe(
      { query },
      {
        next: (v) => {
          stop();
          resolve((v as any).errors);
        },
        error: (e) => resolve(e as any),
        complete: () => resolve(undefined),
      },
    );
  });
}

const aliases = (n: number) =>
  `{ ${Array.from({ length: n }, (_, i) => `q${i}: rate(sourceCurrency: "USD", destinationCurrency: "KES", amount: "100") { quoteId }`).join(' ')} }`;
const nested = (levels: number) => `${'{ a '.repeat(levels)}${'}'.repeat(levels)}`;

describe('GraphQL cost controls, identical over HTTP and the socket (sandbox)', () => {
  let app: TestApp;
  let token: string;
  let client: Client;

  beforeAll(async () => {
    app = await createTestApp();
    token = (await app.token(await app.createMerchant('Limits'))).accessToken;
    client = connect(app, token);
  });
  afterAll(async () => {
    await client.dispose();
    await app.close();
  });

  /** The document is refused with INVALID_REQUEST over both doors, with the same message. */
  async function refusedOnBothDoors(query: string, message: RegExp) {
    const http = await graphql(app.url, query, { token });
    expect(http.status).toBe(400);
    expect(http.body.data).toBeUndefined();
    expect(http.body.errors?.[0]).toMatchObject({ message: expect.stringMatching(message), extensions: { code: 'INVALID_REQUEST' } });
    const socket = await overSocket(client, query);
    expect(socket?.[0]).toMatchObject({ message: http.body.errors![0]!.message, extensions: { code: 'INVALID_REQUEST' } });
    return http;
  }

  it('alias bombs (100 and 1,000 aliases of a field that writes a quote) are refused before anything runs: no quote is written', async () => {
    const before = Number((await sql(app, 'select count(*) as n from fx_quote'))[0].n);
    await refusedOnBothDoors(aliases(100), /Aliases limit of 15 exceeded/);
    // 1,000 aliases are more tokens than a document may have: the parser stops first.
    await refusedOnBothDoors(aliases(1000), /more tha[nt] 2000 tokens/);
    expect(Number((await sql(app, 'select count(*) as n from fx_quote'))[0].n)).toBe(before);
  });

  it('15 aliases are fine', async () => {
    const res = await graphql(app.url, aliases(15), { token });
    expect(res.body.errors).toBeUndefined();
    expect(Object.keys(res.body.data)).toHaveLength(15);
  });

  it('a document nested 2,000 levels deep is a clean INVALID_REQUEST (refused before the parser recurses), not a server error', async () => {
    await refusedOnBothDoors(nested(2000), /nested too deeply \(at most 64 levels of brackets\)/);
  });

  it('a list value nested 2,000 deep, under the token limit as the parser reads it, is refused the same way', async () => {
    await refusedOnBothDoors(`{ transaction(reference: ${'['.repeat(2000)}"x"${']'.repeat(2000)}) { reference } }`, /nested too deeply/);
  });

  it('brackets inside strings, block strings and comments do not count as nesting', async () => {
    const brackets = '['.repeat(100);
    const query = `# ${brackets}\n{ a: __type(name: "${brackets}") { name } b: __type(name: """${brackets} \\""" ${brackets}""") { name } }`;
    const http = await graphql(app.url, query, { token });
    expect(http.body).toEqual({ data: { a: null, b: null } });
  });

  it('a wide and deep document over the cost limit is refused', async () => {
    const node = 'reference externalReference type status failureReason amount currency createdAt history { fromStatus toStatus reason occurredAt }';
    const wide = `{ ${Array.from({ length: 12 }, (_, i) => `t${i}: transactions(first: 100) { edges { cursor node { ${node} } } pageInfo { hasNextPage endCursor } }`).join(' ')} }`;
    await refusedOnBothDoors(wide, /Query Cost limit of 30000 exceeded/);
  });

  it('a directive bomb is refused', async () => {
    const query = `{ ${Array.from({ length: 60 }, () => 'merchant @include(if: true) { id }').join(' ')} }`;
    await refusedOnBothDoors(query, /Directives limit of 50 exceeded/);
  });

  it('the largest ordinary query (a full page of transactions with their history) passes', async () => {
    const res = await graphql(
      app.url,
      `
        {
          transactions(first: 100) {
            edges {
              cursor
              node {
                reference
                externalReference
                type
                status
                failureReason
                customerUuid
                accountType
                countryCode
                channelId
                networkId
                dialCode
                reason
                providerReference
                amount
                currency
                accountNumber
                bankInfo {
                  accountName
                  accountNumber
                  bankName
                  bankCode
                }
                sourceAmount
                sourceCurrency
                destinationAmount
                destinationCurrency
                rate
                fee
                quoteId
                beneficiary {
                  accountName
                  accountNumber
                  networkId
                }
                paymentMethod
                card {
                  brand
                  last4
                  fingerprint
                }
                nextAction {
                  type
                  url
                  expiresAt
                }
                redirectUrl
                description
                createdAt
                updatedAt
                completedAt
                expiresAt
                history {
                  fromStatus
                  toStatus
                  reason
                  occurredAt
                }
              }
            }
            pageInfo {
              hasNextPage
              endCursor
            }
          }
        }
      `,
      { token },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.transactions.edges).toEqual([]);
  });

  it('the sandbox keeps introspection and "Did you mean" suggestions', async () => {
    expect((await graphql(app.url, '{ __schema { queryType { name } } }', { token })).body.data.__schema.queryType.name).toBe('Query');
    const typo = await graphql(app.url, '{ merchnt { id } }', { token });
    expect(typo.body.errors?.[0]?.message).toMatch(/Did you mean "merchant"\?/);
  });
});

describe('GraphQL in production mode: no introspection, no suggestions', () => {
  let app: TestApp;
  let token: string;
  let client: Client;

  beforeAll(async () => {
    app = await createTestApp({ env: { PAYMENTS_ENV: 'production' } });
    token = (await app.token(await app.createMerchant('Live Limits'))).accessToken;
    client = connect(app, token);
  });
  afterAll(async () => {
    await client.dispose();
    await app.close();
  });

  it('introspection is refused over both doors', async () => {
    for (const query of ['{ __schema { queryType { name } } }', '{ __type(name: "Transaction") { name } }']) {
      const http = await graphql(app.url, query, { token });
      expect(http.body.errors?.[0]?.extensions?.code).toBe('INVALID_REQUEST');
      expect(http.body.data).toBeUndefined();
      const socket = await overSocket(client, query);
      expect(socket?.[0]?.extensions?.code).toBe('INVALID_REQUEST');
    }
  });

  it('a misspelt field gets no suggestion, over both doors', async () => {
    const http = await graphql(app.url, '{ merchnt { id } }', { token });
    expect(http.body.errors?.[0]).toMatchObject({ message: 'Cannot query field "merchnt" on type "Query".', extensions: { code: 'INVALID_REQUEST' } });
    const socket = await overSocket(client, '{ merchnt { id } }');
    expect(socket?.[0]?.message).toBe('Cannot query field "merchnt" on type "Query".');
  });

  it('ordinary queries still run', async () => {
    const res = await graphql(app.url, '{ merchant { name } }', { token });
    expect(res.body).toEqual({ data: { merchant: { name: 'Live Limits' } } });
  });
});
