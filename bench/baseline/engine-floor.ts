/**
 * The engine floor (not part of the product): bare Fastify 5 + a `pg` Pool that runs, for each
 * collection, exactly the SQL statements the product runs for a mobile money collection, built by
 * the product's own code (its `Sql` runner, `readPayer`, `TransactionStore.insert` and
 * `applyChange`, `JobRunner.jobsSql`), with nothing else: no authentication, no validation beyond
 * Fastify's JSON schema, no routing, no provider, no logging, no idempotency, no rate limit, no
 * metrics. Its figures are what the design costs in the database; the product's ratio to it is
 * what our own code costs on top.
 *
 *   POST /floor/v1/crossborder/global-collection   the product's body (momo); x-merchant-id names the merchant.
 *     1. the payer's read (`customer_payer`);
 *     2. the insert as `initiating` (with its reconciliation marker);
 *     3. the first answer (`processing`, a settlement job due in FLOOR_SETTLE_MS), in one statement.
 *   200 with the reference; 404 for an unknown customer; 409 for a reused reference.
 *
 * It runs on the product's database (migrated by the product first), as the product's merchant.
 * Environment: DATABASE_URL, PORT (0 = any), DB_POOL_MAX (default 10), ENCRYPTION_KEY (base64, 32
 * bytes: the sealed column's key; unused by a momo collection), FLOOR_SETTLE_MS (default 1 h).
 * Prints {"url":"http://…"} on stdout once it listens.
 */
import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import { Sql } from '../../src/db/sql';
import { JOB_CATALOGUE } from '../../src/job-catalogue';
import { JobRunner } from '../../src/jobs/job-runner';
import { readPayer } from '../../src/modules/customers/customer.service';
import { Outbox } from '../../src/modules/outbox/outbox';
import { BLANK, type Transaction } from '../../src/modules/transactions/transaction.record';
import { newTransactionReference } from '../../src/modules/transactions/lifecycle.service';
import { TransactionStore } from '../../src/modules/transactions/transaction.store';
import { webhookDeliverySql } from '../../src/modules/webhooks/webhook-delivery.sql';
import { systemClock } from '../../src/shared/clock';
import { SecretBox, timeOrderedUuid } from '../../src/shared/crypto';
import { AppError } from '../../src/shared/errors';
import { createLogger } from '../../src/shared/logger';
import { Decimal } from '../../src/shared/money';

interface Body {
  customer_uuid: string;
  amount: number;
  currency: string;
  channel_id: string;
  network_id: string;
  account_number: string;
  dial_code: string;
  country_code: string;
  reason: string;
  reference: string;
}

async function main() {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is required');
  const logger = createLogger('silent');
  const sql = new Sql({ url: databaseUrl, max: Number(process.env.DB_POOL_MAX ?? 10), embedded: false, logger });
  const jobs = new JobRunner({
    catalogue: JOB_CATALOGUE,
    sql,
    logger,
    settings: { concurrency: 1, pollIntervalMs: 60_000, heartbeatMs: 60_000, deadAfterMs: 240_000 },
    embedded: false,
  });
  await jobs.prepare(); // task ids only: no worker runs here
  const key = process.env.ENCRYPTION_KEY ? Buffer.from(process.env.ENCRYPTION_KEY, 'base64') : randomBytes(32);
  const store = new TransactionStore({
    sql,
    jobs,
    outbox: new Outbox({ clock: systemClock, followUps: [webhookDeliverySql(10_000)] }),
    secretBox: new SecretBox(key),
    // No reference data here: a 402's figures would be written as stored (the floor measures no 402).
    minorUnitOf: () => undefined,
  });
  const settleMs = Number(process.env.FLOOR_SETTLE_MS ?? 3_600_000);

  const app = Fastify({ logger: false, bodyLimit: 1_048_576 });
  const text = { type: 'string', minLength: 1, maxLength: 100 } as const;
  app.post<{ Body: Body; Headers: { 'x-merchant-id': string } }>(
    '/floor/v1/crossborder/global-collection',
    {
      schema: {
        headers: { type: 'object', required: ['x-merchant-id'], properties: { 'x-merchant-id': { type: 'string', format: 'uuid' } } },
        body: {
          type: 'object',
          required: ['customer_uuid', 'amount', 'currency', 'channel_id', 'network_id', 'account_number', 'dial_code', 'country_code', 'reference'],
          properties: {
            customer_uuid: { type: 'string', format: 'uuid' },
            amount: { type: 'number', exclusiveMinimum: 0, maximum: 1e12 },
            currency: { type: 'string', pattern: '^[A-Z]{3}$' },
            channel_id: text,
            network_id: text,
            account_number: { type: 'string', pattern: '^[0-9]{6,20}$' },
            dial_code: text,
            country_code: { type: 'string', pattern: '^[A-Z]{2}$' },
            reason: text,
            reference: text,
          },
        },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const merchantId = request.headers['x-merchant-id'];
      const payer = await readPayer(sql, merchantId, b.customer_uuid);
      if (!payer) return reply.code(404).send({ status: 'error', code: 'NOT_FOUND', message: 'Customer not found' });
      const now = new Date();
      const amount = new Decimal(b.amount);
      const txn: Transaction = {
        ...BLANK,
        id: timeOrderedUuid(),
        merchantId,
        kind: 'collection',
        reference: newTransactionReference('col'),
        externalReference: b.reference,
        status: 'initiating',
        connector: 'sandbox',
        customerId: b.customer_uuid,
        accountType: 'momo',
        countryCode: b.country_code,
        channelId: b.channel_id,
        networkId: b.network_id,
        accountNumber: b.account_number,
        dialCode: b.dial_code,
        reason: b.reason ?? null,
        amount,
        currency: b.currency,
        fee: amount.times('0.01'),
        createdAt: now,
        updatedAt: now,
      };
      try {
        await store.insert(txn);
      } catch (err) {
        if (err instanceof AppError) return reply.code(409).send({ status: 'error', code: err.code, message: err.message });
        throw err;
      }
      const next: Transaction = { ...txn, status: 'processing', providerReference: `flr_${randomBytes(12).toString('hex')}`, updatedAt: new Date() };
      await store.applyChange({
        next,
        from: 'initiating',
        history: { from: null, reason: 'initiated' },
        settleAfterMs: settleMs,
      });
      return reply.send({ status: 'success', data: { reference: next.reference, status: next.status, amount: b.amount, currency: b.currency } });
    },
  );

  const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
  process.stdout.write(`${JSON.stringify({ url: address })}\n`);

  const stop = async () => {
    await app.close();
    await sql.pool.end();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

main().catch((err) => {
  console.error('engine floor failed to start:', err);
  process.exit(1);
});
