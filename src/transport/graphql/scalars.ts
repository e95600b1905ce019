import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { Decimal } from '../../shared/money';

const DECIMAL_TEXT = /^-?\d+(\.\d+)?$/;
const HOW = 'send it as a string, e.g. "100.50"';

function fromText(text: string): Decimal {
  if (!DECIMAL_TEXT.test(text)) throw new GraphQLError('Decimal must be a plain decimal number such as "100.50" (no exponent, no spaces)');
  return new Decimal(text);
}

/**
 * Money on the GraphQL wire: an exact decimal as a string. Output keeps the exact
 * digits (amounts carry their currency's minor-unit decimals: "100.00", "3700").
 * Input takes a string, or an Int for whole amounts; a Float is refused, because
 * a binary float cannot carry an exact decimal amount. Whether a value is a
 * valid amount (positive, within the currency's decimals) is the service's call.
 */
export const DecimalScalar = new GraphQLScalarType<Decimal, string>({
  name: 'Decimal',
  description:
    'An exact decimal number, as a string on the wire ("100.50"). Money amounts carry exactly their currency\'s minor-unit decimals ("100.00" USD, "3700" UGX). Input: a string or an Int; a Float is refused.',
  serialize(value: unknown): string {
    if (Decimal.isDecimal(value) && value.isFinite()) return new Decimal(value).toFixed();
    if (typeof value === 'string' && DECIMAL_TEXT.test(value)) return value;
    throw new GraphQLError('Decimal cannot represent a value that is not an exact decimal');
  },
  parseValue(value: unknown): Decimal {
    if (typeof value === 'string') return fromText(value);
    if (typeof value === 'number') {
      if (Number.isSafeInteger(value)) return new Decimal(value);
      throw new GraphQLError(`Decimal does not accept a float: ${HOW}`);
    }
    throw new GraphQLError(`Decimal must be a string: ${HOW}`);
  },
  parseLiteral(ast: ValueNode): Decimal {
    if (ast.kind === Kind.STRING) return fromText(ast.value);
    if (ast.kind === Kind.INT) return new Decimal(ast.value);
    if (ast.kind === Kind.FLOAT) throw new GraphQLError(`Decimal does not accept a float literal: ${HOW}`);
    throw new GraphQLError(`Decimal must be a string: ${HOW}`);
  },
});
