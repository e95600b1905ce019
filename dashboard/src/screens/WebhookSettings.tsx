import { useState, type FormEvent } from 'react';
import { graphql } from '../generated';
import { gql } from '../session';
import { ErrorText, Link, Loading, useLoad } from '../ui';

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

/** Sent on request only, never chosen. */
const TEST_EVENT = 'webhook.test';
/** A transaction's progress before its outcome: chosen on purpose (the default leaves them out). */
const isProgress = (type: string) => type.endsWith('.processing') || type.endsWith('.requires_action');

/** Which event types are recorded and sent: the merchant's choice, saved with its endpoint. */
export function EventTypeChoice() {
  const { data, error, set } = useLoad(() => gql(SETTINGS), []);
  const [saveError, setSaveError] = useState<unknown>(null);
  const [saved, setSaved] = useState('');

  async function save(eventTypes: string[] | null) {
    if (!data) return;
    setSaveError(null);
    setSaved('');
    try {
      const res = await gql(CHOOSE, { url: data.merchant.webhookUrl, eventTypes });
      set({ ...data, merchant: res.setWebhookEndpoint });
      setSaved(eventTypes ? 'Event types saved.' : 'Back to the default event types.');
    } catch (err) {
      setSaveError(err);
    }
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
      <ErrorText error={saveError} />
    </form>
  );
}

/** Sends a signed webhook.test now and says how the endpoint answered. */
export function TestEventButton() {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ id: string; text: string } | null>(null);
  const [error, setError] = useState<unknown>(null);

  async function send() {
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      const { sendWebhookTestEvent: event } = await gql(SEND_TEST);
      const attempt = event.attempts[0];
      const text = !attempt
        ? 'Test event queued.'
        : attempt.success
          ? `Your endpoint answered ${attempt.statusCode} in ${attempt.latencyMs} ms.`
          : attempt.statusCode
            ? `Your endpoint answered ${attempt.statusCode}; it will be retried.`
            : attempt.error
              ? `Not delivered: ${attempt.error}. It will be retried.`
              : 'Sending…';
      setResult({ id: event.id, text });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="test-event">
      <button type="button" onClick={() => void send()} disabled={busy}>
        {busy ? 'Sending…' : 'Send test event'}
      </button>
      <p role="status" className="muted">
        {result && (
          <>
            {result.text} <Link to={`/webhooks/${result.id}`}>See the event</Link>
          </>
        )}
      </p>
      <ErrorText error={error} />
    </div>
  );
}
