import { z } from 'zod';
import { amountField, timestampField } from '../../../shared/fields';
import { restJsonSchema } from '../field-names';

/** A JSON Schema (draft 2020-12) object, as OpenAPI 3.1 embeds it. */
export type JsonSchema = Record<string, unknown>;

/**
 * Shared field schemas whose rule lives in code zod cannot see (a refinement),
 * described here once, by the very schema object the services use. A field is
 * recognised by identity, so a service that stops using it stops getting this.
 */
const KNOWN_FIELDS = new Map<z.ZodType, JsonSchema>([
  [
    timestampField,
    {
      description: 'An ISO 8601 date-time with its offset, between 2000 and 2100.',
      type: 'string',
      format: 'date-time',
      examples: ['2026-11-22T12:00:00Z'],
    },
  ],
  [
    amountField,
    {
      description:
        'A positive decimal amount, as a string ("1500.00", preferred: it is exact) or a JSON number. ' +
        'No sign, no exponent, and at most the currency’s minor-unit decimals (ISO 4217: 2 for KES, 0 for UGX).',
      oneOf: [
        { type: 'string', pattern: '^\\d+(\\.\\d+)?$', examples: ['1500.00'] },
        { type: 'number', exclusiveMinimum: 0 },
      ],
    },
  ],
]);

/** What a preprocess step does to text before the schema checks it, found by asking it. */
function normalisation(preprocess: (value: unknown, ctx: unknown) => unknown): string | undefined {
  try {
    const probe = preprocess(' aB ', { addIssue: () => undefined, issues: [] });
    if (probe === 'AB') return 'Case-insensitive: trimmed and upper-cased before it is checked (the constraints describe the upper-cased value).';
    if (probe === 'ab') return 'Case-insensitive: trimmed and lower-cased before it is checked (the constraints describe the lower-cased value).';
    if (probe !== ' aB ') return 'Normalised by the service before it is checked.';
  } catch {
    // A preprocess that refuses the probe says nothing we can show.
  }
  return undefined;
}

const SAFE_INTEGER_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

function tidy(zodSchema: z.core.$ZodType, json: JsonSchema, io: 'input' | 'output', strict: boolean): void {
  const known = KNOWN_FIELDS.get(zodSchema as z.ZodType);
  if (known) {
    for (const key of Object.keys(json)) delete json[key];
    Object.assign(json, structuredClone(known));
    return;
  }
  // z.number().int() says "a safe integer"; the bounds are noise to a reader.
  if (SAFE_INTEGER_BOUNDS.has(json.minimum as number)) delete json.minimum;
  if (SAFE_INTEGER_BOUNDS.has(json.maximum as number)) delete json.maximum;
  if (io === 'output') {
    // An answer's `format` says it (date-time, uuid); zod's long regex for it helps nobody reading.
    if (json.format) delete json.pattern;
    // Answers may gain fields: clients should ignore unknown ones. Tests check them strictly.
    if (!strict && json.additionalProperties === false) delete json.additionalProperties;
  }
  const def = zodSchema._zod.def as { type: string; in?: z.core.$ZodType };
  if (def.type === 'pipe' && def.in?._zod.traits.has('$ZodTransform')) {
    const note = normalisation((def.in._zod.def as unknown as { transform: (v: unknown, ctx: unknown) => unknown }).transform);
    if (note) json.description = json.description ? `${note} ${json.description}` : note;
  }
}

/**
 * zod 4's JSON Schema options for this document: draft 2020-12 (OpenAPI 3.1's
 * dialect). Requests are described by their input side (before defaults,
 * coercions and transforms: what a client sends), answers by their output side.
 */
export function jsonSchemaOptions(io: 'input' | 'output', opts: { strict?: boolean } = {}) {
  return {
    io,
    unrepresentable: 'any' as const,
    target: 'draft-2020-12' as const,
    override: ({ zodSchema, jsonSchema }: { zodSchema: z.core.$ZodType; jsonSchema: z.core.JSONSchema.BaseSchema }) =>
      tidy(zodSchema, jsonSchema as JsonSchema, io, opts.strict ?? false),
  };
}

/**
 * The JSON Schema of what a service's zod schema accepts, as an OpenAPI 3.1
 * schema object. This is the one place request schemas become the document's.
 */
export function requestJsonSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, jsonSchemaOptions('input')) as JsonSchema;
  delete json.$schema; // the document's jsonSchemaDialect says it
  // Services name fields in the domain's camelCase; this document describes the REST door's names.
  return restJsonSchema(json);
}

/** An amount in a query string (or a field the service parses itself): a decimal string. */
export const AMOUNT_QUERY: JsonSchema = { type: 'string', pattern: '^\\d+(\\.\\d+)?$', examples: ['100'] };
