import 'reflect-metadata';
import { loadConfig } from '../config';
import { realConnectors } from '../providers/registry';
import { exitWith } from './operator-cli';
import { systemClock } from '../shared/clock';

/**
 * npm run provider:check: a token call to each configured provider connector (no payment is
 * made, no database is needed), reported as JSON: which products are configured and whether the
 * provider accepted the credentials. Exits 1 when any did not, or when none is configured.
 */
async function check(): Promise<number> {
  const config = loadConfig();
  const connectors = realConnectors(config.connectors, { timeoutMs: config.connectors.timeoutMs, now: () => systemClock.now() });
  const report: Record<string, { ok: boolean; base_url?: string; lines?: string[]; error?: string }> = {};
  for (const { connector, baseUrl } of connectors) {
    try {
      report[connector.name] = { ok: true, base_url: baseUrl, lines: await connector.checkCredentials() };
    } catch (err) {
      report[connector.name] = { ok: false, base_url: baseUrl, error: err instanceof Error ? err.message : String(err) };
    }
  }
  const ok = connectors.length > 0 && Object.values(report).every((r) => r.ok);
  process.stdout.write(
    `${JSON.stringify({ ok, connectors: report, ...(connectors.length === 0 ? { note: 'no provider connector is configured (docs/providers.md)' } : {}) }, null, 2)}\n`,
  );
  return ok ? 0 : 1;
}

exitWith('provider:check', check());
