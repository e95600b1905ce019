import { Client } from 'pg';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { enroll, kycBody } from '../../helpers/factories';
import { request } from '../../helpers/http';
import { assertBuilt, serviceEnv, startServiceProcess } from '../../helpers/process';
import { createTestApp, TEST_ADMIN_KEY } from '../../helpers/test-app';
import { eventually } from '../../helpers/wait';

const outboxCount = async (db: TestDatabase, customerUuid: string) => {
  const client = new Client({ connectionString: db.url });
  await client.connect();
  try {
    const { rows } = await client.query('select count(*)::int as n from outbox_event where subject_id = $1', [customerUuid]);
    return rows[0].n as number;
  } finally {
    await client.end();
  }
};

/** A pending review is durable work: it completes after the process stops or dies, exactly once. */
describe('KYC review survives a restart', () => {
  it('completes after a graceful stop mid-review, on the next start, with one outbox event', async () => {
    const db = await createTestDatabase();
    try {
      const env = { SANDBOX_KYC_DELAY_MS: '1500' };
      const first = await createTestApp({ database: db, env });
      const merchant = await first.createMerchant('Durable Merchant');
      const creds = { id: merchant.merchant.clientId, secret: merchant.clientSecret };
      const token = (await first.token(merchant)).accessToken;
      const { customer_uuid } = await enroll(first, token);
      const submitted = await request(first.url, 'POST', `/v1/customer/${customer_uuid}/kyc`, { token, body: kycBody() });
      expect(submitted.body.data.kyc_status).toBe('pending');
      await first.close(); // stops before the review is due

      const second = await createTestApp({ database: db, env });
      try {
        const token2 = (
          await request(second.url, 'POST', '/v1/oauth/token', {
            body: { grant_type: 'client_credentials', client_id: creds.id, client_secret: creds.secret },
          })
        ).body.data.access_token;
        const approved = await eventually(
          async () => (await request(second.url, 'GET', `/v1/customer/${customer_uuid}/kyc`, { token: token2 })).body.data.kyc_status === 'approved',
        );
        expect(approved).toBe(true);
        expect(await outboxCount(db, customer_uuid)).toBe(1);
      } finally {
        await second.close();
      }
    } finally {
      await db.drop();
    }
  });

  it('completes after kill -9 of the service process, with one outbox event', async () => {
    assertBuilt();
    const db = await createTestDatabase();
    const env = serviceEnv(db.url, {
      SANDBOX_KYC_DELAY_MS: '1500',
      JOB_POLL_INTERVAL_MS: '500',
    });
    let proc = await startServiceProcess(env);
    try {
      const created = await request(proc.url, 'POST', '/v1/admin/merchants', {
        body: { name: 'Kill Nine' },
        headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` },
      });
      const { client_id, client_secret } = created.body.data;
      const getToken = async (url: string) =>
        (await request(url, 'POST', '/v1/oauth/token', { body: { grant_type: 'client_credentials', client_id, client_secret } })).body.data
          .access_token as string;
      let token = await getToken(proc.url);
      const customer = await request(proc.url, 'POST', '/v1/customer/enroll', {
        token,
        body: { customerid: 'k9', first_name: 'A', last_name: 'B', email: 'a@b.co', phone_number: '712345678', dial_code: '+254', country_code: 'KE' },
      });
      const uuid = customer.body.data.customer_uuid;
      const submitted = await request(proc.url, 'POST', `/v1/customer/${uuid}/kyc`, { token, body: kycBody() });
      expect(submitted.body.data.kyc_status).toBe('pending');

      expect(await proc.stop('SIGKILL')).toBeNull();
      proc = await startServiceProcess(env);
      token = await getToken(proc.url);
      const approved = await eventually(
        async () => (await request(proc.url, 'GET', `/v1/customer/${uuid}/kyc`, { token })).body.data.kyc_status === 'approved',
      );
      expect(approved).toBe(true);
      expect(await outboxCount(db, uuid)).toBe(1);
    } finally {
      await proc.stop('SIGKILL');
      await db.drop();
    }
  });
});
