import type { S3Client } from '@aws-sdk/client-s3';
import type { S3Config } from '../../../config';

/** Where a file's bytes live: in its own row, or in S3-compatible object storage. */
export type StorageName = 'postgres' | 's3';

/** What a file's row keeps to find its bytes again: the bytes themselves, or the object's key. */
export interface StoredBytes {
  storageKey: string | null;
  content: Buffer | null;
}

/**
 * A home for evidence files' bytes. `put` runs before the file's row is written and returns what the row keeps;
 * `get` reads them back from what a row kept. Writing the bytes first means a failure in between leaves at worst an
 * object no row names (unreachable, harmless), never a row whose bytes are missing.
 */
export interface FileStorage {
  readonly name: StorageName;
  put(key: string, bytes: Buffer, contentType: string): Promise<StoredBytes>;
  get(stored: StoredBytes): Promise<Buffer>;
}

/**
 * The default: the bytes go in the file's row itself (`dispute_file.content`), written and read by the same
 * statement as the row, so there is nothing to do here but hand them over.
 */
export class PostgresFileStorage implements FileStorage {
  readonly name = 'postgres' as const;

  async put(_key: string, bytes: Buffer): Promise<StoredBytes> {
    return { storageKey: null, content: bytes };
  }

  async get(stored: StoredBytes): Promise<Buffer> {
    if (stored.content === null) throw new Error('PostgresFileStorage: the row holds no content');
    return stored.content;
  }
}

/** How long one request to the object store may take (the SDK retries a failed one, 3 attempts in all). */
const S3_REQUEST_TIMEOUT_MS = 30_000;
const S3_CONNECTION_TIMEOUT_MS = 5_000;

type Sdk = typeof import('@aws-sdk/client-s3');
/** The AWS SDK, loaded only when S3 is configured: it adds about 22 MB to the process (BENCHMARKS.md, issue 39). */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a load on demand, where a static import would always cost it
const loadSdk = (): Sdk => require('@aws-sdk/client-s3') as Sdk;

/** S3-compatible object storage (AWS S3, MinIO, R2, …) through the AWS SDK, when S3_* is configured. */
export class S3FileStorage implements FileStorage {
  readonly name = 's3' as const;
  private readonly sdk: Sdk = loadSdk();
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(config: S3Config) {
    this.bucket = config.bucket;
    this.client = new this.sdk.S3Client({
      region: config.region,
      ...(config.endpoint !== undefined ? { endpoint: config.endpoint } : {}),
      forcePathStyle: config.forcePathStyle,
      credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
      // Checksums only where the API requires them: S3-compatible stores do not all accept the SDK's default
      // CRC32 trailers; the file's SHA-256 is kept in its row and checked on every read instead.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      requestHandler: { requestTimeout: S3_REQUEST_TIMEOUT_MS, connectionTimeout: S3_CONNECTION_TIMEOUT_MS },
    });
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<StoredBytes> {
    await this.client.send(
      new this.sdk.PutObjectCommand({ Bucket: this.bucket, Key: key, Body: bytes, ContentType: contentType, ContentLength: bytes.length }),
    );
    return { storageKey: key, content: null };
  }

  async get(stored: StoredBytes): Promise<Buffer> {
    if (stored.storageKey === null) throw new Error('S3FileStorage: the row holds no storage key');
    const answer = await this.client.send(new this.sdk.GetObjectCommand({ Bucket: this.bucket, Key: stored.storageKey }));
    if (answer.Body === undefined) throw new Error(`S3FileStorage: no body for ${stored.storageKey}`);
    return Buffer.from(await answer.Body.transformToByteArray());
  }

  close(): void {
    this.client.destroy();
  }
}
