import { z } from 'zod';
import { toJsonMoney, type Decimal } from './money';
import { countryCode, currency, money as moneySchema, record as registerRecord, timestamp as timestampSchema } from './records';

/*
 * One definition per record (docs/design.md, "One definition per record"). A record's
 * definition names each of its public fields once: its value type, nullability, description
 * and wire name, and how it is read from the domain record. From it come the REST record (a
 * zod schema, so the OpenAPI component and the SDK) with its serializer, and the GraphQL
 * object type (transport/graphql/record-types.ts). A stored record (a transaction) also
 * declares its columns (defineColumns below), from which come its store's column map, its
 * blank row and its JSON wire form. Everything is derived once, at module load: a
 * serializer is a loop over a prepared list, not a reading of the definition.
 */

// ---------------------------------------------------------------------------------------------
// Value types: what a field holds, and so how each door writes it.

/** A field's value type: what REST's schema and GraphQL's type of it are, and how each door writes its value. */
export type ValueType =
  | { kind: 'text' }
  /** Text GraphQL shows as an ID. */
  | { kind: 'id' }
  /** An id REST documents as a UUID (GraphQL: ID). */
  | { kind: 'uuid' }
  /** ISO 4217 code (REST: its pattern; GraphQL: String). */
  | { kind: 'currency' }
  /** ISO 3166-1 alpha-2 code (REST: its pattern; GraphQL: String). */
  | { kind: 'country' }
  /** One of `values`; GraphQL's enum type of that name (transport/graphql/enums.ts). */
  | { kind: 'enum'; values: readonly [string, ...string[]]; graphqlEnum: string }
  /**
   * Money in a currency: REST writes it as a JSON number (toJsonMoney); GraphQL as a Decimal string
   * with exactly that currency's minor-unit decimals, the currency read by `currency`.
   */
  | { kind: 'money'; currency: (source: never) => string | null }
  /** An exact decimal that is not money (a rate): REST as a JSON number; GraphQL as its plain decimal text. */
  | { kind: 'decimal' }
  /** REST: ISO 8601 text; GraphQL: DateTime. */
  | { kind: 'timestamp' }
  /** A nested record, written by its own definition (or, where a field says so, as it is). */
  | { kind: 'record'; definition: RecordDefinition<never> }
  /** A JSON object of no fixed shape, sent as it is (REST: an object; GraphQL: JSONObject). */
  | { kind: 'json' };

export const text: ValueType = { kind: 'text' };
export const id: ValueType = { kind: 'id' };
export const uuid: ValueType = { kind: 'uuid' };
export const currencyCode: ValueType = { kind: 'currency' };
export const countryCodeType: ValueType = { kind: 'country' };
export const decimal: ValueType = { kind: 'decimal' };
export const timestamp: ValueType = { kind: 'timestamp' };
export const jsonObject: ValueType = { kind: 'json' };
export const enumOf = (values: readonly [string, ...string[]], graphqlEnum: string): ValueType => ({ kind: 'enum', values, graphqlEnum });
export const money = <R>(currencyOf: (source: R) => string | null): ValueType => ({ kind: 'money', currency: currencyOf as (source: never) => string | null });
export const nested = <R>(definition: RecordDefinition<R>): ValueType => ({ kind: 'record', definition: definition as unknown as RecordDefinition<never> });

// ---------------------------------------------------------------------------------------------
// Public fields and record definitions.

/** What one door says differently of a field: stated on the field, so the irregularity is written down. */
interface DoorOverride<R> {
  nullable?: boolean;
  description?: string;
  /** The value this door shows, when it is not the field's `read` (already in the door's form when `raw`). */
  read?: (source: R) => unknown;
  /** `read` gives the door's value as it is sent (no conversion by the value type). */
  raw?: true;
}

export interface FieldSpec<R> {
  type: ValueType;
  nullable?: boolean;
  /** The field's description, as GraphQL shows it (REST descriptions are the REST view's, where it has one). */
  description?: string;
  /** The domain value; by default the source's property of the field's name (or of `from`). */
  read?: (source: R) => unknown;
  /** The source's property it reads, when named otherwise (`customerUuid` reads `customerId`). */
  from?: string;
  /** REST's name; by default the snake_case of the field's name. */
  wire?: string;
  /** GraphQL's view of the field, or false: REST only. `type`: GraphQL's type by name when not the value type's ('ID', or an enum's name). */
  graphql?: false | (DoorOverride<R> & { deprecationReason?: string; type?: string });
  /** REST's view of the field, or false: GraphQL only. */
  rest?: false | (DoorOverride<R> & { schema?: z.ZodType });
}

export interface RecordDefinition<R, F extends string = string> {
  /** GraphQL's type name. */
  name: string;
  /** GraphQL's type description. */
  description?: string;
  fields: { readonly [K in F]: FieldSpec<R> };
}

/** A record's definition: its public fields, in GraphQL's order. */
export function defineRecord<R>() {
  return <const F extends string>(definition: RecordDefinition<R, F>): RecordDefinition<R, F> => definition;
}

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A field's REST name. */
export const wireName = (name: string, spec: FieldSpec<never>): string => spec.wire ?? snakeCase(name);

/** How a field's domain value is read from its source. */
export function readerOf<R>(name: string, spec: FieldSpec<R>): (source: R) => unknown {
  if (spec.read) return spec.read;
  const property = spec.from ?? name;
  return (source) => (source as Record<string, unknown>)[property];
}

// ---------------------------------------------------------------------------------------------
// REST: a view of a definition is one REST record (one OpenAPI component) and its serializer.

/** A field as one REST record shows it. */
interface RestFieldOptions {
  /** This record's description of the field (REST descriptions are per record). */
  description?: string;
  /** Left out of the answer when null (and so optional in the schema), instead of sent as null. */
  omitWhenNull?: true;
  /** A literal value instead of the field's type (the `type` of a record by kind). */
  literal?: string;
}

type RestFieldEntry<F extends string> = F | readonly [F, RestFieldOptions];

export interface RestView<F extends string> {
  /**
   * The OpenAPI component's name, and its description. Registered by `registered` (called where the
   * serializers are, so the document lists the components in the order it always has).
   */
  id?: string;
  description?: string;
  /** The fields it shows, in the order the answer's JSON has them. */
  fields: ReadonlyArray<RestFieldEntry<F>>;
  /** Where the schema's key order differs from the answer's (an irregularity kept as it is): `move` is listed after `after`. */
  schemaOrder?: { move: F; after: F };
}

type RestRecord = Record<string, unknown>;
type RestSchema = z.ZodObject<Record<string, z.ZodType>>;

interface RestPlan<R> {
  wire: string;
  value: (source: R) => unknown;
  omitWhenNull: boolean;
}

function restBaseSchema(type: ValueType): z.ZodType {
  switch (type.kind) {
    case 'text':
    case 'id':
      return z.string();
    case 'uuid':
      return z.uuid();
    case 'currency':
      return currency;
    case 'country':
      return countryCode;
    case 'enum':
      return z.enum(type.values);
    case 'money':
      return moneySchema;
    case 'decimal':
      return z.number() as unknown as z.ZodType<number | string>;
    case 'timestamp':
      return timestampSchema;
    case 'record':
      return restSchemaOf(type.definition);
    case 'json':
      return z.record(z.string(), z.unknown());
  }
}

const isoOrNull = (d: unknown) => (d === null || d === undefined ? null : (d as Date).toISOString());
const jsonMoneyOrNull = (d: unknown) => (d === null || d === undefined ? null : toJsonMoney(d as Decimal));

/** How REST writes a value of a type. */
function restConversion(type: ValueType): ((value: unknown) => unknown) | undefined {
  switch (type.kind) {
    case 'money':
    case 'decimal':
      return jsonMoneyOrNull;
    case 'timestamp':
      return isoOrNull;
    case 'record': {
      const serialize = restSerializerOf(type.definition);
      return (value) => (value === null || value === undefined ? null : serialize(value as never));
    }
    default:
      return undefined;
  }
}

/** The nested record's REST schema, every field in definition order (a nested record has one REST view). */
const nestedSchemas = new WeakMap<object, z.ZodType>();
function restSchemaOf(definition: RecordDefinition<never>): z.ZodType {
  let schema = nestedSchemas.get(definition);
  if (!schema) {
    schema = restView(definition, { fields: restFieldsOf(definition) }).schema;
    nestedSchemas.set(definition, schema);
  }
  return schema;
}
const nestedSerializers = new WeakMap<object, (source: never) => RestRecord>();
function restSerializerOf(definition: RecordDefinition<never>): (source: never) => RestRecord {
  let serialize = nestedSerializers.get(definition);
  if (!serialize) {
    serialize = restView(definition, { fields: restFieldsOf(definition) }).serialize;
    nestedSerializers.set(definition, serialize);
  }
  return serialize;
}
const restFieldsOf = (definition: RecordDefinition<never>): string[] =>
  Object.entries(definition.fields as Record<string, FieldSpec<never>>)
    .filter(([, spec]) => spec.rest !== false)
    .map(([name]) => name);

interface RestRecordView<R> {
  schema: RestSchema;
  serialize: (source: R) => RestRecord;
  /** The schema, registered as its OpenAPI component (shared/records.ts). */
  registered(): RestSchema;
}

/**
 * One REST record of a definition: its zod schema (the component `id`, once registered) and its
 * serializer, which writes the fields in the view's order.
 */
export function restView<R, F extends string>(definition: RecordDefinition<R, F>, view: RestView<F>): RestRecordView<R> {
  const shape: Record<string, z.ZodType> = {};
  const plan: RestPlan<R>[] = [];
  const entries = view.fields.map((entry) => (typeof entry === 'string' ? ([entry, {}] as const) : entry)) as Array<readonly [F, RestFieldOptions]>;
  for (const [name, options] of entries) {
    const spec = definition.fields[name];
    if (!spec || spec.rest === false) throw new Error(`${definition.name}.${name} is not a REST field`);
    const door = spec.rest ?? {};
    const wire = wireName(name, spec as FieldSpec<never>);
    let schema = options.literal !== undefined ? z.literal(options.literal) : (door.schema ?? restBaseSchema(spec.type));
    // A field left out when null is optional, not nullable: it is never sent as null.
    if (options.omitWhenNull) schema = schema.optional();
    else if (options.literal === undefined && (door.nullable ?? spec.nullable)) schema = schema.nullable();
    const description = options.description ?? door.description;
    if (description) schema = schema.describe(description);
    shape[wire] = schema;
    const read = door.read ?? readerOf(name, spec);
    const convert = door.raw ? undefined : restConversion(spec.type);
    plan.push({ wire, value: convert ? (source) => convert(read(source)) : read, omitWhenNull: options.omitWhenNull === true });
  }
  let ordered = shape;
  if (view.schemaOrder) {
    const move = wireName(view.schemaOrder.move, definition.fields[view.schemaOrder.move] as FieldSpec<never>);
    const after = wireName(view.schemaOrder.after, definition.fields[view.schemaOrder.after] as FieldSpec<never>);
    ordered = {};
    for (const [key, schema] of Object.entries(shape)) {
      if (key === move) continue;
      ordered[key] = schema;
      if (key === after) ordered[move] = shape[move]!;
    }
  }
  const schema = z.object(ordered);
  // A nested record's named view is the one records that hold it refer to (an OpenAPI $ref).
  if (view.id && !nestedSchemas.has(definition)) nestedSchemas.set(definition, schema);
  const serialize = (source: R): RestRecord => {
    const out: RestRecord = {};
    for (const field of plan) {
      const value = field.value(source);
      if (field.omitWhenNull && (value === null || value === undefined)) continue;
      out[field.wire] = value;
    }
    return out;
  };
  if (view.id && !nestedSerializers.has(definition)) nestedSerializers.set(definition, serialize as (source: never) => RestRecord);
  const registered = () => {
    if (!view.id) throw new Error(`A view of ${definition.name} without an id cannot be registered`);
    return registerRecord(view.id, schema, view.description);
  };
  return { schema, serialize, registered };
}

// ---------------------------------------------------------------------------------------------
// Stored columns (a record read and written by direct statements: the transaction).

/** One stored column: its domain type `T`, whether it may be null, and its value before anything sets it. */
class Column<T, N extends boolean = false, D extends boolean = false> {
  declare readonly _type: T;
  constructor(
    readonly storage: 'plain' | 'decimal' | 'timestamp' | 'json' | 'sealed',
    readonly isNullable: N,
    readonly blank: unknown,
    readonly hasBlank: D,
    readonly name?: string,
  ) {}

  /** May be null; blank (unset by a kind) is null. */
  nullable(): Column<T, true, true> {
    return new Column<T, true, true>(this.storage, true, null, true, this.name);
  }

  /** Not null; blank is `value`. */
  blankAs(value: T): Column<T, N, true> {
    return new Column<T, N, true>(this.storage, this.isNullable, value, true, this.name);
  }

  /** The column's name in the table, when it is not the snake_case of the field's. */
  named(name: string): Column<T, N, D> {
    return new Column<T, N, D>(this.storage, this.isNullable, this.blank, this.hasBlank, name);
  }
}

export const column = {
  /** Text: stored and carried as it is. */
  text: () => new Column<string>('plain', false, undefined, false),
  /** An enum (say which): stored and carried as it is. */
  plain: <T>() => new Column<T>('plain', false, undefined, false),
  /** An exact decimal: NUMERIC in the table, text on the wire. */
  decimal: () => new Column<Decimal>('decimal', false, undefined, false),
  /** TIMESTAMPTZ; ISO 8601 on the wire. */
  timestamp: () => new Column<Date>('timestamp', false, undefined, false),
  /** JSONB. */
  json: <T>() => new Column<T>('json', false, undefined, false),
  /** Text sealed at rest (SecretBox). */
  sealed: () => new Column<string>('sealed', false, undefined, false),
};

type AnyColumn = Column<unknown, boolean, boolean>;

/** The record type of a set of columns. */
export type ColumnsOf<C extends Record<string, AnyColumn>> = {
  -readonly [K in keyof C]: C[K] extends Column<infer T, infer N, boolean> ? (N extends true ? T | null : T) : never;
};

/** The columns a new row has before its kind sets them: the nullable ones (null) and those with a blank value. */
export type BlankOf<C extends Record<string, AnyColumn>> = {
  -readonly [K in keyof C as C[K] extends Column<unknown, boolean, true> ? K : never]: ColumnsOf<C>[K];
};

interface ColumnMap<C extends Record<string, AnyColumn>> {
  /** Field → column name, in table order. */
  columns: { readonly [K in keyof C]: string };
  fields: ReadonlyArray<keyof C & string>;
  decimals: ReadonlySet<keyof C & string>;
  dates: ReadonlyArray<keyof C & string>;
  json: ReadonlySet<keyof C & string>;
  sealed: ReadonlySet<keyof C & string>;
  /** Every blank column with its blank value. */
  blank: BlankOf<C>;
}

/** A stored record's columns, and what its store and wire form need of them. */
export function defineColumns<const C extends Record<string, AnyColumn>>(definition: C): ColumnMap<C> & { definition: C } {
  const entries = Object.entries(definition) as Array<[keyof C & string, AnyColumn]>;
  const of = (storage: AnyColumn['storage']) => entries.filter(([, c]) => c.storage === storage).map(([f]) => f);
  return {
    definition,
    columns: Object.fromEntries(entries.map(([f, c]) => [f, c.name ?? snakeCase(f)])) as { readonly [K in keyof C]: string },
    fields: entries.map(([f]) => f),
    decimals: new Set(of('decimal')),
    dates: of('timestamp'),
    json: new Set(of('json')),
    sealed: new Set(of('sealed')),
    blank: Object.fromEntries(entries.filter(([, c]) => c.hasBlank).map(([f, c]) => [f, c.blank])) as BlankOf<C>,
  };
}
