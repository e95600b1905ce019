import { connect, subscribeLive } from '../../helpers/ws';
import { graphql, request } from '../../helpers/http';
import { cardPaymentBody, initiatePayment } from '../../helpers/payments';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { eventually } from '../../helpers/wait';

/** Issue 39: disputes through GraphQL (the same service calls as REST) and the disputeChanged subscription over graphql-ws. */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ env: { DISPUTE_SWEEP_INTERVAL_S: '0' } });
}, 60_000);
afterAll(() => app?.close());

const FIELDS = `id paymentReference amount currency fee reason status provider providerStatus evidenceDueBy submissionCount funds createdAt closedAt
  evidence { productDescription customerCommunication refundPolicy serviceDate serviceDetails uncategorizedText files { id filename contentType size } }`;

test('simulate, evidence, submit, decide; the list, its filters and the count needing a response; disputeChanged hears each change', async () => {
  const m = await app.createMerchant('GraphQL Disputes');
  const token = (await app.token(m)).accessToken;
  const other = (await app.token(await app.createMerchant('Someone else'))).accessToken;
  const reference = (await initiatePayment(app, token, cardPaymentBody({ amount: '800.00' }))).body.data.reference as string;
  const client = connect(app, token);
  try {
    const sub = await subscribeLive(app.url, client, `subscription { disputeChanged { id status funds } }`);
    const opened = await graphql(app.url, `mutation($i: SimulateDisputeInput!) { simulateDispute(input: $i) { ${FIELDS} } }`, {
      token,
      variables: { i: { paymentReference: reference, reason: 'PRODUCT_UNACCEPTABLE', amount: '300.00' } },
    });
    expect(opened.body.errors).toBeUndefined();
    const d = opened.body.data!.simulateDispute;
    expect(d).toMatchObject({
      paymentReference: reference,
      amount: '300.00',
      fee: '0.00',
      reason: 'PRODUCT_UNACCEPTABLE',
      status: 'NEEDS_RESPONSE',
      funds: 'held',
    });
    expect(
      (
        await graphql(
          app.url,
          `
            {
              openDisputeCount
            }
          `,
          { token },
        )
      ).body.data,
    ).toEqual({ openDisputeCount: 1 });
    expect(
      (
        await graphql(
          app.url,
          `
            {
              openDisputeCount
            }
          `,
          { token: other },
        )
      ).body.data,
    ).toEqual({ openDisputeCount: 0 });

    const updated = await graphql(app.url, `mutation($id: ID!, $i: DisputeEvidenceInput!) { updateDisputeEvidence(id: $id, input: $i) { ${FIELDS} } }`, {
      token,
      variables: { id: d.id, i: { productDescription: 'A lamp', customerCommunication: 'Email of 20 Nov:\n"It works"', serviceDate: '2026-11-20' } },
    });
    expect(updated.body.data!.updateDisputeEvidence.evidence).toMatchObject({ productDescription: 'A lamp', serviceDate: '2026-11-20', files: [] });
    const badDate = await graphql(
      app.url,
      `
        mutation ($id: ID!) {
          updateDisputeEvidence(id: $id, input: { serviceDate: "2026-02-30" }) {
            id
          }
        }
      `,
      {
        token,
        variables: { id: d.id },
      },
    );
    expect(badDate.body.errors?.[0]?.extensions?.code).toBe('INVALID_REQUEST');

    const submitted = await graphql(
      app.url,
      `
        mutation ($id: ID!) {
          submitDispute(id: $id) {
            status
            submissionCount
          }
        }
      `,
      { token, variables: { id: d.id } },
    );
    expect(submitted.body.data!.submitDispute).toEqual({ status: 'UNDER_REVIEW', submissionCount: 1 });
    const lost = await graphql(
      app.url,
      `
        mutation ($id: ID!) {
          simulateDisputeOutcome(id: $id, outcome: LOST) {
            status
            funds
            closedAt
          }
        }
      `,
      {
        token,
        variables: { id: d.id },
      },
    );
    expect(lost.body.data!.simulateDisputeOutcome).toMatchObject({ status: 'LOST', funds: 'withdrawn' });

    const list = await graphql(
      app.url,
      `
        {
          disputes(first: 10, status: LOST) {
            edges {
              node {
                id
                status
              }
            }
          }
        }
      `,
      { token },
    );
    expect(list.body.data.disputes.edges).toEqual([{ node: { id: d.id, status: 'LOST' } }]);
    const byPayment = await graphql(
      app.url,
      `
        query ($r: String!) {
          disputes(paymentReference: $r, first: 1) {
            edges {
              node {
                id
              }
            }
          }
        }
      `,
      {
        token,
        variables: { r: reference },
      },
    );
    expect(byPayment.body.data.disputes.edges).toHaveLength(1);
    // Another merchant's dispute is not found, and its list is empty.
    expect(
      (
        await graphql(
          app.url,
          `
            query ($id: ID!) {
              dispute(id: $id) {
                id
              }
            }
          `,
          { token: other, variables: { id: d.id } },
        )
      ).body.errors?.[0]?.extensions?.code,
    ).toBe('NOT_FOUND');
    expect(
      (
        await graphql(
          app.url,
          `
            {
              disputes {
                edges {
                  node {
                    id
                  }
                }
              }
            }
          `,
          { token: other },
        )
      ).body.data.disputes.edges,
    ).toEqual([]);

    // Opened, evidence, submitted, lost: each change reaches the subscriber, after it commits.
    expect(await eventually(async () => sub.received.length >= 4)).toBe(true);
    expect(sub.received.map((r) => r.data?.disputeChanged.status)).toEqual(['NEEDS_RESPONSE', 'NEEDS_RESPONSE', 'UNDER_REVIEW', 'LOST']);
    sub.stop();
  } finally {
    await client.dispose();
  }
});

test('balances show what chargebacks hold and what is owed', async () => {
  const m = await app.createMerchant('Balances');
  const token = (await app.token(m)).accessToken;
  const reference = (await initiatePayment(app, token, cardPaymentBody({ amount: '100.00' }))).body.data.reference as string;
  await request(app.url, 'POST', '/v1/sandbox/disputes', { token, body: { payment_reference: reference, reason: 'duplicate' } });
  const b = await graphql(
    app.url,
    `
      {
        balances {
          currency
          available
          disputed
          owed
        }
      }
    `,
    { token },
  );
  expect(b.body.data.balances.find((x: { currency: string }) => x.currency === 'NGN')).toEqual({
    currency: 'NGN',
    available: '999998.50',
    disputed: '100.00',
    owed: '0.00',
  });
});

test('the due-before filter (REST due_before, GraphQL dueBefore): a dispute due before the bound is listed, one due after it is not', async () => {
  const start = app.clock.now();
  try {
    // Monday 23 November 2026, 09:00 UTC (10:00 in Lagos): business hours run, so two disputes opened an hour apart are due an hour apart.
    app.clock.set(new Date('2026-11-23T09:00:00Z'));
    const m = await app.createMerchant('Due Before');
    let token = '';
    const open = async () => {
      token = (await app.token(m)).accessToken; // (a token lasts an hour of the test clock)
      const reference = (await initiatePayment(app, token, cardPaymentBody({ amount: '100.00' }))).body.data.reference as string;
      const res = await request(app.url, 'POST', '/v1/sandbox/disputes', { token, body: { payment_reference: reference, reason: 'general' } });
      expect(res.status).toBe(201);
      return res.body.data as { id: string; evidence_due_by: string };
    };
    const early = await open();
    app.clock.advance(3600_000);
    const late = await open();
    // 16 business hours (Nigeria): Tuesday 02:00 and 03:00 Lagos.
    expect([early.evidence_due_by, late.evidence_due_by]).toEqual(['2026-11-24T01:00:00.000Z', '2026-11-24T02:00:00.000Z']);
    const bound = '2026-11-24T01:30:00.000Z';

    const rest = async (dueBefore: string) =>
      ((await request(app.url, 'GET', `/v1/disputes?due_before=${encodeURIComponent(dueBefore)}`, { token })).body.data as Array<{ id: string }>).map(
        (d) => d.id,
      );
    expect(await rest(bound)).toEqual([early.id]);
    // The bound is exclusive, and a later one takes both (newest first).
    expect(await rest(early.evidence_due_by)).toEqual([]);
    expect(await rest('2026-11-24T02:00:00.001Z')).toEqual([late.id, early.id]);

    const gql = await graphql(
      app.url,
      `
        query ($d: DateTime) {
          disputes(first: 10, dueBefore: $d) {
            edges {
              node {
                id
                evidenceDueBy
              }
            }
          }
        }
      `,
      { token, variables: { d: bound } },
    );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.disputes.edges).toEqual([{ node: { id: early.id, evidenceDueBy: early.evidence_due_by } }]);
  } finally {
    app.clock.set(start);
  }
});
