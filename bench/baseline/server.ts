/**
 * The baseline (not part of the product): bare Fastify 5 + a `pg` Pool. It does
 * the least a collection endpoint must do, so the product's figures have a floor
 * to be compared with, measured on the same machine in the same run:
 *
 *   POST /baseline/collections             validate a small JSON body (Fastify JSON schema),
 *                                          ONE INSERT; 201, or 409 on a duplicate (merchant_id, reference)
 *   GET  /baseline/collections/:reference  ONE SELECT by (merchant_id, reference); 200 or 404
 *
 * The merchant is named by an `x-merchant-id` header (no authentication). Logging is off.
 * Environment: DATABASE_URL, PORT (0 = any), DB_POOL_MAX (default 10).
 * Prints {"url":"http://…"} on stdout once it listens.
 */
import Fastify from 'fastify';
import { Pool } from 'pg';

const TABLE = 'bench_baseline_collection';

async function main() {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is required');
  const pool = new Pool({ connectionString: databaseUrl, max: Number(process.env.DB_POOL_MAX ?? 10) });
  await pool.query(`create table if not exists ${TABLE} (
    id bigserial primary key,
    merchant_id uuid not null,
    reference text not null,
    customer_uuid uuid not null,
    amount numeric(20, 2) not null,
    currency char(3) not null,
    account_number text not null,
    status text not null default 'processing',
    created_at timestamptz not null default now(),
    unique (merchant_id, reference)
  )`);

  const app = Fastify({ logger: false, bodyLimit: 1_048_576 });
  const merchantHeader = {
    type: 'object',
    required: ['x-merchant-id'],
    properties: { 'x-merchant-id': { type: 'string', format: 'uuid' } },
  } as const;

  app.post<{
    Body: { customer_uuid: string; amount: number; currency: string; account_number: string; reference: string };
    Headers: { 'x-merchant-id': string };
  }>(
    '/baseline/collections',
    {
      schema: {
        headers: merchantHeader,
        body: {
          type: 'object',
          required: ['customer_uuid', 'amount', 'currency', 'account_number', 'reference'],
          properties: {
            customer_uuid: { type: 'string', format: 'uuid' },
            amount: { type: 'number', exclusiveMinimum: 0, maximum: 1e12 },
            currency: { type: 'string', pattern: '^[A-Z]{3}$' },
            account_number: { type: 'string', pattern: '^[0-9]{6,20}$' },
            reference: { type: 'string', minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' },
          },
        },
      },
    },
    async (request, reply) => {
      const b = request.body;
      try {
        const { rows } = await pool.query<{ created_at: Date }>(
          `insert into ${TABLE} (merchant_id, reference, customer_uuid, amount, currency, account_number)
           values ($1, $2, $3, $4, $5, $6) returning created_at`,
          [request.headers['x-merchant-id'], b.reference, b.customer_uuid, b.amount, b.currency, b.account_number],
        );
        return reply.code(201).send({
          status: 'success',
          data: { reference: b.reference, status: 'processing', amount: b.amount, currency: b.currency, created_at: rows[0]!.created_at },
        });
      } catch (err) {
        if ((err as { code?: string }).code === '23505') {
          return reply.code(409).send({ status: 'error', code: 'DUPLICATE_REQUEST', message: 'reference already used' });
        }
        throw err;
      }
    },
  );

  app.get<{ Params: { reference: string }; Headers: { 'x-merchant-id': string } }>(
    '/baseline/collections/:reference',
    { schema: { headers: merchantHeader } },
    async (request, reply) => {
      const { rows } = await pool.query(
        `select reference, customer_uuid, amount, currency, account_number, status, created_at
           from ${TABLE} where merchant_id = $1 and reference = $2`,
        [request.headers['x-merchant-id'], request.params.reference],
      );
      if (rows.length === 0) return reply.code(404).send({ status: 'error', code: 'NOT_FOUND', message: 'not found' });
      return reply.send({ status: 'success', data: rows[0] });
    },
  );

  const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
  process.stdout.write(`${JSON.stringify({ url: address })}\n`);

  const stop = async () => {
    await app.close();
    await pool.end();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

main().catch((err) => {
  console.error('baseline failed to start:', err);
  process.exit(1);
});
