import { createHash } from 'node:crypto';

/** A provider reference derived from the idempotency key: a repeated request gets the same one, as a real provider's idempotency would give. */
export function providerReference(prefix: string, idempotencyKey: string): string {
  return `sbx_${prefix}_${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 20)}`;
}
