/**
 * What every harness (the benchmark, the soak) does around its work: remember the databases it
 * creates and drop them at its end, and on an interruption (Ctrl-C, SIGTERM, its own watchdog)
 * stop every child and drop them too, so nothing is left behind.
 */
import { killAllNow } from './children';
import { dropDatabase } from './product';
import { sleep } from './stats';

type Log = (msg: string) => void;

/** Databases this process created: dropped by dropCreatedDatabases. */
const createdDatabases: string[] = [];

export function rememberDatabase(name: string): void {
  createdDatabases.push(name);
}

/** Drops every database this process created (once each), saying so. */
export async function dropCreatedDatabases(log: Log): Promise<void> {
  for (const name of createdDatabases.splice(0)) {
    try {
      await dropDatabase(name);
      log(`database ${name} dropped`);
    } catch (err) {
      log(`could not drop database ${name}: ${(err as Error).message}`);
    }
  }
}

/** Interrupted or over budget: kill every child, drop the databases, exit. */
export async function emergencyStop(log: Log, why: string, code: number): Promise<never> {
  log(`${why}: stopping every child process and dropping the databases this run created`);
  killAllNow();
  await sleep(500);
  await dropCreatedDatabases(log);
  process.exit(code);
}

/** Runs the harness's main with the interruption handling above; exits with its code, or `failureCode` if it throws. */
export function runHarness(main: () => Promise<number>, log: Log, failureCode: number): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void emergencyStop(log, signal, 130));
  process.on('exit', () => killAllNow());
  main().then(
    (code) => process.exit(code),
    (err) => {
      log(`FAILED: ${(err as Error).stack ?? String(err)}`);
      killAllNow();
      process.exit(failureCode);
    },
  );
}
