import type { Api } from './api';

interface EventDetail {
  id: string;
  type: string;
  attempts: {
    attempt_number: number;
    url: string | null;
    status_code: number | null;
    success: boolean | null;
    error: string | null;
    latency_ms: number | null;
  }[];
}

/** How long `events resend` waits for the attempt's outcome before saying it is still on its way. */
const RESEND_WAIT_MS = 30_000;

/**
 * `events resend <id>`: delivers the event again to the merchant's webhook endpoint (POST
 * /v1/webhooks/events/{id}/resend, same webhook-id, signed with the endpoint's secret), as Stripe's `events resend`
 * does, and prints how the endpoint answered. It does not go to a `listen` session: listen forwards events as they
 * are recorded; trigger a new one to see it there.
 */
export async function resend(api: Api, id: string, print: (line: string) => void): Promise<void> {
  const detail = await api.request<EventDetail>('POST', `/v1/webhooks/events/${encodeURIComponent(id)}/resend`);
  const before = detail.attempts.length;
  print(`Resending ${detail.type} [${detail.id}] to your webhook endpoint`);
  const deadline = Date.now() + RESEND_WAIT_MS;
  for (;;) {
    const now = await api.request<EventDetail>('GET', `/v1/webhooks/events/${encodeURIComponent(id)}`);
    const attempt = now.attempts.find((a) => a.attempt_number > before && a.latency_ms !== null);
    if (attempt) {
      const answer = attempt.status_code === null ? `[ERR] ${attempt.error}` : `[${attempt.status_code}]`;
      return print(`${new Date().toISOString()}  --> ${now.type} [${now.id}]  <-- ${answer} POST ${attempt.url} (attempt ${attempt.attempt_number})`);
    }
    if (Date.now() > deadline) return print(`The attempt has not finished within ${RESEND_WAIT_MS / 1000} s; see GET /v1/webhooks/events/${id}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
