import { z } from 'zod';
import type { PaymentsEnv } from '../config';
import { DOCS, throwProblem, type ReportProblem } from '../shared/config-problems';
import type { CapabilityName } from './capabilities';
import type { Connector } from './connector';
import type { ConnectorRules } from './rules';

/** The environment as config.ts parsed it (every provider variable an optional string). */
export type ProviderEnv = Record<string, string | undefined>;

/** What every provider's connector is built with, besides its own settings. */
export interface ConnectorDependencies {
  /** Every call to a provider is aborted after this long (PROVIDER_TIMEOUT_MS). */
  timeoutMs: number;
  /** The service's clock (M-Pesa's timestamps). */
  now: () => Date;
}

/**
 * A real provider, as its folder's index.ts declares it: its name, its variables (a zod schema that
 * config.ts composes), how they become its settings, the capabilities its connector offers, and the
 * factory. The registry (registry.ts) lists them; nothing else names a provider.
 */
export interface ProviderDefinition<Key extends string, Settings extends { baseUrl: string }> {
  /** The connector's name: routing, callback paths, metrics, the ledger's clearing accounts. */
  readonly name: string;
  /** Its settings' key in the configuration (`config.connectors[key]`). */
  readonly key: Key;
  /** Its variables, each an optional string (a blank one is unset). */
  readonly env: z.ZodObject<Record<string, typeof optionalVariable>>;
  /**
   * Its settings from the parsed variables; null when none is set, or when what is set has problems: each is
   * reported (a half-configured product, a test credential in production), all of them, before null is returned.
   * Without `report`, the first problem is thrown.
   */
  configure(env: ProviderEnv, paymentsEnv: PaymentsEnv, report?: ReportProblem): Settings | null;
  /** What its connector offers beyond the base (checked against the connector by test/unit/providers.test.ts). */
  readonly capabilities: readonly CapabilityName[];
  /** The routes its reference data covers and its rules there, without credentials (rules.ts): the sandbox applies them too. */
  readonly rules: ConnectorRules;
  create(settings: Settings, deps: ConnectorDependencies): Connector;
}

/** A provider variable: an optional string, a blank one taken as unset. */
export const optionalVariable = z.preprocess((v: unknown) => (v === '' ? undefined : v), z.string().optional());

/** The zod schema of a provider's variables. */
export function variables(names: readonly string[]): z.ZodObject<Record<string, typeof optionalVariable>> {
  return z.object(Object.fromEntries(names.map((name) => [name, optionalVariable])));
}

/** Whether any of these variables is set. */
export function anySet(e: ProviderEnv, names: readonly string[]): boolean {
  return names.some((n) => e[n] !== undefined);
}

/**
 * A group of variables is all or nothing: any one set requires the rest. Its values when all are set; null when
 * none is, or when some are missing (reported, naming them).
 */
export function group<T extends readonly string[]>(
  e: ProviderEnv,
  names: T,
  what: string,
  report: ReportProblem = throwProblem,
): Record<T[number], string> | null {
  const present = names.filter((n) => e[n] !== undefined);
  if (present.length === 0) return null;
  const missing = names.filter((n) => e[n] === undefined);
  if (missing.length > 0) {
    report({
      variables: missing,
      problem: `${what} is configured (${present.join(', ')}) but ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} missing`,
      fix: `set ${missing.join(', ')} from the provider's dashboard, or unset ${present.join(', ')} to leave ${what} off`,
      doc: DOCS.providers,
    });
    return null;
  }
  return Object.fromEntries(names.map((n) => [n, e[n]!])) as Record<T[number], string>;
}

/** A provider's declaration, typed (its settings' type follows from `configure`). */
export function defineProvider<Key extends string, Settings extends { baseUrl: string }>(
  definition: ProviderDefinition<Key, Settings>,
): ProviderDefinition<Key, Settings> {
  return definition;
}
