/**
 * A local S3-compatible object store, enough for the AWS SDK's PutObject, GetObject and HeadObject in path style
 * (`http://127.0.0.1:<port>/<bucket>/<key>`), as S3's API reference describes them: the object's bytes, Content-Type,
 * Content-Length and a quoted MD5 ETag; S3's XML errors (`NoSuchKey`, `NoSuchBucket`, `AccessDenied`,
 * `InvalidAccessKeyId`, `XAmzContentSHA256Mismatch`); HEAD answers headers only.
 *
 * Authentication: every request must carry a SigV4 `Authorization` header (`AWS4-HMAC-SHA256 Credential=<key id>/…`)
 * naming the fake's access key id, and an `x-amz-content-sha256` that, when it is a digest, is the body's. The signature
 * itself is not recomputed (the SDK computes it; the fake checks that it is there and whose it is).
 *
 * Listens on 127.0.0.1 only and sends nothing anywhere.
 */
import { createHash, randomBytes } from 'node:crypto';
import type http from 'node:http';
import { startFakeServer } from './fake-http';

export interface S3FakeObject {
  bytes: Buffer;
  contentType: string;
  etag: string;
}

export interface S3FakeRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  bodyLength: number;
}

const SIGV4 = /^AWS4-HMAC-SHA256 Credential=([^/\s]+)\/(\d{8})\/([^/\s]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/;

export class S3Fake {
  /** Objects by `<bucket>/<key>`. */
  readonly objects = new Map<string, S3FakeObject>();
  readonly requests: S3FakeRequest[] = [];

  constructor(
    private readonly server: http.Server,
    readonly url: string,
    readonly bucket: string,
    readonly accessKeyId: string,
  ) {}

  static start(options: { bucket?: string; accessKeyId?: string } = {}): Promise<S3Fake> {
    const bucket = options.bucket ?? 'dispute-files';
    const accessKeyId = options.accessKeyId ?? 'FAKEACCESSKEY0000001';
    return startFakeServer(
      (server, url) => new S3Fake(server, url, bucket, accessKeyId),
      (fake, req, res) => fake.serve(req, res),
    );
  }

  /** The object stored under `key` in the fake's bucket, if any. */
  object(key: string): S3FakeObject | undefined {
    return this.objects.get(`${this.bucket}/${key}`);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private serve(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('error', () => undefined);
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const method = req.method ?? 'GET';
      const path = req.url ?? '/';
      this.requests.push({ method, path, headers: { ...req.headers }, bodyLength: body.length });
      this.answer(method, path, req.headers, body, res);
    });
  }

  private answer(method: string, rawPath: string, headers: http.IncomingHttpHeaders, body: Buffer, res: http.ServerResponse): void {
    const resource = new URL(rawPath, this.url).pathname;
    const refusal = this.authenticate(headers, body);
    if (refusal) return xmlError(res, method, refusal.status, refusal.code, refusal.message, resource);

    // Path style: /<bucket>/<key…>; the key is percent-decoded as S3 does.
    const match = /^\/([^/]+)\/(.+)$/.exec(resource);
    if (!match) return xmlError(res, method, 501, 'NotImplemented', 'This fake serves path-style object requests only', resource);
    const [, bucket, encodedKey] = match as unknown as [string, string, string];
    if (bucket !== this.bucket) return xmlError(res, method, 404, 'NoSuchBucket', 'The specified bucket does not exist', resource);
    const id = `${bucket}/${decodeURIComponent(encodedKey)}`;

    if (method === 'PUT') {
      if (headers['content-encoding']?.includes('aws-chunked')) {
        return xmlError(res, method, 501, 'NotImplemented', 'aws-chunked uploads are not served by this fake', resource);
      }
      const etag = `"${createHash('md5').update(body).digest('hex')}"`;
      this.objects.set(id, { bytes: body, contentType: String(headers['content-type'] ?? 'binary/octet-stream'), etag });
      res.writeHead(200, { etag, 'content-length': 0 });
      return void res.end();
    }
    if (method === 'GET' || method === 'HEAD') {
      const object = this.objects.get(id);
      if (!object) return xmlError(res, method, 404, 'NoSuchKey', 'The specified key does not exist.', resource);
      res.writeHead(200, { 'content-type': object.contentType, 'content-length': object.bytes.length, etag: object.etag, 'accept-ranges': 'bytes' });
      return void res.end(method === 'GET' ? object.bytes : undefined);
    }
    xmlError(res, method, 405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.', resource);
  }

  /** S3's answer to a request without our key's SigV4 header or with a payload digest that is not the body's. */
  private authenticate(headers: http.IncomingHttpHeaders, body: Buffer): { status: number; code: string; message: string } | null {
    const authorization = headers.authorization;
    if (typeof authorization !== 'string') return { status: 403, code: 'AccessDenied', message: 'Access Denied' };
    const sig = SIGV4.exec(authorization);
    if (!sig) return { status: 400, code: 'AuthorizationHeaderMalformed', message: 'The authorization header is malformed' };
    if (sig[1] !== this.accessKeyId) {
      return { status: 403, code: 'InvalidAccessKeyId', message: 'The AWS Access Key Id you provided does not exist in our records.' };
    }
    const signed = (sig[4] ?? '').split(';');
    if (!signed.includes('host') || !signed.includes('x-amz-date') || typeof headers['x-amz-date'] !== 'string') {
      return { status: 403, code: 'AccessDenied', message: 'host and x-amz-date must be signed' };
    }
    const payloadDigest = headers['x-amz-content-sha256'];
    if (typeof payloadDigest !== 'string')
      return { status: 400, code: 'InvalidRequest', message: 'Missing required header for this request: x-amz-content-sha256' };
    if (/^[0-9a-f]{64}$/.test(payloadDigest) && payloadDigest !== createHash('sha256').update(body).digest('hex')) {
      return { status: 400, code: 'XAmzContentSHA256Mismatch', message: "The provided 'x-amz-content-sha256' header does not match what was computed." };
    }
    return null;
  }
}

/** S3's error document (a HEAD answer has the status only: it has no body). */
function xmlError(res: http.ServerResponse, method: string, status: number, code: string, message: string, resource: string): void {
  const requestId = randomBytes(8).toString('hex').toUpperCase();
  const xml =
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${escapeXml(message)}</Message>` +
    `<Resource>${escapeXml(resource)}</Resource><RequestId>${requestId}</RequestId></Error>`;
  res.writeHead(status, {
    'content-type': 'application/xml',
    'x-amz-request-id': requestId,
    ...(method === 'HEAD' ? {} : { 'content-length': Buffer.byteLength(xml) }),
  });
  res.end(method === 'HEAD' ? undefined : xml);
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] ?? c);
}
