import { enroll, enrollBody, enrollInput, kycBody } from '../../helpers/factories';
import { graphql, request } from '../../helpers/http';
import { cardPaymentBody, cardPaymentInput } from '../../helpers/payments';
import { createTestApp, type TestApp } from '../../helpers/test-app';

/**
 * Services speak the domain's names; each door names fields as its clients know them,
 * in `details` and in the message alike (issue #11, point 1). The same mistake made
 * through both doors reads in snake_case over REST and in camelCase over GraphQL, and
 * a GraphQL page size is `first`, never the service's `limit`.
 */

const SNAKE = /\b[a-z]+_[a-z_]+\b/;
type GqlError = { message: string; extensions?: { code?: string; details?: Array<{ field: string; issue: string }> } };
const firstError = (res: { body: { errors?: GqlError[] } }): GqlError => {
  const error = res.body.errors?.[0];
  if (!error) throw new Error(`expected a GraphQL error, got ${JSON.stringify(res.body)}`);
  return error;
};

describe('each door names fields in its own language', () => {
  let app: TestApp;
  let token: string;
  let customerUuid: string;

  beforeAll(async () => {
    app = await createTestApp();
    const merchant = await app.createMerchant('Door Names');
    token = (await app.token(merchant)).accessToken;
    customerUuid = (await enroll(app, token)).customer_uuid;
  });
  afterAll(() => app?.close());

  it('an unsupported country: REST says country_code, GraphQL says countryCode', async () => {
    const rest = await request(app.url, 'POST', '/v1/customer/enroll', { token, body: { ...enrollBodyFor('ZZ') } });
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual({
      status: 'error',
      code: 'INVALID_REQUEST',
      message: 'country_code is not a supported country',
      details: [{ field: 'country_code', issue: 'is not a supported country' }],
    });

    const gql = await graphql(app.url, 'mutation($input: EnrollCustomerInput!) { enrollCustomer(input: $input) { customerUuid } }', {
      token,
      variables: { input: { ...enrollInputFor('ZZ') } },
    });
    const error = firstError(gql);
    expect(error.message).toBe('countryCode is not a supported country');
    expect(error.extensions).toMatchObject({ code: 'INVALID_REQUEST', details: [{ field: 'countryCode', issue: 'is not a supported country' }] });
  });

  it('schema errors list every field by its door name, and GraphQL messages hold no snake_case', async () => {
    const rest = await request(app.url, 'POST', '/v1/customer/enroll', { token, body: { customerid: 'x', first_name: '', dial_code: '254' } });
    expect(rest.status).toBe(400);
    const restFields = (rest.body.details as Array<{ field: string }>).map((d) => d.field);
    expect(restFields).toEqual(expect.arrayContaining(['first_name', 'last_name', 'email', 'phone_number', 'dial_code', 'country_code']));
    for (const field of restFields) expect(rest.body.message).toContain(field);

    const gql = await graphql(app.url, 'mutation($input: EnrollCustomerInput!) { enrollCustomer(input: $input) { customerUuid } }', {
      token,
      variables: { input: { ...enrollInputFor('KE'), firstName: '', dialCode: '254', phoneNumber: 'abc' } },
    });
    const error = firstError(gql);
    expect(error.extensions?.details?.map((d) => d.field).sort()).toEqual(['dialCode', 'firstName', 'phoneNumber']);
    expect(error.message).not.toMatch(SNAKE);
  });

  it('a page size over the limit: REST names limit, GraphQL names first, both in plain words', async () => {
    const rest = await request(app.url, 'GET', '/v1/customers?limit=500', { token });
    expect(rest.status).toBe(400);
    expect(rest.body.details).toEqual([{ field: 'limit', issue: 'must be at most 100' }]);

    const gql = await graphql(app.url, '{ customers(first: 500) { edges { cursor } } }', { token });
    const error = firstError(gql);
    expect(error.message).toBe('Invalid query: first must be at most 100');
    expect(error.extensions?.details).toEqual([{ field: 'first', issue: 'must be at most 100' }]);
  });

  it('a card field deep in the body: card.exp_month over REST, card.expMonth over GraphQL', async () => {
    const rest = await request(app.url, 'POST', '/v1/payments/initiate', { token, body: cardPaymentBody({ card: { exp_month: 13 } }) });
    expect(rest.status).toBe(400);
    expect(rest.body.details).toEqual([{ field: 'card.exp_month', issue: 'must be a month from 1 to 12' }]);
    expect(rest.body.message).toBe('card.exp_month must be a month from 1 to 12');

    const gql = await graphql(app.url, 'mutation($input: InitiatePaymentInput!) { initiatePayment(input: $input) { reference } }', {
      token,
      variables: { input: cardPaymentInput({ card: { expMonth: 13 } }) },
    });
    const error = firstError(gql);
    expect(error.message).toBe('card.expMonth must be a month from 1 to 12');
    expect(error.extensions?.details).toEqual([{ field: 'card.expMonth', issue: 'must be a month from 1 to 12' }]);
  });

  it('KYC refuses a date that does not exist, as enrollment does (one date rule)', async () => {
    const rest = await request(app.url, 'POST', `/v1/customer/${customerUuid}/kyc`, { token, body: kycBody({ date_of_birth: '1990-02-31' }) });
    expect(rest.status).toBe(400);
    expect(rest.body.details).toEqual([{ field: 'date_of_birth', issue: 'is not a real date' }]);

    const enrollment = await request(app.url, 'POST', '/v1/customer/enroll', { token, body: { ...enrollBodyFor('KE'), date_of_birth: '1990-02-31' } });
    expect(enrollment.status).toBe(400);
    expect(enrollment.body.details).toEqual([{ field: 'date_of_birth', issue: 'is not a real date' }]);

    const kyc = await request(app.url, 'GET', `/v1/customer/${customerUuid}/kyc`, { token });
    expect(kyc.body.data.kyc_status).toBe('pending_kyc');
  });

  it('REST takes only REST names: a camelCase key is an unknown field, not an alias', async () => {
    const { customerid, first_name, ...rest } = enrollBodyFor('KE');
    const res = await request(app.url, 'POST', '/v1/customer/enroll', {
      token,
      body: { ...rest, customerId: customerid, customer_id: customerid, firstName: first_name },
    });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      { field: 'customerid', issue: 'is required' },
      { field: 'first_name', issue: 'is required' },
    ]);
  });

  it('a duplicate customerid names the field in each door', async () => {
    const body = enrollBodyFor('KE');
    expect((await request(app.url, 'POST', '/v1/customer/enroll', { token, body })).status).toBe(201);
    const again = await request(app.url, 'POST', '/v1/customer/enroll', { token, body });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'DUPLICATE_REQUEST', details: [{ field: 'customerid' }] });
    expect(again.body.message).toMatch(/^customerid is already enrolled/);

    const gql = await graphql(app.url, 'mutation($input: EnrollCustomerInput!) { enrollCustomer(input: $input) { customerUuid } }', {
      token,
      variables: { input: { ...enrollInputFor('KE'), customerId: body.customerid } },
    });
    const error = firstError(gql);
    expect(error.extensions).toMatchObject({ code: 'DUPLICATE_REQUEST', details: [{ field: 'customerId' }] });
    expect(error.message).toMatch(/^customerId is already enrolled/);
  });
});

const enrollBodyFor = (country: string) => enrollBody({ country_code: country });
const enrollInputFor = (country: string) => enrollInput({ country_code: country });
