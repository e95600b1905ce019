import { dbQuery } from './webhooks';
import { eventually } from './wait';

/**
 * Durable jobs of one transaction, for tests that let the manual clock drive time.
 * graphile-worker schedules by the database's clock, which a test cannot move; the
 * service decides by its own (injected) clock. So a test advances the service's clock,
 * then makes the job due now; the job itself checks the deadline by the service's clock.
 */

const JOBS_OF = `select j.id, j.run_at from graphile_worker._private_jobs j
                   join graphile_worker._private_tasks t on t.id = j.task_id
                  where t.identifier = $1 and j.payload->>'transactionId' = $2`;

export type ExpiryTask = 'expire-collection' | 'expire-payment-action';

/** The transaction's waiting (or running) jobs of this task. */
const jobsOf = (databaseUrl: string, task: ExpiryTask, transactionId: string) =>
  dbQuery<{ id: string; run_at: Date }>(databaseUrl, JOBS_OF, [task, transactionId]);

export const transactionIdOf = async (databaseUrl: string, reference: string): Promise<string> =>
  (await dbQuery<{ id: string }>(databaseUrl, 'select id from "transaction" where reference = $1', [reference]))[0]!.id;

/**
 * Makes the transaction's jobs of this task due now, and waits until they have run
 * (none of those jobs is left: a job that runs early puts a new one in their place).
 * Returns the jobs waiting afterwards.
 */
export async function runJobsNow(databaseUrl: string, task: ExpiryTask, transactionId: string) {
  const due = await jobsOf(databaseUrl, task, transactionId);
  if (due.length === 0) throw new Error(`no ${task} job for ${transactionId}`);
  const ids = due.map((j) => j.id);
  await dbQuery(databaseUrl, 'update graphile_worker._private_jobs set run_at = now() where id = any($1::bigint[])', [ids]);
  const ran = await eventually(async () => (await jobsOf(databaseUrl, task, transactionId)).every((j) => !ids.includes(j.id)), { attempts: 200, everyMs: 50 });
  if (!ran) throw new Error(`the ${task} job for ${transactionId} did not run`);
  return jobsOf(databaseUrl, task, transactionId);
}

/**
 * Makes the transaction's settlement (its `settlement_due` row, issue 40: not a job) due now, and waits until it has
 * run: the row is gone (decided) or at its next poll.
 */
export async function runSettlementNow(databaseUrl: string, transactionId: string): Promise<void> {
  const due = await dbQuery<{ poll: number }>(databaseUrl, 'update settlement_due set due_at = now() where transaction_id = $1 returning poll', [
    transactionId,
  ]);
  if (due.length === 0) throw new Error(`no settlement due for ${transactionId}`);
  const ran = await eventually(
    async () =>
      (await dbQuery<{ poll: number }>(databaseUrl, 'select poll from settlement_due where transaction_id = $1', [transactionId])).every(
        (r) => r.poll > due[0]!.poll,
      ),
    { attempts: 200, everyMs: 50 },
  );
  if (!ran) throw new Error(`the settlement of ${transactionId} did not run`);
}
