import { createPaymentsClient, type PaymentsClient } from '../src';

/**
 * What every example runs with when run directly (`npm run build`, then `node dist/sdk/examples/<name>.js`):
 * PAYMENTS_BASE_URL (default http://127.0.0.1:4000), PAYMENTS_CLIENT_ID and PAYMENTS_CLIENT_SECRET
 * (`npm run demo:credentials` prints the sandbox's), and what the example names (CUSTOMER_UUID…).
 */
export const baseUrl = process.env.PAYMENTS_BASE_URL ?? 'http://127.0.0.1:4000';

export function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`set ${name}`);
  return value;
}

export const clientFromEnv = (): PaymentsClient =>
  createPaymentsClient({ baseUrl, clientId: env('PAYMENTS_CLIENT_ID'), clientSecret: env('PAYMENTS_CLIENT_SECRET') });

/** Runs `main` when the example's file is the program (not when a test imports it), and prints its result. */
export function runIfMain(module: NodeModule, main: () => Promise<unknown>): void {
  if (require.main !== module) return;
  Promise.resolve()
    .then(main)
    .then(
      (result) => console.log(JSON.stringify(result, null, 2)),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
}
