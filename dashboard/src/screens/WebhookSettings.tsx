import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '../data';
import { graphql } from '../generated';
import type { SendWebhookTestEventMutation } from '../generated/graphql';
import { ErrorText, Link, Loading, ShownOnce, when } from '../ui';

const SETTINGS = graphql(`
  query WebhookSettings {
    merchant {
      webhookUrl
      webhookEventTypes
    }
    webhookEventTypes
  }
`);
const CHOOSE = graphql(`
  mutation ChooseWebhookEventTypes($url: String, $eventTypes: [String!]) {
    setWebhookEndpoint(url: $url, eventTypes: $eventTypes) {
      webhookUrl
      webhookEventTypes
    }
  }
`);
const SEND_TEST = graphql(`
  mutation SendWebhookTestEvent {
    sendWebhookTestEvent {
      id
      deliveryStatus
      attempts {
        statusCode
        latencyMs
        success
        error
      }
    }
  }
`);

const SECRET = graphql(`
  query WebhookSecretOverlap {
    merchant {
      webhookSecretOverlapUntil
    }
  }
`);
const ROTATE = graphql(`
  mutation RotateWebhookSecret {
    rotateWebhookSecret {
      webhookSecret
      previousSecretExpiresAt
    }
  }
`);

/** Sent on request only, never chosen. */
const TEST_EVENT = 'webhook.test';
/** A transaction's progress before its outcome: chosen on purpose (the default leaves them out). */
const isProgress = (type: string) => type.endsWith('.processing') || type.endsWith('.requires_action');

/** Which event types are recorded and sent: the merchant's choice, saved with its endpoint. */
export function EventTypeChoice() {
  const [{ data, error }, reread] = useQuery({ query: SETTINGS });
  const [saving, choose] = useMutation(CHOOSE);
  const saved = saving.data ? (saving.operation?.variables.eventTypes ? 'Event types saved.' : 'Back to the default event types.') : '';

  async function save(eventTypes: string[] | null) {
    if (!data) return;
    // The saved choice, read again: the boxes start from it.
    if ((await choose({ url: data.merchant.webhookUrl, eventTypes })).data) reread();
  }

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    void save(new FormData(e.currentTarget).getAll('type').map(String));
  }

  if (error) return <ErrorText error={error} />;
  if (!data) return <Loading what="the event types" />;
  const chosen = new Set(data.merchant.webhookEventTypes);
  const selectable = data.webhookEventTypes.filter((t) => t !== TEST_EVENT);
  const group = (progress: boolean) =>
    selectable
      .filter((t) => isProgress(t) === progress)
      .map((t) => (
        <label key={t} className="check">
          <input type="checkbox" name="type" value={t} defaultChecked={chosen.has(t)} />
          <code>{t}</code>
        </label>
      ));
  return (
    // Keyed by the saved choice: the boxes start from it again after a save.
    <form key={[...chosen].join()} className="event-types" aria-label="Which events you receive" onSubmit={submit}>
      <fieldset>
        <legend>Outcomes and KYC decisions (the default)</legend>
        {group(false)}
      </fieldset>
      <fieldset>
        <legend>Progress: a transaction created, a payment awaiting 3-D Secure</legend>
        {group(true)}
      </fieldset>
      <p className="muted">A type left out is neither recorded in the event log nor sent.</p>
      <button type="submit">Save event types</button>{' '}
      <button type="button" className="secondary" onClick={() => void save(null)}>
        Use the default
      </button>
      <p role="status" className="muted">
        {saved}
      </p>
      <ErrorText error={saving.error} />
    </form>
  );
}

/** How the endpoint answered a test event (its first attempt), in words. */
function outcome(event: SendWebhookTestEventMutation['sendWebhookTestEvent']): string {
  const attempt = event.attempts[0];
  return !attempt
    ? 'Test event queued.'
    : attempt.success
      ? `Your endpoint answered ${attempt.statusCode} in ${attempt.latencyMs} ms.`
      : attempt.statusCode
        ? `Your endpoint answered ${attempt.statusCode}; it will be retried.`
        : attempt.error
          ? `Not delivered: ${attempt.error}. It will be retried.`
          : 'Sending…';
}

/** Sends a signed webhook.test now and says how the endpoint answered. */
export function TestEventButton() {
  const [{ data, fetching: busy, error }, sendTest] = useMutation(SEND_TEST);
  const event = data?.sendWebhookTestEvent;

  return (
    <div className="test-event">
      <button type="button" onClick={() => void sendTest({})} disabled={busy}>
        {busy ? 'Sending…' : 'Send test event'}
      </button>
      <p role="status" className="muted">
        {event && (
          <>
            {outcome(event)} <Link to={`/webhooks/${event.id}`}>See the event</Link>
          </>
        )}
      </p>
      <ErrorText error={error} />
    </div>
  );
}

/** The signing secret: rotated on request, the new one shown once; the old one keeps signing for 24 hours. */
export function WebhookSecret() {
  const [{ data, error }, reread] = useQuery({ query: SECRET });
  const [rotation, rotateSecret] = useMutation(ROTATE);
  /** The new secret, until "I have stored it". */
  const [secret, setSecret] = useState<string | null>(null);

  async function rotate() {
    if (!confirm('Rotate the webhook signing secret? The old one keeps signing for 24 hours.')) return;
    const res = await rotateSecret({});
    if (!res.data) return;
    setSecret(res.data.rotateWebhookSecret.webhookSecret);
    reread();
  }

  if (error) return <ErrorText error={error} />;
  if (!data) return <Loading what="the signing secret" />;
  return (
    <div className="test-event">
      <p className="muted">
        {data.merchant.webhookSecretOverlapUntil ? (
          <span data-testid="overlap">The previous secret also signs deliveries until {when(data.merchant.webhookSecretOverlapUntil)}.</span>
        ) : (
          'One secret signs deliveries; it was shown once, when the merchant was created.'
        )}
      </p>
      <button type="button" className="secondary" onClick={() => void rotate()}>
        Rotate webhook secret
      </button>
      <ErrorText error={rotation.error} />
      {secret && (
        <ShownOnce
          title="Your new webhook secret"
          secrets={[{ label: 'Webhook secret', value: secret, testId: 'new-secret' }]}
          done="I have stored it"
          onDone={() => setSecret(null)}
        >
          It is shown only now: store it where your webhook receiver reads it.
        </ShownOnce>
      )}
    </div>
  );
}
