import { defineTopic } from '../../events/pubsub';

/** The outbox module's pub/sub topics. */
export const OutboxTopic = {
  /** A merchant changed the event types it receives: every instance forgets what it cached of them. */
  EventChoiceChanged: defineTopic<{ merchantId: string }>('webhooks.event_choice_changed'),
};
