import type { Connector } from './connector';
import { flutterwave } from './flutterwave';
import { mpesa } from './mpesa';
import { mtnMomo } from './mtn-momo';
import type { ConnectorDependencies, ProviderEnv } from './provider';
import type { PaymentsEnv } from '../config';
import type { ReportProblem } from '../shared/config-problems';

/**
 * Every real provider, one line each (its folder holds the rest: docs/providers.md, "Adding a connector").
 * config.ts composes their variables and settings in this order; the sandbox is not here (sandbox/index.ts).
 */
export const PROVIDERS = [mtnMomo, flutterwave, mpesa] as const;

type Provider = (typeof PROVIDERS)[number];

/** Each provider's settings under its key (null: not configured). */
export type ProviderSettings = { [P in Provider as P['key']]: ReturnType<P['configure']> };

/** Every provider's variables, for config.ts's schema. */
export const PROVIDER_VARIABLES = Object.assign({}, ...PROVIDERS.map((p) => p.env.shape)) as Record<string, Provider['env']['shape'][string]>;

/** Each provider's settings from the parsed variables, in the registry's order; every problem of each is reported (its settings then null). */
export function configureProviders(e: ProviderEnv, env: PaymentsEnv, report: ReportProblem): ProviderSettings {
  return Object.fromEntries(PROVIDERS.map((p) => [p.key, p.configure(e, env, report)])) as ProviderSettings;
}

/** The names of the real providers configured (their connectors' names). */
export function configuredProviders(settings: ProviderSettings): string[] {
  return PROVIDERS.filter((p) => settings[p.key] !== null).map((p) => p.name);
}

/** Whether any real provider is configured. */
export function anyProviderConfigured(settings: ProviderSettings): boolean {
  return configuredProviders(settings).length > 0;
}

/** A configured provider's connector, with its settings (the base URL provider:check reports). */
export interface ConfiguredConnector {
  connector: Connector;
  baseUrl: string;
}

/** Every real provider's connector whose variables are set (config.ts refuses a half-configured one). */
export function realConnectors(settings: ProviderSettings, deps: ConnectorDependencies): ConfiguredConnector[] {
  return PROVIDERS.flatMap((p) => {
    const own = settings[p.key] as Parameters<typeof p.create>[0] | null;
    return own ? [{ connector: (p.create as (s: typeof own, d: ConnectorDependencies) => Connector)(own, deps), baseUrl: own.baseUrl }] : [];
  });
}

/** One configured provider's answer to a token call with its credentials (provider:check, preflight). */
export interface CredentialCheck {
  name: string;
  baseUrl: string;
  ok: boolean;
  /** What was accepted, a line per product (collection, disbursement, …). */
  lines?: string[];
  error?: string;
}

/** A token call to each configured provider, one after another (no payment is made, nothing is stored). */
export async function checkCredentials(settings: ProviderSettings, deps: ConnectorDependencies): Promise<CredentialCheck[]> {
  const checks: CredentialCheck[] = [];
  for (const { connector, baseUrl } of realConnectors(settings, deps)) {
    try {
      checks.push({ name: connector.name, baseUrl, ok: true, lines: await connector.checkCredentials() });
    } catch (err) {
      checks.push({ name: connector.name, baseUrl, ok: false, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return checks;
}
