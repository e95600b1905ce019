/**
 * Which mobile money network a phone number most likely belongs to, from the prefix of its national
 * significant number (the operator's number ranges in the country's numbering plan). A prediction
 * only: a number ported to another operator keeps its prefix, so the payer can always change it.
 * The prefixes are data (src/modules/reference/data/network-prefixes.json), read and checked at
 * start by readNetworkPrefixes in reference.data.ts. Pure: no I/O.
 */

/** One country's prefixes, longest first, each naming a network's code (as networks.json names it). */
type CountryPrefixes = ReadonlyArray<{ readonly prefix: string; readonly network: string }>;

/** Every country's prefixes, by country code (GH, KE…). */
export type NetworkPrefixPlans = ReadonlyMap<string, CountryPrefixes>;

const NOT_DIGIT = /\D/g;

/**
 * The code of the network whose prefix `nationalNumber` starts with (the longest prefix wins), or
 * null when none does or the country has no plan. Separators in the number are ignored; the number
 * is the national significant number (no dial code, no trunk prefix: `241234567`, or Côte d'Ivoire's
 * `0701234567` whose 0 belongs to it).
 */
export function predictNetwork(plans: NetworkPrefixPlans, countryCode: string, nationalNumber: string): string | null {
  const prefixes = plans.get(countryCode);
  if (!prefixes) return null;
  const digits = nationalNumber.replace(NOT_DIGIT, '');
  if (digits.length === 0) return null;
  for (const { prefix, network } of prefixes) if (digits.startsWith(prefix)) return network;
  return null;
}

/**
 * What the checkout page's script needs to predict as the payer types (embedded in the page as JSON):
 * the dial code's digits and the trunk prefix to take off what is typed, and prefix → network code.
 */
export interface PagePrefixTable {
  /** The dial code's digits: "233". */
  dial: string;
  /** "0", or null where the leading 0 is part of the number. */
  trunk: string | null;
  /** Prefix → network code. */
  prefixes: Record<string, string>;
}

/** The page's table for a country (null when the country has no prefixes). */
export function pagePrefixTable(plans: NetworkPrefixPlans, countryCode: string, dialCode: string, trunkPrefix: string | null): PagePrefixTable | null {
  const prefixes = plans.get(countryCode);
  if (!prefixes || prefixes.length === 0) return null;
  return { dial: dialCode.replace(NOT_DIGIT, ''), trunk: trunkPrefix, prefixes: Object.fromEntries(prefixes.map((p) => [p.prefix, p.network])) };
}

/** Builds the plans from their file's shape (country → network code → prefixes), longest prefix first. */
export function buildNetworkPrefixPlans(
  countries: ReadonlyArray<{ countryCode: string; networks: ReadonlyArray<{ code: string; prefixes: readonly string[] }> }>,
): NetworkPrefixPlans {
  const plans = new Map<string, CountryPrefixes>();
  for (const country of countries) {
    const list = country.networks.flatMap((n) => n.prefixes.map((prefix) => ({ prefix, network: n.code })));
    list.sort((a, b) => b.prefix.length - a.prefix.length || a.prefix.localeCompare(b.prefix));
    plans.set(country.countryCode, list);
  }
  return plans;
}

/** predictNetwork's rule over a page table (the one the page's script applies too). */
export function predictFromPageTable(table: PagePrefixTable, nationalNumber: string): string | null {
  const digits = nationalNumber.replace(NOT_DIGIT, '');
  let best: string | null = null;
  for (const prefix of Object.keys(table.prefixes)) {
    if (digits.startsWith(prefix) && (best === null || prefix.length > best.length)) best = prefix;
  }
  return best === null ? null : table.prefixes[best]!;
}
