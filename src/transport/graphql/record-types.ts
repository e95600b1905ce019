import { Field, ID, ObjectType } from 'type-graphql';
import type { ReferenceService } from '../../modules/reference/reference.service';
import { formatAmount, type Decimal } from '../../shared/money';
import { readerOf, type FieldSpec, type RecordDefinition, type ValueType } from '../../shared/record-definition';
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

  const plan: Array<{ name: string; value: (source: R, ctx: MinorUnits | undefined) => unknown }> = [];
  const holder = {
    [`${definition.name}Object`]: class {
      static from(source: R, units?: MinorUnits): unknown {
        const instance = new (holder[`${definition.name}Object`] as unknown as new () => Record<string, unknown>)();
        if (extra) Object.assign(instance, extra(source));
        const minorUnits = takesUnits ? units : undefined;
        for (const field of plan) instance[field.name] = field.value(source, minorUnits);
        return instance;
      }
    },
  };
  const type = holder[`${definition.name}Object`]!;
  generated.set(definition, type as unknown as GeneratedType<never, [], object>);

  for (const [name, spec] of Object.entries(definition.fields) as Array<[string, FieldSpec<R>]>) {
    if (spec.graphql === false) continue;
    const door = spec.graphql ?? {};
    const nullable = door.nullable ?? spec.nullable ?? false;
    Field(graphqlTypeOf(spec.type, door.type, options.enums) as never, {
      ...(nullable ? { nullable: true } : {}),
      ...((door.description ?? spec.description) ? { description: door.description ?? spec.description } : {}),
      ...(door.deprecationReason ? { deprecationReason: door.deprecationReason } : {}),
    })(type.prototype, name);
    const read = door.read ?? readerOf(name, spec);
    const convert = door.raw ? undefined : conversionOf(spec.type);
    plan.push({ name, value: convert ? (source, ctx) => convert(read(source), source as never, ctx) : read });
  }
  ObjectType(definition.name, definition.description ? { description: definition.description } : {})(type);
  return type as unknown as Generated<R, F, Extra, U>;
}
