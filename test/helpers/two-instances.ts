import { ManualClock } from '../../src/shared/clock';
import { createTestDatabase, environmentOf, type TestDatabase } from './database';
import { createTestApp, type TestApp } from './test-app';

export interface TwoInstances {
  db: TestDatabase;
  a: TestApp;
  b: TestApp;
  /** Closes B, then A, then drops the database. */
  close(): Promise<void>;
}

/**
 * Two instances of the service on one fresh, migrated database, as a deployment with two replicas
 * runs: the same configuration (`env`) and one clock. Started one after the other; if the second
 * fails to start, the first is closed and the database dropped before the error is thrown.
 */
export async function startTwoInstances(env: Record<string, string> = {}): Promise<TwoInstances> {
  const db = await createTestDatabase({ migrated: environmentOf(env) });
  const clock = new ManualClock(new Date('2026-11-22T12:00:00Z'));
  let a: TestApp | undefined;
  try {
    a = await createTestApp({ database: db, clock, env });
    const b = await createTestApp({ database: db, clock, env });
    const started = a;
    return {
      db,
      a: started,
      b,
      async close() {
        await b.close();
        await started.close();
        await db.drop();
      },
    };
  } catch (error) {
    await a?.close();
    await db.drop();
    throw error;
  }
}
