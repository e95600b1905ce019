import { Type } from '@mikro-orm/core';
import { Decimal } from '../shared/money';

/**
 * PostgreSQL `numeric` ↔ the service's Decimal, digit for digit. MikroORM's own
 * DecimalType compares values as JS numbers, which is exactly the binary float
 * arithmetic money must never go through.
 */
export class ExactDecimalType extends Type<Decimal | null, string | null> {
  override convertToDatabaseValue(value: Decimal | string | null | undefined): string | null {
    return value === null || value === undefined ? null : new Decimal(value).toFixed();
  }

  override convertToJSValue(value: string | Decimal | null | undefined): Decimal | null {
    return value === null || value === undefined ? null : new Decimal(value);
  }

  override compareValues(a: string | null, b: string | null): boolean {
    if (a === null || b === null || a === undefined || b === undefined) return a === b;
    return new Decimal(a).eq(new Decimal(b));
  }

  override compareAsType(): string {
    return 'string';
  }

  override toJSON(value: Decimal | null): string | null {
    return value === null ? null : new Decimal(value).toFixed();
  }

  override getColumnType(): string {
    return 'numeric';
  }
}
