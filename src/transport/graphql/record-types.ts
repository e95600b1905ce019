import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, ObjectType } from 'type-graphql';
import type { ReferenceService } from '../../modules/reference/reference.service';
import { formatAmount, type Decimal } from '../../shared/money';
import { type FieldSpec, type RecordDefinition, type ValueType } from '../../shared/record-definition';
import {
  ChannelTypeEnum,
  KycStatusEnum,
  NextActionTypeEnum,
  PaymentMethodEnum,
  TransactionStatusEnum,
  TransactionTypeEnum,
  WebhookDeliveryStatusEnum,
} from './enums';
import { DecimalScalar } from './scalars';

/*
 * GraphQL object types generated from the records' definitions (shared/record-definition.ts):
 * a class per definition, with type-graphql's ObjectType and Field decorators applied to it
 * as they would be written by hand, and a `from` that fills an instance from the domain
 * record. Built once, at module load.
 */

/** Reads a currency's minor unit, so amounts carry exactly its decimals ("100.00", "3700"). */
type MinorUnits = Pick<ReferenceService, 'currencyMinorUnit'>;

/** The enums a definition names (by their GraphQL names). */
const ENUMS: Record<string, object> = {
  TransactionType: TransactionTypeEnum,
  TransactionStatus: TransactionStatusEnum,
  ChannelType: ChannelTypeEnum,
  PaymentMethod: PaymentMethodEnum,
  NextActionType: NextActionTypeEnum,
  KycStatus: KycStatusEnum,
  WebhookDeliveryStatus: WebhookDeliveryStatusEnum,
};

function enumNamed(name: string, more?: Record<string, object>): object {
  const found = more?.[name] ?? ENUMS[name];
  if (!found) throw new Error(`GraphQL has no enum ${name} (transport/graphql/record-types.ts)`);
  return found;
}

/** A generated object type: its class (for type-graphql) and the filling of an instance. */
interface GeneratedType<R, Ctx extends [] | [MinorUnits], Shape> {
  new (): Shape;
  prototype: Shape;
  /** An instance filled from `source`; a type with money fields takes the currencies' minor units. */
  from(source: R, ...ctx: Ctx): Shape;
}

type Conversion = (value: unknown, source: never, ctx: MinorUnits | undefined) => unknown;

function graphqlTypeOf(type: ValueType, named: string | undefined, enums?: Record<string, object>): () => unknown {
  if (named === 'ID') return () => ID;
  if (named) {
    const found = enumNamed(named, enums);
    return () => found;
  }
  switch (type.kind) {
    case 'text':
    case 'currency':
    case 'country':
      return () => String;
    case 'id':
    case 'uuid':
      return () => ID;
    case 'enum': {
      const found = enumNamed(type.graphqlEnum, enums);
      return () => found;
    }
    case 'money':
    case 'decimal':
      return () => DecimalScalar;
    case 'timestamp':
      return () => Date;
    case 'record': {
      const nestedType = objectTypeOf(type.definition);
      return () => nestedType;
    }
    case 'json':
      return () => GraphQLJSONObject;
  }
}

function conversionOf(type: ValueType): Conversion | undefined {
  switch (type.kind) {
    case 'money': {
      const currencyOf = type.currency;
      return (value, source, units) => {
        if (value === null || value === undefined) return null;
        const currency = currencyOf(source);
        const minorUnit = currency && units ? units.currencyMinorUnit(currency) : undefined;
        return minorUnit === undefined ? (value as Decimal).toFixed() : formatAmount(value as Decimal, minorUnit);
      };
    }
    case 'decimal':
      return (value) => (value === null || value === undefined ? null : (value as Decimal).toFixed());
    case 'record': {
      const nestedType = objectTypeOf(type.definition);
      const from = nestedType.from as unknown as (value: unknown, units: MinorUnits | undefined) => unknown;
      return (value, _source, units) => (value === null || value === undefined ? null : from(value, units));
    }
    default:
      return undefined;
  }
}

const generated = new WeakMap<object, GeneratedType<never, [], object>>();

type Generated<R, F extends string, Extra, U extends boolean> = GeneratedType<R, U extends true ? [MinorUnits] : [], { [K in F]: unknown } & Extra>;

/**
 * The GraphQL object type of a definition: one field per field GraphQL shows, with its type,
 * nullability and description. `extra` adds properties that are not fields of the schema
 * (what a field resolver needs: the transaction's id for its history). `units`: it has money
 * fields, so `from` takes the currencies' minor units. `enums`: the enums it names that are
 * declared beside their types rather than in enums.ts.
 */
export function objectTypeOf<R, F extends string, Extra extends object = object, U extends boolean = false>(
  definition: RecordDefinition<R, F>,
  options: { extra?: (source: R) => Extra; units?: U; enums?: Record<string, object> } = {},
): Generated<R, F, Extra, U> {
  const known = generated.get(definition);
  if (known) return known as unknown as Generated<R, F, Extra, U>;
  const { extra } = options;
  // Only a type with money reads minor units; any other ignores what a caller passes after the source (a map's index).
  const takesUnits = options.units === true;

  const className = `${definition.name}Object`;
  // A class of that name (as a hand-written one would be), with nothing of its own: its fields are decorated below.
  const type = { [className]: class {} }[className]! as new () => Record<string, unknown>;
  generated.set(definition, type as unknown as GeneratedType<never, [], object>);

  const readers: Array<((source: R) => unknown) | undefined> = [];
  const conversions: Array<Conversion | undefined> = [];
  const assignments: string[] = [];
  for (const [name, spec] of Object.entries(definition.fields) as Array<[string, FieldSpec<R>]>) {
    if (spec.graphql === false) continue;
    const door = spec.graphql ?? {};
    const nullable = door.nullable ?? spec.nullable ?? false;
    Field(graphqlTypeOf(spec.type, door.type, options.enums) as never, {
      ...(nullable ? { nullable: true } : {}),
      ...((door.description ?? spec.description) ? { description: door.description ?? spec.description } : {}),
      ...(door.deprecationReason ? { deprecationReason: door.deprecationReason } : {}),
    })(type.prototype, name);
    const i = readers.length;
    const read = door.read ?? spec.read;
    readers.push(read);
    conversions.push(door.raw ? undefined : conversionOf(spec.type));
    const value = read ? `r[${i}](s)` : `s[${JSON.stringify(spec.from ?? name)}]`;
    assignments.push(`o[${JSON.stringify(name)}] = ${conversions[i] ? `c[${i}](${value}, s, u)` : value};`);
  }
  // `from` is written out once, here, as a hand-written one would be: one named read and store per field
  // (a loop over the fields would make every read and store a lookup by a key known only at run time).
  // Its text is made of the definition's own names, JSON-quoted; nothing from outside reaches it.
  const compile = new Function(
    'T',
    'x',
    'r',
    'c',
    `return function from(s, units) {
      const u = ${takesUnits ? 'units' : 'undefined'};
      const o = new T();
      ${extra ? 'Object.assign(o, x(s));' : ''}
      ${assignments.join('\n      ')}
      return o;
    }`,
  ) as (...args: unknown[]) => (source: R, units?: MinorUnits) => Record<string, unknown>;
  Object.assign(type, { from: compile(type, extra, readers, conversions) });
  ObjectType(definition.name, definition.description ? { description: definition.description } : {})(type);
  return type as unknown as Generated<R, F, Extra, U>;
}
