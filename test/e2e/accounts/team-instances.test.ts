import { graphql } from '../../helpers/http';
import { addPerson, personSession } from '../../helpers/team';
import { startTwoInstances, type TwoInstances } from '../../helpers/two-instances';
import { eventually } from '../../helpers/wait';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const MEMBERS = '{ teamMembers { id } }';

// Redis carries the revocation; the table poll is set too slow to be what works.
describe('two instances: a role change or removal on A ends the member’s sessions on B', () => {
  let instances: TwoInstances;

  beforeAll(async () => {
    instances = await startTwoInstances({ REDIS_URL, TOKEN_REVOCATION_POLL_MS: '600000' });
  });
  afterAll(() => instances?.close());

  it.each([
    ['a role change', 'mutation($id: ID!) { changeMemberRole(id: $id, role: VIEWER) { id } }'],
    ['a removal', 'mutation($id: ID!) { removeMember(id: $id) }'],
  ])('%s', async (_label, mutation) => {
    const { a, b } = instances;
    const merchant = await a.createMerchant('Shared Team');
    const owner = await addPerson(a, merchant.merchant.id, 'owner');
    const member = await addPerson(a, merchant.merchant.id, 'developer');
    const { accessToken } = await personSession(a, member);
    expect((await graphql(b.url, MEMBERS, { token: accessToken })).body.errors).toBeUndefined();

    const ownerToken = (await personSession(a, owner)).accessToken;
    const changed = await graphql(a.url, mutation, { token: ownerToken, variables: { id: member.membershipId } });
    expect(changed.body.errors).toBeUndefined();

    const refused = await eventually(
      async () => (await graphql(b.url, MEMBERS, { token: accessToken })).body.errors?.[0]?.extensions?.code === 'INVALID_TOKEN',
    );
    expect(refused).toBe(true);
  });
});
