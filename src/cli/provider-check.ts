import 'reflect-metadata';
import { loadConfig } from '../config';
import { checkCredentials } from '../providers/registry';
import { exitWith } from './operator-cli';
import { systemClock } from '../shared/clock';

/**
 * npm run provider:check: a token call to each configured provider connector (no payment is
 * made, no database is needed), reported as JSON: which products are configured and whether the
 * provider accepted the credentials. Exits 1 when any did not, or when none is configured.
 * `npm run preflight` makes the same calls among its checks.
 */
async function check(): Promise<number> {
  const config = loadConfig();
  const checks = await checkCredentials(config.connectors, { timeoutMs: config.connectors.timeoutMs, now: () => systemClock.now() });
  const report = Object.fromEntries(checks.map(({ name, baseUrl, ok, lines, error }) => [name, { ok, base_url: baseUrl, lines, error }]));
  const ok = checks.length > 0 && checks.every((c) => c.ok);
  process.stdout.write(
    `${JSON.stringify({ ok, connectors: report, ...(checks.length === 0 ? { note: 'no provider connector is configured (docs/providers.md)' } : {}) }, null, 2)}\n`,
  );
  return ok ? 0 : 1;
}

exitWith('provider:check', check());
