import { Type } from '@mikro-orm/core';
import { Decimal } from '../shared/money';

/**
 * PostgreSQL `numeric` ↔ the service's Decimal, digit for digit. MikroORM's own
 * DecimalType compares values as JS numbers, which is exactly the binary float
 * arithmetic money must never go through.
 */
export class ExactDecimalType extends Type<Decimal, string> {
  override convertToDatabaseValue(value: Decimal | string): string {
    return new Decimal(value).toFixed();
  }

  override convertToJSValue(value: string | Decimal): Decimal {
    return new Decimal(value);
  }

  override compareValues(a: string, b: string): boolean {
    return new Decimal(a).eq(new Decimal(b));
  }

  override compareAsType(): string {
    return 'string';
  }

  override toJSON(value: Decimal): string {
    return new Decimal(value).toFixed();
  }

  override getColumnType(): string {
    return 'numeric';
  }
}
