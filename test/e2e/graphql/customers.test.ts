import { enroll, twoMerchants } from '../../helpers/factories';
import { graphql } from '../../helpers/http';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { eventually } from '../../helpers/wait';

const CUSTOMER_FIELDS = 'uuid customerId firstName lastName email phoneNumber dialCode countryCode dateOfBirth kycStatus overallKycStatus createdAt updatedAt';
const KYC_FIELDS = 'customerUuid kycStatus overallKycStatus submittedAt reviewedAt rejectionReason';

const ENROLL = `mutation($input: EnrollCustomerInput!) { enrollCustomer(input: $input) { ${CUSTOMER_FIELDS} } }`;
const SUBMIT = `mutation($uuid: String!, $input: SubmitKycInput!) { submitKyc(customerUuid: $uuid, input: $input) { ${KYC_FIELDS} } }`;
const KYC = `query($uuid: String!) { kyc(customerUuid: $uuid) { ${KYC_FIELDS} } }`;

let seq = 0;
const enrollInput = (overrides: Record<string, unknown> = {}) => ({
  customerId: `gql-${Date.now()}-${++seq}`,
  firstName: 'Kofi',
  lastName: 'Mensah',
  email: 'kofi@example.com',
  phoneNumber: '241234567',
  dialCode: '+233',
  countryCode: 'GH',
  dateOfBirth: '1988-01-31',
  ...overrides,
});
const kycInput = (overrides: Record<string, unknown> = {}) => ({
  idType: 'PASSPORT',
  idNumber: 'G1234567',
  idCountry: 'GH',
  dateOfBirth: '1988-01-31',
  address: { line1: '5 Independence Ave', city: 'Accra', countryCode: 'GH' },
  ...overrides,
});
const codeOf = (res: { body: { errors?: Array<{ extensions?: Record<string, any> }> } }) => res.body.errors?.[0]?.extensions?.code;

describe('GraphQL customers and KYC', () => {
  let app: TestApp;
  let token: string;
  let otherToken: string;

  beforeAll(async () => {
    app = await createTestApp();
    const { mine, theirs } = await twoMerchants(app, 'GraphQL Customers');
    [token, otherToken] = [mine.token, theirs.token];
  });
  afterAll(() => app.close());

  it('enrollCustomer returns the customer; customer(uuid) reads it back', async () => {
    const input = enrollInput();
    const res = await graphql(app.url, ENROLL, { token, variables: { input } });
    expect(res.body.errors).toBeUndefined();
    const created = res.body.data.enrollCustomer;
    expect(created).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      customerId: input.customerId,
      firstName: 'Kofi',
      lastName: 'Mensah',
      email: 'kofi@example.com',
      phoneNumber: '241234567',
      dialCode: '+233',
      countryCode: 'GH',
      dateOfBirth: '1988-01-31',
      kycStatus: 'PENDING_KYC',
      overallKycStatus: 'PENDING_KYC',
      createdAt: app.clock.now().toISOString(),
      updatedAt: app.clock.now().toISOString(),
    });
    const read = await graphql(app.url, `query($uuid: String!) { customer(uuid: $uuid) { ${CUSTOMER_FIELDS} } }`, {
      token,
      variables: { uuid: created.uuid },
    });
    expect(read.body.data.customer).toEqual(created);
  });

  it('validation errors are INVALID_REQUEST with camelCase details', async () => {
    const res = await graphql(app.url, ENROLL, { token, variables: { input: enrollInput({ dialCode: '+254', email: 'nope' }) } });
    expect(codeOf(res)).toBe('INVALID_REQUEST');
    const fields = res.body.errors![0]!.extensions!.details.map((d: any) => d.field);
    expect(fields).toContain('email');
    const dial = await graphql(app.url, ENROLL, { token, variables: { input: enrollInput({ dialCode: '+254' }) } });
    expect(codeOf(dial)).toBe('INVALID_REQUEST');
    expect(dial.body.errors![0]!.extensions!.details).toEqual([{ field: 'dialCode', issue: 'must be +233 for GH' }]);
    const missing = await graphql(app.url, ENROLL, { token, variables: { input: { firstName: 'x' } } });
    expect(codeOf(missing)).toBe('INVALID_REQUEST');
  });

  it('a repeated customerId is DUPLICATE_REQUEST', async () => {
    const input = enrollInput();
    await graphql(app.url, ENROLL, { token, variables: { input } });
    const again = await graphql(app.url, ENROLL, { token, variables: { input } });
    expect(codeOf(again)).toBe('DUPLICATE_REQUEST');
    expect(again.body.errors![0]!.extensions!.http.status).toBe(409);
  });

  it('another merchant’s customer is NOT_FOUND, exactly like a random uuid', async () => {
    const mine = (await graphql(app.url, ENROLL, { token, variables: { input: enrollInput() } })).body.data.enrollCustomer.uuid;
    const query = `query($uuid: String!) { customer(uuid: $uuid) { uuid } }`;
    const theirs = await graphql(app.url, query, { token: otherToken, variables: { uuid: mine } });
    const random = await graphql(app.url, query, { token: otherToken, variables: { uuid: '3f1c2d4e-0000-4000-8000-000000000000' } });
    expect(codeOf(theirs)).toBe('NOT_FOUND');
    expect(theirs.body.errors![0]!.message).toBe(random.body.errors![0]!.message);
    expect(codeOf(await graphql(app.url, KYC, { token: otherToken, variables: { uuid: mine } }))).toBe('NOT_FOUND');
    expect(codeOf(await graphql(app.url, SUBMIT, { token: otherToken, variables: { uuid: mine, input: kycInput() } }))).toBe('NOT_FOUND');
  });

  it('customers is a Relay connection, newest first, paged with first/after', async () => {
    const lister = await app.createMerchant('GraphQL Lister');
    const listerToken = (await app.token(lister)).accessToken;
    const created: string[] = [];
    for (let i = 0; i < 3; i++) {
      created.push((await enroll(app, listerToken)).customer_uuid);
      app.clock.advance(1000);
    }
    const PAGE = `query($after: String) { customers(first: 2, after: $after) { edges { cursor node { uuid } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`;
    const first = (await graphql(app.url, PAGE, { token: listerToken })).body.data.customers;
    expect(first.edges.map((e: any) => e.node.uuid)).toEqual([created[2], created[1]]);
    expect(first.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: false, startCursor: first.edges[0].cursor, endCursor: first.edges[1].cursor });
    const second = (await graphql(app.url, PAGE, { token: listerToken, variables: { after: first.pageInfo.endCursor } })).body.data.customers;
    expect(second.edges.map((e: any) => e.node.uuid)).toEqual([created[0]]);
    expect(second.pageInfo.hasNextPage).toBe(false);
    expect(codeOf(await graphql(app.url, PAGE, { token: listerToken, variables: { after: 'bogus' } }))).toBe('INVALID_REQUEST');
    // Errors name GraphQL's arguments, not the service's (`limit`).
    const tooMany = await graphql(
      app.url,
      `
        {
          customers(first: 0) {
            edges {
              cursor
            }
          }
        }
      `,
      { token: listerToken },
    );
    expect(codeOf(tooMany)).toBe('INVALID_REQUEST');
    expect(tooMany.body.errors![0]!.extensions!.details).toEqual([expect.objectContaining({ field: 'first' })]);
  });

  it('submitKyc → PENDING, a second submit is INVALID_STATE, the review approves it', async () => {
    const uuid = (await graphql(app.url, ENROLL, { token, variables: { input: enrollInput() } })).body.data.enrollCustomer.uuid;
    const submitted = await graphql(app.url, SUBMIT, { token, variables: { uuid, input: kycInput() } });
    expect(submitted.body.data.submitKyc).toMatchObject({ customerUuid: uuid, kycStatus: 'PENDING', reviewedAt: null });
    const twice = await graphql(app.url, SUBMIT, { token, variables: { uuid, input: kycInput() } });
    expect(codeOf(twice)).toBe('INVALID_STATE');

    let kyc: any;
    const decided = await eventually(async () => {
      kyc = (await graphql(app.url, KYC, { token, variables: { uuid } })).body.data.kyc;
      return kyc.kycStatus !== 'PENDING';
    });
    expect(decided).toBe(true);
    expect(kyc).toMatchObject({ kycStatus: 'APPROVED', overallKycStatus: 'APPROVED', rejectionReason: null });
  });

  it('an idNumber starting with REJECT is rejected with a reason', async () => {
    const uuid = (await graphql(app.url, ENROLL, { token, variables: { input: enrollInput() } })).body.data.enrollCustomer.uuid;
    await graphql(app.url, SUBMIT, { token, variables: { uuid, input: kycInput({ idNumber: 'REJECT77' }) } });
    let kyc: any;
    await eventually(async () => {
      kyc = (await graphql(app.url, KYC, { token, variables: { uuid } })).body.data.kyc;
      return kyc.kycStatus !== 'PENDING';
    });
    expect(kyc).toMatchObject({ kycStatus: 'REJECTED', rejectionReason: 'identity_document_rejected' });
  });

  it('a bad KYC input is INVALID_REQUEST naming the field', async () => {
    const uuid = (await graphql(app.url, ENROLL, { token, variables: { input: enrollInput() } })).body.data.enrollCustomer.uuid;
    const res = await graphql(app.url, SUBMIT, { token, variables: { uuid, input: kycInput({ idCountry: 'Ghana' }) } });
    expect(codeOf(res)).toBe('INVALID_REQUEST');
    expect(res.body.errors![0]!.extensions!.details).toEqual([expect.objectContaining({ field: 'idCountry' })]);
    const badEnum = await graphql(app.url, SUBMIT, { token, variables: { uuid, input: kycInput({ idType: 'LIBRARY_CARD' }) } });
    expect(codeOf(badEnum)).toBe('INVALID_REQUEST');
  });

  it('submitKyc takes a local document (BVN) with its country; a bad one is INVALID_REQUEST naming the field, and nothing is stored', async () => {
    const nigerian = (overrides: Record<string, unknown> = {}) =>
      kycInput({ idType: 'BVN', idNumber: '22212345678', idCountry: 'NG', address: { line1: '3 Marina', city: 'Lagos', countryCode: 'NG' }, ...overrides });
    const submissions = async (uuid: string) =>
      Number((await app.service.orm.em.fork().execute('select count(*) as n from kyc_submission where customer_id = ?', [uuid]))[0].n);
    const uuid = (await graphql(app.url, ENROLL, { token, variables: { input: enrollInput() } })).body.data.enrollCustomer.uuid;

    const refusals: Array<[Record<string, unknown>, { field: string; issue: string }]> = [
      [{ idNumber: '222123456' }, { field: 'idNumber', issue: 'must be 11 digits' }],
      [{ idCountry: 'GH' }, { field: 'idCountry', issue: 'must be NG for bvn' }],
      [
        { idType: 'NIN', idNumber: '7012345678X' },
        { field: 'idNumber', issue: 'must be 11 digits' },
      ],
    ];
    for (const [change, detail] of refusals) {
      const res = await graphql(app.url, SUBMIT, { token, variables: { uuid, input: nigerian(change) } });
      expect(res.body.data).toBeNull();
      expect(codeOf(res)).toBe('INVALID_REQUEST');
      expect(res.body.errors![0]!.message).toBe(`Invalid request: ${detail.field} ${detail.issue}`);
      expect(res.body.errors![0]!.extensions!.details).toEqual([detail]);
    }
    expect(await submissions(uuid)).toBe(0);
    expect((await graphql(app.url, KYC, { token, variables: { uuid } })).body.data.kyc.kycStatus).toBe('PENDING_KYC');

    const submitted = await graphql(app.url, SUBMIT, { token, variables: { uuid, input: nigerian() } });
    expect(submitted.body.errors).toBeUndefined();
    expect(submitted.body.data.submitKyc).toMatchObject({ customerUuid: uuid, kycStatus: 'PENDING' });
    expect(await submissions(uuid)).toBe(1);
  });
});
