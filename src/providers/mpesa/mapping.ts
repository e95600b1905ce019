import type { InboundNotification, ParsedNotification, StoredNotification } from '../connector';
import { bodyDigest, field, lenientJson } from '../provider-http';
import { statusVerdict } from './statuses';

/** Daraja's timestamp, YYYYMMDDHHmmss in Kenya's time (UTC+3, no daylight saving). */
export function darajaTimestamp(at: Date): string {
  return new Date(at.getTime() + 3 * 3600_000).toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

export function stkPassword(shortcode: string, passkey: string, timestamp: string): string {
  return Buffer.from(`${shortcode}${passkey}${timestamp}`).toString('base64');
}

/** Daraja's items (`[{Name|Key, Value}]`) as a map. */
function items(list: unknown): Map<string, string> {
  const map = new Map<string, string>();
  for (const item of Array.isArray(list) ? list : list ? [list] : []) {
    const key = field(item, 'Name') ?? field(item, 'Key');
    const value = field(item, 'Value');
    if (key && value !== null) map.set(key, value);
  }
  return map;
}

/**
 * An STK callback (`Body.stkCallback`), a B2C result or a Transaction Status result (`Result`),
 * or anything else: kept and read, never believed by itself.
 */
export function parseDarajaNotification(notification: InboundNotification): ParsedNotification {
  const json = lenientJson(notification.body);
  const parsed: ParsedNotification = {
    dedupeKey: bodyDigest(notification.body),
    providerReference: null,
    claimed: null,
  };
  const stk = (json as { Body?: { stkCallback?: unknown } } | undefined)?.Body?.stkCallback;
  if (stk) {
    parsed.providerReference = field(stk, 'CheckoutRequestID');
    parsed.claimed = field(stk, 'ResultCode');
    return parsed;
  }
  const result = (json as { Result?: unknown } | undefined)?.Result;
  if (!result) return parsed;
  const code = field(result, 'ResultCode');
  const conversation = field(result, 'ConversationID');
  const params = items((result as { ResultParameters?: { ResultParameter?: unknown } }).ResultParameters?.ResultParameter);
  parsed.claimed = code;
  parsed.providerReference = conversation;
  // Read as a Transaction Status answer too: it counts as one only if `conversation` is the id of a query we sent
  // (a B2C's own result carries the payment's ConversationID, which is no query's).
  if (conversation) parsed.answersQuery = { queryId: conversation, decision: statusVerdict(code, params) };
  return parsed;
}

/** How long a status question is taken to be out (unanswered) before another may be asked. */
const QUESTION_OUT_MS = 60_000;

/** Whether a notification answers a status query we sent. */
export function isAnswer(n: StoredNotification, notifications: StoredNotification[]): boolean {
  const id = n.parsed.answersQuery?.queryId;
  return id !== undefined && notifications.some((m) => m.parsed.sentQuery === id);
}

/** Whether the newest query we sent is still unanswered and recent. */
export function questionOut(notifications: StoredNotification[], now: Date): boolean {
  const sent = [...notifications].reverse().find((n) => n.parsed.sentQuery);
  if (!sent) return false;
  const answered = notifications.some((n) => n.parsed.answersQuery?.queryId === sent.parsed.sentQuery);
  return !answered && now.getTime() - new Date(sent.receivedAt).getTime() < QUESTION_OUT_MS;
}

/** The newest status answer that answers a query we sent (a forged one answers none). */
export function validAnswer(notifications: StoredNotification[]): ParsedNotification['answersQuery'] | null {
  const sent = new Set(notifications.map((n) => n.parsed.sentQuery).filter(Boolean));
  for (const n of [...notifications].reverse()) {
    if (n.parsed.answersQuery && sent.has(n.parsed.answersQuery.queryId)) return n.parsed.answersQuery;
  }
  return null;
}

/** The provider references notifications named, newest first. */
export function references(notifications: StoredNotification[]): string[] {
  return [...new Set([...notifications].reverse().flatMap((n) => (n.parsed.providerReference ? [n.parsed.providerReference] : [])))];
}
