import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../shared/clock';
import { randomToken } from '../../shared/crypto';
import type { EventType } from './event-types';
import { OutboxEvent } from './outbox-event.entity';

/**
 * Records an event on `em`, which must be the transaction that makes the state
 * change: both commit or neither does, so no change is ever without its event.
 */
export function recordEvent(
  em: EntityManager,
  clock: Clock,
  event: { merchantId: string; type: EventType; subjectId: string; payload: Record<string, unknown> },
): OutboxEvent {
  return em.create(OutboxEvent, { id: randomToken('evt', 16), createdAt: clock.now(), ...event });
}
