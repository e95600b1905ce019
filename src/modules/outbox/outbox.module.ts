import { defineModule, type ModuleInfra } from '../module';
import { EventChoices } from './event-choices';
import { Outbox, type EventFollowUpsSql } from './outbox';
import { OutboxTopic } from './outbox.topics';

/**
 * The transactional outbox (events written with the change that causes them) and each merchant's
 * choice of events. `followUps`: what the other modules add to an event's statement (their
 * `outboxFollowUps`), collected by the root from the module list.
 */
export const outboxModule = defineModule({
  name: 'outbox',
  topics: Object.values(OutboxTopic),
  create: ({ clock, sql, pubsub, logger }: Pick<ModuleInfra, 'clock' | 'sql' | 'pubsub' | 'logger'>, { followUps }: { followUps: EventFollowUpsSql[] }) => {
    const eventChoices = new EventChoices({ sql, pubsub, logger });
    return {
      services: { outbox: new Outbox({ clock, followUps }), eventChoices },
      start: () => eventChoices.start(),
      stop: () => eventChoices.stop(),
    };
  },
});
