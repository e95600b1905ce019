import { awaitKycDecision, enroll, enrollBody, kycBody, twoMerchants } from '../../helpers/factories';
import { request } from '../../helpers/http';
import { TEST_ADMIN_KEY, createTestApp, type TestApp } from '../../helpers/test-app';

describe('REST customers and KYC', () => {
  let app: TestApp;
  let token: string;
  let otherToken: string;

  beforeAll(async () => {
    app = await createTestApp();
    const { mine, theirs } = await twoMerchants(app, 'Customers Merchant');
    [token, otherToken] = [mine.token, theirs.token];
  });
  afterAll(() => app.close());

  const count = async (sql: string, params: unknown[] = []) => Number((await app.service.orm.em.fork().execute(sql, params))[0].n);

  describe('enroll', () => {
    it('creates a customer: 201 with the record and pending_kyc', async () => {
      const body = enrollBody();
      const res = await request(app.url, 'POST', '/v1/customer/enroll', { token, body });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        status: 'success',
        message: expect.any(String),
        data: {
          customer_uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
          customerid: body.customerid,
          first_name: 'Amina',
          last_name: 'Otieno',
          email: 'amina@example.com',
          phone_number: '712345678',
          dial_code: '+254',
          country_code: 'KE',
          date_of_birth: '1990-04-12',
          kyc_status: 'pending_kyc',
          overall_kyc_status: 'pending_kyc',
          created_at: app.clock.now().toISOString(),
          updated_at: app.clock.now().toISOString(),
        },
      });
    });

    it.each([
      ['customerid', { customerid: undefined }],
      ['first_name', { first_name: '' }],
      ['last_name', { last_name: '   ' }],
      ['email', { email: 'not-an-email' }],
      ['phone_number', { phone_number: '+256712345678' }],
      ['dial_code', { dial_code: '254' }],
      ['dial_code', { dial_code: '+233' }],
      ['country_code', { country_code: 'ke' }],
      ['country_code', { country_code: 'FR' }],
      ['date_of_birth', { date_of_birth: '1990-02-30' }],
      ['date_of_birth', { date_of_birth: '12/04/1990' }],
      ['date_of_birth', { date_of_birth: '2999-01-01' }],
    ])('rejects a bad %s with 400 INVALID_REQUEST and creates nothing', async (field, change) => {
      const before = await count('select count(*) as n from customer');
      const res = await request(app.url, 'POST', '/v1/customer/enroll', { token, body: enrollBody(change) });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_REQUEST');
      expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
      expect(await count('select count(*) as n from customer')).toBe(before);
    });

    it('answers a repeated customerid with 409 DUPLICATE_REQUEST naming the existing customer', async () => {
      const first = await enroll(app, token);
      const again = await request(app.url, 'POST', '/v1/customer/enroll', { token, body: enrollBody({ customerid: first.customerid }) });
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('DUPLICATE_REQUEST');
      expect(again.body.details[0].field).toBe('customerid');
      expect(again.body.details[0].issue).toContain(first.customer_uuid);
      // Uniqueness is per merchant: another merchant may use the same id.
      const elsewhere = await request(app.url, 'POST', '/v1/customer/enroll', {
        token: otherToken,
        body: enrollBody({ customerid: first.customerid }),
      });
      expect(elsewhere.status).toBe(201);
    });

    it('lets exactly one of 10 concurrent enrollments with one customerid win', async () => {
      const body = enrollBody();
      const results = await Promise.all(Array.from({ length: 10 }, () => request(app.url, 'POST', '/v1/customer/enroll', { token, body })));
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      expect(results.filter((r) => r.status === 409 && r.body.code === 'DUPLICATE_REQUEST')).toHaveLength(9);
      expect(await count('select count(*) as n from customer where customerid = ?', [body.customerid])).toBe(1);
    });
  });

  describe('get and list', () => {
    it('gets a customer; another merchant gets NOT_FOUND exactly as for a random uuid', async () => {
      const { customer_uuid } = await enroll(app, token);
      const mine = await request(app.url, 'GET', `/v1/customer/${customer_uuid}`, { token });
      expect(mine.status).toBe(200);
      expect(mine.body.data.customer_uuid).toBe(customer_uuid);

      const theirs = await request(app.url, 'GET', `/v1/customer/${customer_uuid}`, { token: otherToken });
      const random = await request(app.url, 'GET', '/v1/customer/3f1c2d4e-0000-4000-8000-000000000000', { token: otherToken });
      expect(theirs.status).toBe(404);
      expect(theirs.body).toEqual(random.body);
      expect(theirs.body).toEqual({ status: 'error', code: 'NOT_FOUND', message: 'Customer not found' });
      expect((await request(app.url, 'GET', '/v1/customer/not-a-uuid', { token })).status).toBe(404);
    });

    it('lists newest first, page by page, only the merchant’s own', async () => {
      const lister = await app.createMerchant('Lister');
      const listerToken = (await app.token(lister)).accessToken;
      const created: string[] = [];
      for (let i = 0; i < 5; i++) {
        created.push((await enroll(app, listerToken)).customer_uuid);
        app.clock.advance(1000);
      }
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: string = `/v1/customers?limit=2${cursor ? `&after=${cursor}` : ''}`;
        const page = await request(app.url, 'GET', query, { token: listerToken });
        expect(page.status).toBe(200);
        expect(page.body.data.length).toBeLessThanOrEqual(2);
        seen.push(...page.body.data.map((c: any) => c.customer_uuid));
        cursor = page.body.meta.next_cursor;
        expect(page.body.meta.has_more).toBe(cursor !== null);
        pages += 1;
      } while (cursor && pages < 10);
      expect(pages).toBe(3);
      expect(seen).toEqual([...created].reverse());
    });

    it.each([
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=abc', 'limit'],
      ['after=garbage', 'after'],
    ])('rejects %s with 400', async (query, field) => {
      const res = await request(app.url, 'GET', `/v1/customers?${query}`, { token });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_REQUEST');
      expect(res.body.details[0].field).toBe(field);
    });
  });

  describe('KYC', () => {
    it('is pending_kyc before any submission', async () => {
      const { customer_uuid } = await enroll(app, token);
      const res = await request(app.url, 'GET', `/v1/customer/${customer_uuid}/kyc`, { token });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        customer_uuid,
        kyc_status: 'pending_kyc',
        overall_kyc_status: 'pending_kyc',
        submitted_at: null,
        reviewed_at: null,
        rejection_reason: null,
      });
    });

    it('is approved automatically after the review; a second submission is INVALID_STATE', async () => {
      const { customer_uuid } = await enroll(app, token);
      const submitted = await request(app.url, 'POST', `/v1/customer/${customer_uuid}/kyc`, { token, body: kycBody() });
      expect(submitted.status).toBe(200);
      expect(submitted.body.data).toMatchObject({ customer_uuid, kyc_status: 'pending', overall_kyc_status: 'pending', reviewed_at: null });

      const whilePending = await request(app.url, 'POST', `/v1/customer/${customer_uuid}/kyc`, { token, body: kycBody() });
      expect(whilePending.status).toBe(409);
      expect(whilePending.body.code).toBe('INVALID_STATE');

      const decided = await awaitKycDecision(app, token, customer_uuid);
      expect(decided).toMatchObject({ kyc_status: 'approved', overall_kyc_status: 'approved', rejection_reason: null });
      expect(decided.reviewed_at).toEqual(expect.any(String));
      const customer = await request(app.url, 'GET', `/v1/customer/${customer_uuid}`, { token });
      expect(customer.body.data.overall_kyc_status).toBe('approved');

      const again = await request(app.url, 'POST', `/v1/customer/${customer_uuid}/kyc`, { token, body: kycBody() });
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('INVALID_STATE');

      const events = await app.service.orm.em
        .fork()
        .execute('select type, payload from outbox_event where subject_id = ? order by created_at', [customer_uuid]);
      expect(events).toHaveLength(1);
      expect(events[0].type).toBe('customer.kyc.approved');
      expect(events[0].payload).toEqual(decided);
    });

    it('rejects an id_number starting with REJECT; resubmission goes back to pending and can be approved', async () => {
      const { customer_uuid } = await enroll(app, token);
      await request(app.url, 'POST', `/v1/customer/${customer_uuid}/kyc`, { token, body: kycBody({ id_number: 'REJECT-0001' }) });
      const rejected = await awaitKycDecision(app, token, customer_uuid);
      expect(rejected).toMatchObject({ kyc_status: 'rejected', overall_kyc_status: 'rejected', rejection_reason: 'identity_document_rejected' });

      const resubmitted = await request(app.url, 'POST', `/v1/customer/${customer_uuid}/kyc`, { token, body: kycBody() });
      expect(resubmitted.status).toBe(200);
      expect(resubmitted.body.data.kyc_status).toBe('pending');
      const approved = await awaitKycDecision(app, token, customer_uuid);
      expect(approved.kyc_status).toBe('approved');

      const types = (await app.service.orm.em.fork().execute('select type from outbox_event where subject_id = ? order by created_at', [customer_uuid])).map(
        (r: any) => r.type,
      );
      expect(types).toEqual(['customer.kyc.rejected', 'customer.kyc.approved']);
    });

    it.each([
      ['id_type', { id_type: 'library_card' }],
      ['id_number', { id_number: '' }],
      ['id_country', { id_country: 'Kenya' }],
      ['date_of_birth', { date_of_birth: 'yesterday' }],
      ['address', { address: undefined }],
      ['address.city', { address: { line1: 'x', country_code: 'KE' } }],
    ])('rejects a bad %s with 400 and leaves the status unchanged', async (field, change) => {
      const { customer_uuid } = await enroll(app, token);
      const res = await request(app.url, 'POST', `/v1/customer/${customer_uuid}/kyc`, { token, body: kycBody(change) });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_REQUEST');
      expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
      const status = await request(app.url, 'GET', `/v1/customer/${customer_uuid}/kyc`, { token });
      expect(status.body.data.kyc_status).toBe('pending_kyc');
    });

    it('is NOT_FOUND for another merchant’s customer, for submit and poll alike', async () => {
      const { customer_uuid } = await enroll(app, token);
      const submit = await request(app.url, 'POST', `/v1/customer/${customer_uuid}/kyc`, { token: otherToken, body: kycBody() });
      expect(submit.status).toBe(404);
      expect(submit.body.code).toBe('NOT_FOUND');
      const poll = await request(app.url, 'GET', `/v1/customer/${customer_uuid}/kyc`, { token: otherToken });
      expect(poll.status).toBe(404);
      const status = await request(app.url, 'GET', `/v1/customer/${customer_uuid}/kyc`, { token });
      expect(status.body.data.kyc_status).toBe('pending_kyc');
    });

    it('never stores the identity number in clear', async () => {
      const { customer_uuid } = await enroll(app, token);
      await request(app.url, 'POST', `/v1/customer/${customer_uuid}/kyc`, { token, body: kycBody({ id_number: 'SECRETID98765' }) });
      const rows = await app.service.orm.em.fork().execute('select * from kyc_submission where customer_id = ?', [customer_uuid]);
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain('SECRETID98765');
      expect(rows[0].id_number_last4).toBe('8765');
    });

    describe('local identity documents', () => {
      const nigerian = (overrides: Record<string, unknown> = {}) =>
        kycBody({
          id_type: 'bvn',
          id_number: '22212345678',
          id_country: 'NG',
          address: { line1: '3 Marina', city: 'Lagos', country_code: 'NG' },
          ...overrides,
        });
      const submissionsOf = (customerUuid: string) =>
        app.service.orm.em.fork().execute('select id, id_type, id_country, id_number_last4 from kyc_submission where customer_id = ?', [customerUuid]);

      it('takes a BVN with id_country NG: pending, stored sealed like any identity number, and approved by the review', async () => {
        const { customer_uuid } = await enroll(app, token);
        const res = await request(app.url, 'POST', `/v1/customer/${customer_uuid}/kyc`, { token, body: nigerian() });
        expect(res.status).toBe(200);
        expect(res.body.data).toMatchObject({ customer_uuid, kyc_status: 'pending' });
        const rows = await submissionsOf(customer_uuid);
        expect(rows).toEqual([{ id: expect.any(String), id_type: 'bvn', id_country: 'NG', id_number_last4: '5678' }]);
        const stored = await app.service.orm.em.fork().execute('select * from kyc_submission where customer_id = ?', [customer_uuid]);
        expect(JSON.stringify(stored)).not.toContain('22212345678');
        expect((await awaitKycDecision(app, token, customer_uuid)).kyc_status).toBe('approved');
      });

      it('keeps a Ghana Card number in its printed form, whatever the case and separators sent', async () => {
        const { customer_uuid } = await enroll(app, token);
        const body = kycBody({ id_type: 'ghana_card', id_number: 'gha 123456789 0', id_country: 'GH' });
        expect((await request(app.url, 'POST', `/v1/customer/${customer_uuid}/kyc`, { token, body })).status).toBe(200);
        const [row] = await submissionsOf(customer_uuid);
        const opened = await request(app.url, 'GET', `/v1/admin/kyc/${row.id}`, { headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` } });
        expect(opened.body.data).toMatchObject({ id_type: 'ghana_card', id_number: 'GHA-123456789-0', id_number_last4: '89-0' });
      });

      it.each([
        ['a BVN of 10 digits', { id_number: '2221234567' }, [{ field: 'id_number', issue: 'must be 11 digits' }]],
        ['a BVN for Ghana', { id_country: 'GH' }, [{ field: 'id_country', issue: 'must be NG for bvn' }]],
        [
          'a South African ID failing its Luhn check',
          { id_type: 'sa_id', id_number: '8001015009088', id_country: 'ZA' },
          [{ field: 'id_number', issue: 'has a wrong check digit: the last digit must make the 13 digits pass the Luhn check' }],
        ],
      ])('refuses %s with the error envelope naming the field, and stores nothing', async (_what, change, details) => {
        const { customer_uuid } = await enroll(app, token);
        const res = await request(app.url, 'POST', `/v1/customer/${customer_uuid}/kyc`, { token, body: nigerian(change) });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          status: 'error',
          code: 'INVALID_REQUEST',
          message: `Invalid request: ${details[0]!.field} ${details[0]!.issue}`,
          details,
        });
        expect(await submissionsOf(customer_uuid)).toEqual([]);
        const status = await request(app.url, 'GET', `/v1/customer/${customer_uuid}/kyc`, { token });
        expect(status.body.data.kyc_status).toBe('pending_kyc');
      });
    });
  });
});
