import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestDatabase } from '../../helpers/database';
import { kycBody } from '../../helpers/factories';
import { request } from '../../helpers/http';
import { assertBuilt, serviceEnv, startServiceProcess } from '../../helpers/process';
import { TEST_ADMIN_KEY } from '../../helpers/test-app';
import { eventually } from '../../helpers/wait';
import { dbQuery, setEndpoint } from '../../helpers/webhooks';
import { connectTo } from '../../helpers/ws';

/** A receiver that holds every delivery open until the test lets it answer. */
async function holdingReceiver() {
  const held: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => held.push(res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    held,
    answerAll: () => held.splice(0).forEach((res) => res.writeHead(200).end('ok')),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('graceful shutdown on SIGTERM', () => {
  it('closes sockets with 1001, lets the webhook attempt in flight finish (delivered once, not retried), releases every job claim, exits 0', async () => {
    assertBuilt();
    const db = await createTestDatabase();
    const receiver = await holdingReceiver();
    const proc = await startServiceProcess(serviceEnv(db.url, { WEBHOOK_TIMEOUT_MS: '10000', SHUTDOWN_TIMEOUT_MS: '20000', LOG_LEVEL: 'info' }));
    try {
      const admin = { authorization: `Bearer ${TEST_ADMIN_KEY}` };
      const created = await request(proc.url, 'POST', '/v1/admin/merchants', { headers: admin, body: { name: 'Draining' } });
      const { client_id, client_secret } = created.body.data;
      const token = (await request(proc.url, 'POST', '/v1/oauth/token', { body: { grant_type: 'client_credentials', client_id, client_secret } })).body.data
        .access_token;
      await setEndpoint(proc.url, token, receiver.url);

      // An open socket, proven live by an operation.
      let closeCode: number | undefined;
      const client = connectTo(proc.url, token, (code) => (closeCode = code));
      const answered: unknown[] = [];
      client.subscribe({ query: '{ merchant { id } }' }, { next: (v) => answered.push(v), error: () => undefined, complete: () => undefined });
      expect(await eventually(async () => answered.length > 0)).toBe(true);

      // A webhook attempt in flight: a KYC decision's event, held open by the receiver.
      const enrolled = await request(proc.url, 'POST', '/v1/customer/enroll', {
        token,
        body: { customerid: 'drain-1', first_name: 'A', last_name: 'B', email: 'a@b.co', phone_number: '712345678', dial_code: '+254', country_code: 'KE' },
      });
      expect((await request(proc.url, 'POST', `/v1/customer/${enrolled.body.data.customer_uuid}/kyc`, { token, body: kycBody() })).status).toBe(200);
      expect(await eventually(async () => receiver.held.length === 1, { attempts: 200, everyMs: 50 })).toBe(true);

      const exited = new Promise<number | null>((resolve) => proc.child.once('exit', (code) => resolve(code)));
      proc.child.kill('SIGTERM');
      // The doors close first: the socket goes away with 1001 while the attempt is still held.
      expect(await eventually(async () => closeCode !== undefined, { attempts: 200, everyMs: 25 })).toBe(true);
      expect(closeCode).toBe(1001);
      expect(receiver.held).toHaveLength(1);
      expect(proc.child.exitCode).toBeNull();

      // Only now does the receiver answer: the service was still waiting for it.
      receiver.answerAll();
      expect(await exited).toBe(0);
      await client.dispose();

      const deliveries = await dbQuery<{ status: string; attempts: number }>(db.url, 'select status, attempt_count as attempts from webhook_delivery');
      expect(deliveries).toEqual([{ status: 'delivered', attempts: 1 }]);
      const claimed = await dbQuery<{ n: number }>(db.url, 'select count(*)::int as n from graphile_worker._private_jobs where locked_by is not null');
      expect(claimed).toEqual([{ n: 0 }]);
      expect(proc.stdout()).toContain('shutting down');
    } finally {
      await proc.stop('SIGKILL');
      await receiver.close();
      await db.drop();
    }
  });
});
