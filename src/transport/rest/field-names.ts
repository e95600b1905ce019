import type { AppError, ErrorView } from '../../shared/errors';

/**
 * The REST door's names for the domain's fields. REST speaks snake_case (the spec's
 * `customer_uuid`, `card.exp_month`); services speak the domain's camelCase. This is
 * the one place that translates, both ways: request bodies and queries on the way in,
 * error fields (and the OpenAPI document's properties) on the way out.
 */

/** Where the spec's REST name is not the plain snake_case of the domain's. */
const SPEC_NAMES: Record<string, string> = { customerId: 'customerid', rampType: 'ramptype' };
const DOMAIN_NAMES: Record<string, string> = Object.fromEntries(Object.entries(SPEC_NAMES).map(([domain, rest]) => [rest, domain]));

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const camelCase = (name: string) => name.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/** A domain field's name: a camelCase identifier. Anything else (a header, `Idempotency-Key`) is named as it is. */
const DOMAIN_KEY = /^[a-z][A-Za-z0-9]*$/;

/** One segment: `expMonth` → `exp_month`, `customerId` → `customerid`. */
export const restKey = (domainKey: string): string => SPEC_NAMES[domainKey] ?? (DOMAIN_KEY.test(domainKey) ? snakeCase(domainKey) : domainKey);

/** A field path as REST names it: `card.expYear` → `card.exp_year`. */
export const restName = (field: string): string => field.split('.').map(restKey).join('.');

/**
 * A REST key's domain name, or undefined when it is not a REST name at all: only a key
 * of lower-case words that comes back to itself is one, so `customerUuid` or `customer_id`
 * (for `customerid`) stay unknown fields, as they were when services read the REST body.
 */
export function domainKey(key: string): string | undefined {
  const known = KEY_CACHE.get(key);
  if (known !== undefined) return known ?? undefined;
  const domain = translateKey(key);
  // Bounded: the keys of real bodies are a few dozen; junk keys stop being remembered.
  if (KEY_CACHE.size < KEY_CACHE_MAX) KEY_CACHE.set(key, domain ?? null);
  return domain;
}

/** Each REST key's translation, worked out once (a body's keys are on the hot path; the regexes cost ~2 µs a key). */
const KEY_CACHE = new Map<string, string | null>();
const KEY_CACHE_MAX = 4096;

function translateKey(key: string): string | undefined {
  if (!/^[a-z][a-z0-9_]*$/.test(key)) return undefined;
  const domain = DOMAIN_NAMES[key] ?? camelCase(key);
  return restKey(domain) === key ? domain : undefined;
}

/**
 * A JSON body or a query string in the domain's names, for a service to check as its
 * command. Objects are rebuilt key by key (arrays element by element); values are left
 * as they are. Keys that are not REST names are dropped, like any unknown field.
 */
export function fromRest<T>(value: unknown): T {
  return toDomainKeys(value) as T;
}

function toDomainKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toDomainKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    // A domain key is a camelCase identifier, never `__proto__`: plain assignment is safe.
    const domain = domainKey(key);
    if (domain !== undefined) out[domain] = toDomainKeys((value as Record<string, unknown>)[key]);
  }
  return out;
}

/** An error as the REST door says it: its fields by their REST names. */
export const restView = (err: AppError): ErrorView => err.view(restName);

/** A JSON Schema of a domain command, with its properties renamed as REST sends them (for the OpenAPI document). */
export function restJsonSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const renamed: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === 'properties' && value && typeof value === 'object') {
      renamed.properties = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([key, inner]) => [restKey(key), restJsonSchema(inner as Record<string, unknown>)]),
      );
    } else if (keyword === 'required' && Array.isArray(value)) {
      renamed.required = value.map((key) => restKey(String(key)));
    } else if (Array.isArray(value)) {
      renamed[keyword] = value.map((inner) => (inner && typeof inner === 'object' ? restJsonSchema(inner as Record<string, unknown>) : inner));
    } else if (value && typeof value === 'object' && keyword !== 'examples' && keyword !== 'default' && keyword !== 'const') {
      renamed[keyword] = restJsonSchema(value as Record<string, unknown>);
    } else {
      renamed[keyword] = value;
    }
  }
  return renamed;
}
