import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** The server tests create their databases on. CI and the README use the local PostgreSQL. */
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A brand-new, empty database on the real server; migrations are run by the app under test. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `pg_test_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      // KEEP_TEST_DATABASES=1 keeps them, to inspect afterwards (npm run ledger:verify with DATABASE_URL on one).
      if (process.env.KEEP_TEST_DATABASES === '1') return;
      const client = new Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
