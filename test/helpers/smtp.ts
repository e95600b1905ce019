import { EventEmitter } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message the test server accepted, parsed as far as the tests need. */
export interface ReceivedMail {
  /** The SMTP envelope: MAIL FROM and RCPT TO, as the client sent them. */
  envelope: { from: string | undefined; to: string[] };
  /** The user the client logged in as, and how (PLAIN, LOGIN), if it did. */
  authenticatedAs: string | undefined;
  authMethod: string | undefined;
  /** Header values, unfolded and with encoded words decoded; names in lower case. */
  headers: Map<string, string>;
  from: string;
  to: string;
  subject: string;
  /** The decoded text/plain and text/html parts. */
  text: string | undefined;
  html: string | undefined;
  raw: Buffer;
}

export interface TestSmtpServer {
  port: number;
  /** An SMTP_URL for this server, with these credentials (percent-encoded here). */
  url(user?: string, pass?: string): string;
  /** Every message accepted so far, in order. */
  messages: ReceivedMail[];
  /** Open client connections right now (a closed pool leaves none). */
  openConnections(): number;
  /** Client connections accepted since the start. */
  connectionsAccepted(): number;
  /** The first message, received already or later, that matches; rejects after timeoutMs. */
  waitForMessage(predicate?: (m: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/**
 * A real SMTP server on 127.0.0.1 and a free port: a plain connection (no STARTTLS), AUTH PLAIN or LOGIN optional,
 * and when `credentials` are given only those are accepted (a wrong login answers 535).
 */
export async function startSmtpServer(credentials?: { user: string; pass: string }): Promise<TestSmtpServer> {
  const messages: ReceivedMail[] = [];
  const arrivals = new EventEmitter();
  const authMethods = new Map<string, string>();
  let accepted = 0;
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(_session, callback) {
      accepted += 1;
      callback();
    },
    onAuth(auth, session, callback) {
      if (credentials && (auth.username !== credentials.user || auth.password !== credentials.pass)) {
        return callback(new Error('Invalid username or password'));
      }
      authMethods.set(session.id, auth.method);
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        const mail = parseMail(raw, {
          envelope: {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
            to: session.envelope.rcptTo.map((r) => r.address),
          },
          authenticatedAs: typeof session.user === 'string' ? session.user : undefined,
          authMethod: authMethods.get(session.id),
        });
        messages.push(mail);
        arrivals.emit('mail', mail);
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    messages,
    url: (user, pass) => {
      const login = user === undefined ? '' : `${encodeURIComponent(user)}${pass === undefined ? '' : `:${encodeURIComponent(pass)}`}@`;
      return `smtp://${login}127.0.0.1:${port}`;
    },
    openConnections: () => server.connections.size,
    connectionsAccepted: () => accepted,
    waitForMessage(predicate = () => true, timeoutMs = 10_000) {
      const already = messages.find(predicate);
      if (already) return Promise.resolve(already);
      return new Promise((resolve, reject) => {
        const onMail = (m: ReceivedMail) => {
          if (!predicate(m)) return;
          clearTimeout(timer);
          arrivals.off('mail', onMail);
          resolve(m);
        };
        const timer = setTimeout(() => {
          arrivals.off('mail', onMail);
          reject(new Error(`no matching message within ${timeoutMs} ms (${messages.length} received: ${messages.map((m) => m.subject).join(' | ')})`));
        }, timeoutMs);
        arrivals.on('mail', onMail);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first absolute link in the message's text part whose path starts with `pathPrefix` (e.g. `/dashboard/reset-password`). */
export function linkIn(message: ReceivedMail, pathPrefix: string): string {
  const links = (message.text ?? '').match(/https?:\/\/[^\s<>"]+/g) ?? [];
  const link = links.find((l) => new URL(l).pathname.startsWith(pathPrefix));
  if (!link) throw new Error(`no link to ${pathPrefix} in "${message.subject}": ${links.join(', ') || 'no links'}`);
  return link;
}

// A small MIME reader: enough for what nodemailer writes (multipart/alternative of text and HTML, quoted-printable
// or base64 bodies, RFC 2047 encoded words in headers). A test that needs more should read `raw` itself.

function parseMail(raw: Buffer, meta: Pick<ReceivedMail, 'envelope' | 'authenticatedAs' | 'authMethod'>): ReceivedMail {
  const entity = parseEntity(raw.toString('latin1'));
  const parts = leafParts(entity);
  const body = (type: string) => {
    const part = parts.find((p) => mediaType(p.headers) === type);
    return part && decodeBody(part);
  };
  const header = (name: string) => entity.headers.get(name) ?? '';
  return {
    ...meta,
    headers: entity.headers,
    from: header('from'),
    to: header('to'),
    subject: header('subject'),
    text: body('text/plain'),
    html: body('text/html'),
    raw,
  };
}

/** One MIME entity; the text is latin1, one character per byte, until a body is decoded. */
interface Entity {
  headers: Map<string, string>;
  body: string;
}

function parseEntity(source: string): Entity {
  const split = source.search(/\r?\n\r?\n/);
  const head = split < 0 ? source : source.slice(0, split);
  const body = split < 0 ? '' : source.slice(split).replace(/^\r?\n\r?\n/, '');
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), decodeWords(line.slice(colon + 1).trim()));
  }
  return { headers, body };
}

function leafParts(entity: Entity): Entity[] {
  const boundary = param(entity.headers.get('content-type') ?? '', 'boundary');
  if (!mediaType(entity.headers).startsWith('multipart/') || !boundary) return [entity];
  const delimiter = `--${boundary}`;
  const sections = entity.body.split(new RegExp(`\\r?\\n?${escapeRegExp(delimiter)}(?:--)?[ \\t]*\\r?\\n?`));
  // Before the first delimiter is the preamble, after the last the epilogue.
  return sections.slice(1, -1).flatMap((s) => leafParts(parseEntity(s)));
}

function decodeBody(part: Entity): string {
  const encoding = (part.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  const charset = (param(part.headers.get('content-type') ?? '', 'charset') ?? 'utf-8').toLowerCase();
  let bytes: Buffer;
  if (encoding === 'base64') bytes = Buffer.from(part.body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64');
  else if (encoding === 'quoted-printable') bytes = decodeQuotedPrintable(part.body);
  else bytes = Buffer.from(part.body, 'latin1');
  return bytes.toString(charset === 'utf-8' || charset === 'utf8' ? 'utf8' : 'latin1').replace(/\r\n/g, '\n');
}

function decodeQuotedPrintable(body: string): Buffer {
  const unwrapped = body.replace(/[ \t]+(?=\r?\n)/g, '').replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < unwrapped.length; i++) {
    const hex = unwrapped.slice(i + 1, i + 3);
    if (unwrapped[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(unwrapped.charCodeAt(i) & 0xff);
    }
  }
  return Buffer.from(bytes);
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`); the space between two adjacent ones is dropped. */
function decodeWords(value: string): string {
  const word = '=\\?[^?]+\\?[QqBb]\\?[^?]*\\?=';
  const joined = value.replace(new RegExp(`(${word})\\s+(?=${word})`, 'g'), '$1');
  const decoded = joined.replace(/=\?[^?]+\?([QqBb])\?([^?]*)\?=/g, (_w, kind: string, text: string) =>
    (kind.toUpperCase() === 'B' ? Buffer.from(text, 'base64') : decodeQuotedPrintable(text.replace(/_/g, ' '))).toString('latin1'),
  );
  // Read as latin1 (one character per byte), encoded words included: decoded once, as the UTF-8 nodemailer writes.
  return Buffer.from(decoded, 'latin1').toString('utf8');
}

function mediaType(headers: Map<string, string>): string {
  return (headers.get('content-type') ?? 'text/plain').split(';', 1)[0]!.trim().toLowerCase();
}

function param(headerValue: string, name: string): string | undefined {
  const match = new RegExp(`;\\s*${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]+))`, 'i').exec(headerValue);
  return match ? (match[1] ?? match[2]) : undefined;
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
