import type { Connector } from './connector';
import { flutterwave } from './flutterwave';
import { mpesa } from './mpesa';
import { mtnMomo } from './mtn-momo';
import type { ConnectorDependencies, ProviderEnv } from './provider';
import type { PaymentsEnv } from '../config';

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

/** Each provider's settings from the parsed variables, in the registry's order (a half-configured one is refused here). */
export function configureProviders(e: ProviderEnv, env: PaymentsEnv): ProviderSettings {
  return Object.fromEntries(PROVIDERS.map((p) => [p.key, p.configure(e, env)])) as ProviderSettings;
}

/** Whether any real provider is configured. */
export function anyProviderConfigured(settings: ProviderSettings): boolean {
  return PROVIDERS.some((p) => settings[p.key] !== null);
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
