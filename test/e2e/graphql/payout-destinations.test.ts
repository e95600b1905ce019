import { graphql } from '../../helpers/http';
import { personOf, type TestPerson } from '../../helpers/people';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { dbQuery } from '../../helpers/webhooks';

/** Payout destinations through GraphQL: the same service calls and errors as REST (test/e2e/payouts/destinations.test.ts). */
const FIELDS = 'id currency accountType masked accountName status effectiveAt createdBy { id } approvedBy { id email } canceledBy { id }';
const ADD = `mutation($input: AddPayoutDestinationInput!) { addPayoutDestination(input: $input) { ${FIELDS} } }`;

describe('GraphQL payout destinations', () => {
  let app: TestApp;
  let merchantId: string;
  let owner: TestPerson;
  let finance: TestPerson;
  let keyToken: string;

  beforeAll(async () => {
    app = await createTestApp();
    const m = await app.createMerchant('Amina Bello');
    merchantId = m.merchant.id;
    keyToken = (await app.token(m)).accessToken;
    [owner, finance] = await Promise.all([personOf(app, merchantId, 'owner'), personOf(app, merchantId, 'finance')]);
  }, 60_000);
  afterAll(() => app.close());

  const add = (input: Record<string, unknown>, token = owner.token) => graphql(app.url, ADD, { token, variables: { input } });
  const gtbank = (accountNumber: string) => ({ country: 'NG', bankCode: '058', accountNumber });

  it('adds the first destination, then a change a second member approves; the maker cannot', async () => {
    const first = await add(gtbank('0123456782'));
    expect(first.body.errors).toBeUndefined();
    expect(first.body.data.addPayoutDestination).toMatchObject({
      currency: 'NGN',
      accountType: 'BANK',
      masked: 'Guaranty Trust Bank ••••6782',
      accountName: 'Amina Bello',
      status: 'ACTIVE',
    });
    const change = await add({ ...gtbank('0987654322'), currency: 'NGN' }, finance.token);
    const pending = change.body.data.addPayoutDestination;
    expect(pending).toMatchObject({ status: 'PENDING_APPROVAL', effectiveAt: null, createdBy: { id: finance.userId } });

    const approve = `mutation($id: ID!) { approvePayoutDestination(id: $id) { ${FIELDS} } }`;
    const own = await graphql(app.url, approve, { token: finance.token, variables: { id: pending.id } });
    expect(own.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const approved = await graphql(app.url, approve, { token: owner.token, variables: { id: pending.id } });
    expect(approved.body.data.approvePayoutDestination).toMatchObject({ status: 'ACTIVE', approvedBy: { id: owner.userId, email: owner.email } });

    const list = await graphql(
      app.url,
      `
        {
          payoutDestinations {
            id
            status
          }
        }
      `,
      { token: finance.token },
    );
    // Both were made at the same test-clock time, so the list's order between them is the ids' (random within a ms).
    expect(Object.fromEntries(list.body.data.payoutDestinations.map((d: { id: string; status: string }) => [d.id, d.status]))).toEqual({
      [pending.id]: 'ACTIVE',
      [first.body.data.addPayoutDestination.id]: 'REPLACED',
    });
    expect(list.body.data.payoutDestinations).toHaveLength(2);
    const one = await graphql(
      app.url,
      `
        query ($id: ID!) {
          payoutDestination(id: $id) {
            id
            masked
          }
        }
      `,
      { token: owner.token, variables: { id: pending.id } },
    );
    expect(one.body.data.payoutDestination).toEqual({ id: pending.id, masked: 'Guaranty Trust Bank ••••4322' });
    const actions = await dbQuery(
      app.db.url,
      `select action from audit_log where merchant_id = $1 and action like 'payout_destination.%' order by created_at, id`,
      [merchantId],
    );
    expect(actions.map((a) => a.action)).toEqual([
      'payout_destination.added',
      'payout_destination.added',
      'payout_destination.approval_requested',
      'payout_destination.approved',
    ]);
  });

  it('cancels a pending change', async () => {
    const pending = (await add(gtbank('0555555552'))).body.data.addPayoutDestination;
    const res = await graphql(app.url, `mutation($id: ID!) { cancelPayoutDestination(id: $id) { ${FIELDS} } }`, {
      token: finance.token,
      variables: { id: pending.id },
    });
    expect(res.body.data.cancelPayoutDestination).toMatchObject({ status: 'CANCELED', canceledBy: { id: finance.userId } });
  });

  it('a name mismatch is BENEFICIARY_NAME_MISMATCH and stores nothing; a wrong currency names its field; an API key is FORBIDDEN', async () => {
    const count = async () => Number((await dbQuery(app.db.url, 'select count(*) from payout_destination where merchant_id = $1', [merchantId]))[0].count);
    const before = await count();
    const mismatch = await add(gtbank('0123456781'));
    expect(mismatch.body.errors?.[0]).toMatchObject({
      message: expect.stringContaining('Chinedu Emeka Nwosu'),
      extensions: { code: 'BENEFICIARY_NAME_MISMATCH' },
    });
    const currency = await add({ ...gtbank('0123456782'), currency: 'GHS' });
    expect(currency.body.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_REQUEST', details: [{ field: 'currency', issue: expect.any(String) }] });
    const key = await graphql(app.url, '{ payoutDestinations { id } }', { token: keyToken });
    expect(key.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(await count()).toBe(before);
  });
});
