import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '../data';
import { graphql } from '../generated';
import type { WebhookEventRowFragment } from '../generated/graphql';
import { gql } from '../session';
import { Empty, EmptyState, ErrorText, Link, Loading, StatusBadge, when, whenExactly } from '../ui';
import { useCan } from '../access';
import { EventTypeChoice, TestEventButton, WebhookSecret } from './WebhookSettings';

type Row = WebhookEventRowFragment;
graphql(`
  fragment WebhookEventRow on WebhookEvent {
    id
    type
    reference
    customerUuid
    customer {
      firstName
      lastName
    }
    createdAt
    deliveryStatus
    attemptCount
    deliveredAt
    nextAttemptAt
  }
`);
graphql(`
  fragment WebhookEventFull on WebhookEvent {
    ...WebhookEventRow
    data
    attempts {
      attemptNumber
      attemptedAt
      url
      statusCode
      latencyMs
      success
      error
    }
  }
`);

/** The event types the service knows (its own list, through the API): read once, kept for the tab's life. */
const EVENT_TYPES = graphql(`
  query WebhookEventTypes {
    webhookEventTypes
  }
`);
let eventTypes: Promise<string[]> | null = null;
function readEventTypes(): Promise<string[]> {
  eventTypes ??= gql(EVENT_TYPES).then(
    (data) => data.webhookEventTypes,
    (err: unknown) => {
      eventTypes = null; // read again next time
      throw err;
    },
  );
  return eventTypes;
}
/** The event types, once read (none until then, or if they could not be). */
function useEventTypes(): string[] {
  const [types, setTypes] = useState<string[]>([]);
  useEffect(() => {
    let shown = true;
    readEventTypes().then(
      (list) => shown && setTypes(list),
      () => undefined,
    );
    return () => {
      shown = false;
    };
  }, []);
  return types;
}

const ENDPOINT = graphql(`
  query WebhookEndpoint {
    merchant {
      webhookUrl
    }
  }
`);
const SET_ENDPOINT = graphql(`
  mutation SetWebhookEndpoint($url: String) {
    setWebhookEndpoint(url: $url) {
      webhookUrl
    }
  }
`);
const EVENTS = graphql(`
  query WebhookEvents($type: String) {
    webhookEvents(first: 50, type: $type) {
      edges {
        node {
          ...WebhookEventRow
        }
      }
    }
  }
`);
const EVENT = graphql(`
  query WebhookEventDetail($id: String!) {
    webhookEvent(id: $id) {
      ...WebhookEventFull
    }
  }
`);
const RESEND = graphql(`
  mutation ResendWebhookEvent($id: String!) {
    resendWebhookEvent(id: $id) {
      ...WebhookEventFull
    }
  }
`);
/** The event log is re-read this often while it is open (deliveries are not streamed). */
const REFRESH_MS = 2000;

function Endpoint() {
  const [{ data, error }] = useQuery({ query: ENDPOINT });
  const [saving, setEndpoint] = useMutation(SET_ENDPOINT);
  const saved = saving.data ? (saving.data.setWebhookEndpoint.webhookUrl ? 'Endpoint saved.' : 'Endpoint removed.') : '';

  function save(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const url = String(new FormData(e.currentTarget).get('url')).trim();
    void setEndpoint({ url: url || null });
  }

  if (error) return <ErrorText error={error} />;
  if (!data) return <Loading what="the endpoint" />;
  return (
    <form className="inline" onSubmit={save} aria-label="Webhook endpoint">
      <label>
        Endpoint URL
        <input name="url" type="url" defaultValue={data.merchant.webhookUrl ?? ''} placeholder="https://example.com/webhooks" spellCheck={false} />
      </label>
      <button type="submit">Save endpoint</button>
      <p role="status" className="muted">
        {saved}
      </p>
      <ErrorText error={saving.error} />
    </form>
  );
}

export function Webhooks() {
  const manage = useCan()('webhooks:manage');
  const types = useEventTypes();
  const [type, setType] = useState('');
  const [{ data, error }, reread] = useQuery({ query: EVENTS, variables: { type: type || null } });
  const rows = data ? data.webhookEvents.edges.map((e) => e.node) : null;

  // Read again every REFRESH_MS while the log is open.
  useEffect(() => {
    const timer = setInterval(reread, REFRESH_MS);
    return () => clearInterval(timer);
  }, [reread]);

  return (
    <section aria-labelledby="wh-title">
      <h2 id="wh-title">Webhooks</h2>
      {manage && (
        <>
          <Endpoint />
          <TestEventButton />
          <h3>Signing secret</h3>
          <WebhookSecret />
          <h3>Event types</h3>
          <EventTypeChoice />
        </>
      )}
      <h3>Event log</h3>
      <form className="filters" aria-label="Filter events" onSubmit={(e) => e.preventDefault()}>
        <label>
          Event type
          <select value={type} onChange={(e) => setType(e.target.value)}>
            <option value="">All</option>
            {types.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </label>
      </form>
      <ErrorText error={error} />
      {rows === null && !error && <Loading what="events" />}
      {rows?.length === 0 &&
        (type ? (
          <EmptyState
            title={`No ${type} events yet`}
            action={
              <button type="button" className="secondary" onClick={() => setType('')}>
                Show every type
              </button>
            }
          >
            Events of this type are recorded when it happens; the log keeps the rest.
          </EmptyState>
        ) : (
          <EmptyState title="No events yet">
            An event is recorded when a transaction or a KYC review is decided (and, if you chose them, when a transaction is created), and sent to your
            endpoint when one is set.
          </EmptyState>
        ))}
      {rows && rows.length > 0 && (
        <div className="table-card">
          <table className="list events" aria-label="Events">
            <colgroup>
              <col className="c-event" />
              <col className="c-about" />
              <col className="c-delivery" />
              <col className="c-attempts" />
              <col className="c-date" />
            </colgroup>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">About</th>
                <th scope="col">Delivery</th>
                <th scope="col" className="num">
                  Attempts
                </th>
                <th scope="col">Date</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((e) => (
                <tr key={e.id} data-event={e.id}>
                  <td className="e-type">
                    <Link to={`/webhooks/${e.id}`}>
                      <EventType type={e.type} />
                    </Link>
                  </td>
                  <td className="e-about">
                    <EventSubject reference={e.reference} customerUuid={e.customerUuid} customer={e.customer} />
                  </td>
                  <td className="e-delivery">
                    <StatusBadge status={e.deliveryStatus ?? 'not_sent'} />
                  </td>
                  <td className="e-attempts num">
                    {e.attemptCount}
                    <span className="sr-only"> attempt{e.attemptCount === 1 ? '' : 's'}</span>
                  </td>
                  <td className="e-date muted">{when(e.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** An event type such as `payment.successful`: kept whole on one line (it never breaks mid-word). */
function EventType({ type }: { type: string }) {
  return <code className="event-type">{type}</code>;
}

/** What an event is about: its transaction (a link to it) or its customer (by name, a link to them). */
function EventSubject({ reference, customerUuid, customer }: { reference: string | null; customerUuid: string | null; customer: Row['customer'] }) {
  if (reference) return <Link to={`/transactions/${encodeURIComponent(reference)}`}>{reference}</Link>;
  if (customerUuid)
    return (
      <span className="muted">
        customer <Link to={`/customers/${customerUuid}`}>{customer ? `${customer.firstName} ${customer.lastName}` : customerUuid}</Link>
      </span>
    );
  return null;
}

export function WebhookEvent({ id }: { id: string }) {
  const canResend = useCan()('webhooks:manage');
  const [{ data, error }, reload] = useQuery({ query: EVENT, variables: { id } });
  const [resending, resendEvent] = useMutation(RESEND);
  /** After a resend: the attempt count it must pass (a new attempt is on its way). */
  const [awaiting, setAwaiting] = useState<number | null>(null);
  const count = data?.webhookEvent.attemptCount ?? 0;
  const watching = data?.webhookEvent.deliveryStatus === 'PENDING' || (awaiting !== null && count <= awaiting);

  // While a delivery is under way, its attempts are re-read (they are not streamed), for a minute at most.
  useEffect(() => {
    if (!watching) return undefined;
    let left = 30;
    const timer = setInterval(() => (left-- > 0 ? reload() : clearInterval(timer)), REFRESH_MS);
    return () => clearInterval(timer);
  }, [watching, reload]);

  async function resend() {
    const res = await resendEvent({ id });
    if (!res.data) return;
    setAwaiting(count);
    reload();
  }

  if (error) return <ErrorText error={error} />;
  if (!data) return <Loading what="the event" />;
  const e = data.webhookEvent;
  return (
    <section aria-labelledby="ev-title">
      <p>
        <Link to="/webhooks">← Webhooks</Link>
      </p>
      <h2 id="ev-title" className="title-with-badge">
        <EventType type={e.type} /> <StatusBadge status={e.deliveryStatus ?? 'not_sent'} />
      </h2>
      <p className="muted">
        <span className="mono">{e.id}</span> · recorded {when(e.createdAt)} ·{' '}
        <EventSubject reference={e.reference} customerUuid={e.customerUuid} customer={e.customer} />
      </p>
      {canResend && (
        <button type="button" onClick={() => void resend()}>
          Resend now
        </button>
      )}
      <ErrorText error={resending.error} />
      <h3 id="attempts-title">Attempts</h3>
      {e.attempts.length === 0 ? (
        <Empty>Not attempted yet.</Empty>
      ) : (
        <div className="table-card scroll" role="region" aria-labelledby="attempts-title" tabIndex={0}>
          <table className="attempts">
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Time</th>
                <th scope="col" className="num">
                  Status code
                </th>
                <th scope="col" className="num">
                  Latency
                </th>
                <th scope="col">Error</th>
              </tr>
            </thead>
            <tbody>
              {e.attempts.map((a, i) => (
                // An interrupted attempt and its retry share a number.
                <tr key={`${a.attemptNumber}-${i}`}>
                  <td>{a.attemptNumber}</td>
                  <td>{whenExactly(a.attemptedAt)}</td>
                  <td className="num">{a.statusCode ?? '—'}</td>
                  <td className="num">{a.latencyMs === null ? '—' : `${a.latencyMs} ms`}</td>
                  <td>{a.error ?? (a.success === null ? 'in flight' : a.success ? 'delivered' : '—')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h3>Payload</h3>
      <pre className="scroll">{JSON.stringify(e.data, null, 2)}</pre>
    </section>
  );
}
