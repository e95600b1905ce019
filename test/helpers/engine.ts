import { spawn } from 'node:child_process';
import path from 'node:path';
import { enrollBody, kycBody } from './factories';
import { graphql, request } from './http';
import { serviceEnv, type ServiceProcess } from './process';
import { TEST_ADMIN_KEY } from './test-app';
import { eventually } from './wait';
import { dbQuery } from './webhooks';

/**
 * Helpers for the engine suites (test/e2e/engine), which drive built service
 * processes (and in-process apps) only through their doors and read PostgreSQL
 * directly with `pg`.
 */

export interface AdminMerchant {
  merchantId: string;
  clientId: string;
  clientSecret: string;
  webhookSecret: string;
}

/** A merchant made through the admin API (`POST /v1/admin/merchants`) of any running service. */
export async function adminMerchant(baseUrl: string, name: string): Promise<AdminMerchant> {
  const res = await request(baseUrl, 'POST', '/v1/admin/merchants', { body: { name }, headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` } });
  if (res.status !== 201) throw new Error(`admin merchant creation failed: ${res.status} ${res.text}`);
  const d = res.body.data;
  return { merchantId: d.merchant_id, clientId: d.client_id, clientSecret: d.client_secret, webhookSecret: d.webhook_secret };
}

/** An access token (client credentials grant) from any instance. */
export async function clientToken(baseUrl: string, merchant: AdminMerchant): Promise<string> {
  const res = await request(baseUrl, 'POST', '/v1/oauth/token', {
    body: { grant_type: 'client_credentials', client_id: merchant.clientId, client_secret: merchant.clientSecret },
  });
  if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${res.text}`);
  return res.body.data.access_token as string;
}

/**
 * `approvedCustomer` (helpers/factories) for a service known only by its URL (a
 * child process): enroll, submit KYC, wait for the sandbox reviewer to approve.
 */
export async function approvedCustomerAt(baseUrl: string, token: string, overrides: Record<string, unknown> = {}): Promise<string> {
  const enrolled = await request(baseUrl, 'POST', '/v1/customer/enroll', { token, body: enrollBody(overrides) });
  if (enrolled.status !== 201) throw new Error(`enroll failed: ${enrolled.status} ${enrolled.text}`);
  const uuid = enrolled.body.data.customer_uuid as string;
  const submitted = await request(baseUrl, 'POST', `/v1/customer/${uuid}/kyc`, { token, body: kycBody() });
  if (submitted.status !== 200) throw new Error(`kyc submit failed: ${submitted.status} ${submitted.text}`);
  let status: string | undefined;
  const approved = await eventually(
    async () => {
      status = (await request(baseUrl, 'GET', `/v1/customer/${uuid}/kyc`, { token })).body?.data?.kyc_status;
      return status === 'approved';
    },
    { attempts: 200, everyMs: 100 },
  );
  if (!approved) throw new Error(`KYC of ${uuid} was not approved in time (last status ${status})`);
  return uuid;
}

/** Whether the child process has ended (by exit code or by a signal). */
export const hasExited = (proc: ServiceProcess) => proc.child.exitCode !== null || proc.child.signalCode !== null;

/**
 * Stops a service process if it is still running; resolves at once if it already
 * ended. (`ServiceProcess.stop` waits for an 'exit' event, which never comes again
 * for a process that already died of a signal.)
 */
export async function stopIfRunning(proc: ServiceProcess | undefined, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (!proc || hasExited(proc)) return;
  await proc.stop(signal);
}

/** The outcome of one request that may be cut off: an HTTP status, or the connection error's code. */
export type Attempt = { status: number; body: any; text: string } | { error: string };

/** A request whose connection may be cut off (the server dying): never throws, says what happened. */
export async function attempt(
  baseUrl: string,
  method: string,
  path: string,
  opts: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<Attempt> {
  try {
    const res = await request(baseUrl, method, path, opts);
    return { status: res.status, body: res.body, text: res.text };
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return { error: cause?.code ?? cause?.message ?? (err as Error).message };
  }
}

/** One transaction row by the merchant's reference, straight from PostgreSQL. */
export async function transactionRowsByExternal(databaseUrl: string, merchantId: string, externalReference: string) {
  return dbQuery<{
    id: string;
    reference: string;
    kind: string;
    status: string;
    provider_reference: string | null;
    virtual_account_number: string | null;
    bank_info: Record<string, string> | null;
    failure_reason: string | null;
  }>(
    databaseUrl,
    `select id, reference, kind, status, provider_reference, virtual_account_number, bank_info, failure_reason
       from "transaction" where merchant_id = $1 and external_reference = $2`,
    [merchantId, externalReference],
  );
}

/** A transaction's history (the view transaction_history), oldest first. */
export async function historyOf(databaseUrl: string, transactionId: string) {
  return dbQuery<{ from_status: string | null; to_status: string; reason: string | null }>(
    databaseUrl,
    'select from_status, to_status, reason from transaction_history where transaction_id = $1 order by seq',
    [transactionId],
  );
}

/** The outbox events about one transaction (subject = the service's reference). */
export async function outboxOf(databaseUrl: string, serviceReference: string) {
  return dbQuery<{ id: string; type: string; payload: any }>(
    databaseUrl,
    'select id, type, payload from outbox_event where subject_id = $1 order by created_at, id',
    [serviceReference],
  );
}

export const INITIATE_COLLECTION = `mutation($input: InitiateCollectionInput!) { initiateCollection(input: $input) { reference externalReference status } }`;
export const INITIATE_TRANSFER = `mutation($input: InitiateTransferInput!) { initiateTransfer(input: $input) { reference externalReference status } }`;

export const initiateCollectionGql = (baseUrl: string, token: string, input: Record<string, unknown>) =>
  graphql(baseUrl, INITIATE_COLLECTION, { token, variables: { input } });

/** Runs one of the built operator CLIs (dist/src/cli/<name>.js) against a database: its exit code and its JSON output. */
export async function runCli<T = any>(
  databaseUrl: string,
  name: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<{ exitCode: number | null; output: T; stderr: string }> {
  const child = spawn(process.execPath, [path.resolve(__dirname, `../../dist/src/cli/${name}.js`), ...args], {
    env: serviceEnv(databaseUrl, { LOG_LEVEL: 'error', ...env }),
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exitCode = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { exitCode, output: (stdout.trim() ? JSON.parse(stdout) : null) as T, stderr };
}

/**
 * `npm run ledger:verify` against a database, as an operator runs it after an incident (the built
 * CLI; the service may be running or not): its report, and whether it exited 0.
 */
export async function ledgerVerify(databaseUrl: string): Promise<{ exitCode: number | null; ok: boolean; problems: string[]; entries: number }> {
  const { exitCode, output, stderr } = await runCli<{ ok: boolean; problems: string[]; entries: number }>(databaseUrl, 'ledger-verify');
  if (!output) throw new Error(`ledger:verify printed nothing (exit ${exitCode}): ${stderr}`);
  return { exitCode, ...output };
}
