import { z } from 'zod';

/**
 * The records the REST door answers with and webhooks carry, one zod schema each.
 * Each is defined once, beside its serializer (modules/<area>/<area>.serializer.ts):
 * its z.output types the serializer's result, and its JSON Schema is the OpenAPI
 * component of that name (transport/rest/openapi/components.ts). Serializers stay
 * plain functions: nothing parses a record at run time.
 */
export const records = z.registry<{ id: string; description?: string }>();

/** Registers a record under its component name. */
export function record<T extends z.ZodType>(id: string, schema: T, description?: string): T {
  records.add(schema, description ? { id, description } : { id });
  return schema;
}

/** The JSON shape of a record (what its serializer returns). */
export type RecordOf<T extends z.ZodType> = z.output<T>;

export const timestamp = z.iso.datetime();
export const nullableTimestamp = timestamp.nullable();

/**
 * REST money: an exact decimal carried as a JSON number (GraphQL carries the same value as a
 * Decimal string). Its type is toJsonMoney's: a value outside the domain comes as its exact
 * decimal string (shared/money.ts), which the schema does not advertise.
 */
export const money = z
  .number()
  .meta({ description: 'Exact decimal, as a JSON number with at most the currency’s minor-unit decimals', examples: [1500] }) as unknown as z.ZodType<
  number | string
>;
export const currency = z
  .string()
  .regex(/^[A-Z]{3}$/)
  .meta({ examples: ['KES'] });
export const countryCode = z
  .string()
  .regex(/^[A-Z]{2}$/)
  .meta({ examples: ['KE'] });
