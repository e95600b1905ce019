import { createHash, randomBytes } from 'node:crypto';
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import pino from 'pino';
import { loadConfig } from '../../../src/config';
import { Sql } from '../../../src/db/sql';
import type { DisputeFiles } from '../../../src/modules/disputes/files/dispute-files.service';
import { disputeFilesModule } from '../../../src/modules/disputes/files/files.module';
import { DISPUTE_FILE_MAX_BYTES } from '../../../src/modules/disputes/files/file-type';
import { AppError } from '../../../src/shared/errors';
import { S3Fake } from '../../fakes/s3.fake';
import { cardPaymentBody, initiatePayment } from '../../helpers/payments';
import { createTestApp, type TestApp } from '../../helpers/test-app';

/**
 * Dispute evidence files (issue 39, point 4) over the real PostgreSQL, stored in their rows (the default) and in
 * S3-compatible storage through the AWS SDK (against the local S3 fake): what is uploaded reads back byte for byte,
 * and a file too large, of another type, or whose name lies about its type is refused with nothing stored.
 */

const PDF_HEAD = Buffer.from('%PDF-1.7\n', 'latin1');
const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG_HEAD = Buffer.from([0xff, 0xd8, 0xff, 0xe0]);

/** `size` bytes starting with `head`, the rest random (every byte value, so nothing survives a text round trip by luck). */
const fileOf = (head: Buffer, size: number) => Buffer.concat([head, randomBytes(size - head.length)]);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('dispute evidence files', () => {
  let app: TestApp;
  let s3: S3Fake;
  let sql: Sql;
  const services: Record<'postgres' | 's3', DisputeFiles> = {} as never;
  const stops: Array<() => Promise<void>> = [];
  let mine: string;
  let theirs: string;
  const logger = pino({ level: 'silent' });
  const payments = new Map<string, { id: string; reference: string }>();

  /**
   * A dispute of the merchant's (a closed one: the lead's service opens real ones; here only the row matters, for the
   * files' key), by default of `mine`.
   */
  async function newDispute(merchantId: string = mine): Promise<string> {
    const id = `dp_${randomBytes(16).toString('base64url')}`;
    const payment = payments.get(merchantId)!;
    await sql.query(
      `insert into dispute (id, merchant_id, payment_id, payment_reference, provider, amount, currency, reason, status, created_at, updated_at, closed_at)
       values ($1, $2, $3, $4, 'sandbox', '100.00', 'NGN', 'general', 'won', now(), now(), now())`,
      [id, merchantId, payment.id, payment.reference],
    );
    return id;
  }

  /** The service as the module makes it, from the configuration these variables give. */
  function filesService(env: Record<string, string>): DisputeFiles {
    const config = loadConfig({ DATABASE_URL: app.db.url, ...env });
    const parts = disputeFilesModule.create({ config, sql, clock: app.clock, logger }, {});
    if (parts.stop) stops.push(parts.stop);
    return parts.services.disputeFiles;
  }

  const s3Env = () => ({
    S3_ENDPOINT: s3.url,
    S3_REGION: 'us-east-1',
    S3_BUCKET: s3.bucket,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: 'fake-secret-access-key',
    S3_FORCE_PATH_STYLE: 'true',
  });

  beforeAll(async () => {
    // The service's migrations on a fresh database, and two merchants.
    app = await createTestApp();
    s3 = await S3Fake.start();
    sql = new Sql({ url: app.db.url, max: 4, embedded: false, logger });
    for (const [name, set] of [
      ['Files Merchant', (id: string) => (mine = id)],
      ['Other Merchant', (id: string) => (theirs = id)],
    ] as const) {
      const credentials = await app.createMerchant(name);
      set(credentials.merchant.id);
      // A card payment of theirs, for their disputes to be about.
      const paid = await initiatePayment(app, (await app.token(credentials)).accessToken, cardPaymentBody());
      expect(paid.body.data.status).toBe('successful');
      const [payment] = await sql.query('select id, reference from "transaction" where reference = $1', [paid.body.data.reference]);
      payments.set(credentials.merchant.id, payment as { id: string; reference: string });
    }
    services.postgres = filesService({});
    services.s3 = filesService(s3Env());
  });

  afterAll(async () => {
    for (const stop of stops) await stop();
    await sql?.close();
    await s3?.close();
    await app?.close();
  });

  const rowOf = async (id: string) =>
    (await sql.query('select storage, storage_key, content, sha256, size from dispute_file where id = $1', [id]))[0] as
      { storage: string; storage_key: string | null; content: Buffer | null; sha256: string; size: number } | undefined;
  const fileCount = async () => Number((await sql.query('select count(*)::int as n from dispute_file'))[0]!.n);

  describe.each(['postgres', 's3'] as const)('stored in %s', (storage) => {
    const files = () => services[storage];

    it('uploads a PDF, a PNG and a JPEG and reads each back byte for byte, with its SHA-256', async () => {
      const disputeId = await newDispute();
      const uploads = [
        { filename: 'receipt.pdf', bytes: fileOf(PDF_HEAD, 200_000), type: 'application/pdf' },
        { filename: 'delivery photo.PNG', bytes: fileOf(PNG_HEAD, 1234), type: 'image/png' },
        { filename: 'C:\\scans\\signature.jpeg', bytes: fileOf(JPEG_HEAD, 50_000), type: 'image/jpeg' },
      ];
      const records = [];
      for (const u of uploads) {
        const record = await files().upload({ merchantId: mine, disputeId, filename: u.filename, bytes: u.bytes });
        expect(record).toMatchObject({ merchantId: mine, disputeId, contentType: u.type, size: u.bytes.length, sha256: sha256(u.bytes), storage });
        expect(record.id).toMatch(/^file_[A-Za-z0-9_-]{22}$/);
        records.push(record);
        // created_at is the clock's, to the millisecond: the test clock moves on, so each file is later than the last.
        app.clock.advance(1);

        const read = await files().get(mine, record.id);
        expect(read.record).toEqual(record);
        expect(read.bytes.equals(u.bytes)).toBe(true);
        expect(sha256(read.bytes)).toBe(record.sha256);
      }
      // The path a client sent is not kept.
      expect(records[2]!.filename).toBe('signature.jpeg');
      expect(await files().list(mine, disputeId)).toEqual(records);

      // Where the bytes are: in the row, or in the bucket under a key that names no client text.
      const row = await rowOf(records[0]!.id);
      if (storage === 'postgres') {
        expect(row).toMatchObject({ storage: 'postgres', storage_key: null });
        expect(row!.content!.equals(uploads[0]!.bytes)).toBe(true);
      } else {
        expect(row).toMatchObject({ storage: 's3', content: null, storage_key: `dispute-files/${mine}/${records[0]!.id}` });
        const object = s3.object(row!.storage_key!)!;
        expect(object.bytes.equals(uploads[0]!.bytes)).toBe(true);
        expect(object.contentType).toBe('application/pdf');
      }
    });

    it('takes a file of exactly 5 MB and refuses one byte more, storing nothing', async () => {
      const disputeId = await newDispute();
      const largest = fileOf(PDF_HEAD, DISPUTE_FILE_MAX_BYTES);
      const record = await files().upload({ merchantId: mine, disputeId, filename: 'largest.pdf', bytes: largest });
      expect(record.size).toBe(5 * 1024 * 1024);
      expect((await files().get(mine, record.id)).bytes.equals(largest)).toBe(true);

      const before = await fileCount();
      const objectsBefore = s3.objects.size;
      const error = await refusal(files().upload({ merchantId: mine, disputeId, filename: 'big.pdf', bytes: fileOf(PDF_HEAD, DISPUTE_FILE_MAX_BYTES + 1) }));
      expect(error.code).toBe('INVALID_REQUEST');
      expect(error.details).toEqual([{ field: 'file', issue: expect.stringContaining('too large: at most 5242880 bytes') }]);
      expect(await fileCount()).toBe(before);
      expect(s3.objects.size).toBe(objectsBefore);
    });

    it('refuses content that is not a PDF, PNG or JPEG, whatever its name, and an empty file', async () => {
      const disputeId = await newDispute();
      const before = await fileCount();
      const exe = Buffer.concat([Buffer.from('MZ\x90\x00', 'latin1'), randomBytes(4000)]);
      for (const [filename, bytes] of [
        ['invoice.pdf', exe],
        ['invoice.exe', exe],
        ['page.pdf', Buffer.from('<html><body>%PDF-1.7</body></html>')],
        ['animation.png', Buffer.from('GIF89a........')],
      ] as const) {
        const error = await refusal(files().upload({ merchantId: mine, disputeId, filename, bytes }));
        expect(error.code).toBe('INVALID_REQUEST');
        expect(error.details).toEqual([{ field: 'file', issue: 'must be a PDF, PNG or JPEG file (its content is none of these)' }]);
      }
      const empty = await refusal(files().upload({ merchantId: mine, disputeId, filename: 'empty.pdf', bytes: Buffer.alloc(0) }));
      expect(empty.details).toEqual([{ field: 'file', issue: 'is empty' }]);
      expect(await fileCount()).toBe(before);
      expect(await files().list(mine, disputeId)).toEqual([]);
    });

    it('refuses a name whose extension lies about the content, or a name with nothing left', async () => {
      const disputeId = await newDispute();
      const before = await fileCount();
      for (const [filename, bytes, issue] of [
        ['receipt.pdf', fileOf(PNG_HEAD, 500), 'must end in .png: the content is a PNG file'],
        ['photo.pdf', fileOf(JPEG_HEAD, 500), 'must end in .jpg or .jpeg: the content is a JPEG file'],
        ['receipt.png', fileOf(PDF_HEAD, 500), 'must end in .pdf: the content is a PDF file'],
        ['receipt.pdf.exe', fileOf(PDF_HEAD, 500), 'must end in .pdf: the content is a PDF file'],
        ['receipt', fileOf(PDF_HEAD, 500), 'must end in .pdf: the content is a PDF file'],
        ['../..', fileOf(PDF_HEAD, 500), 'must name a file, e.g. receipt.pdf'],
      ] as const) {
        const error = await refusal(files().upload({ merchantId: mine, disputeId, filename, bytes }));
        expect(error.code).toBe('INVALID_REQUEST');
        expect(error.details).toEqual([{ field: 'filename', issue }]);
      }
      expect(await fileCount()).toBe(before);
    });

    it("another merchant's file is NOT_FOUND, as an unknown one, and is in no list of theirs", async () => {
      const disputeId = await newDispute();
      const record = await files().upload({ merchantId: mine, disputeId, filename: 'receipt.pdf', bytes: fileOf(PDF_HEAD, 3000) });
      for (const [merchantId, fileId] of [
        [theirs, record.id],
        [mine, `file_${randomBytes(16).toString('base64url')}`],
      ] as const) {
        const error = await refusal(files().get(merchantId, fileId));
        expect(error.code).toBe('NOT_FOUND');
        expect(error.message).toBe('File not found');
      }
      expect(await files().list(theirs, disputeId)).toEqual([]);
      const refused = await refusal(files().records(theirs, disputeId, [record.id]));
      expect(refused.details).toEqual([{ field: 'files', issue: `names files this dispute does not have: ${record.id}` }]);
    });

    it("refuses a file for another merchant's dispute, or an unknown one, as NOT_FOUND, storing nothing", async () => {
      const before = await fileCount();
      const objectsBefore = s3.objects.size;
      for (const disputeId of [await newDispute(theirs), `dp_${randomBytes(16).toString('base64url')}`]) {
        const error = await refusal(files().upload({ merchantId: mine, disputeId, filename: 'receipt.pdf', bytes: fileOf(PDF_HEAD, 100) }));
        expect(error.code).toBe('NOT_FOUND');
        expect(error.message).toBe('Dispute not found');
      }
      expect(await fileCount()).toBe(before);
      expect(s3.objects.size).toBe(objectsBefore);
    });

    it("records(): the dispute's files in the order named, once each; unknown, another dispute's or another merchant's refused", async () => {
      const disputeId = await newDispute();
      const [a, b] = [
        await files().upload({ merchantId: mine, disputeId, filename: 'a.pdf', bytes: fileOf(PDF_HEAD, 100) }),
        await files().upload({ merchantId: mine, disputeId, filename: 'b.png', bytes: fileOf(PNG_HEAD, 100) }),
      ];
      const elsewhere = await files().upload({ merchantId: mine, disputeId: await newDispute(), filename: 'c.pdf', bytes: fileOf(PDF_HEAD, 100) });
      const theirFile = await files().upload({ merchantId: theirs, disputeId: await newDispute(theirs), filename: 'd.pdf', bytes: fileOf(PDF_HEAD, 100) });

      expect(await files().records(mine, disputeId, [b!.id, a!.id, b!.id])).toEqual([b, a]);
      expect(await files().records(mine, disputeId, [])).toEqual([]);
      const unknown = 'file_AAAAAAAAAAAAAAAAAAAAAA';
      const error = await refusal(files().records(mine, disputeId, [a!.id, elsewhere.id, theirFile.id, unknown]));
      expect(error.code).toBe('INVALID_REQUEST');
      expect(error.details).toEqual([{ field: 'files', issue: `names files this dispute does not have: ${elsewhere.id}, ${theirFile.id}, ${unknown}` }]);
    });
  });

  it("the database itself refuses a file row for another merchant's dispute (the (dispute, merchant) key)", async () => {
    const theirDispute = await newDispute(theirs);
    const error = await sql
      .query(
        `insert into dispute_file (id, merchant_id, dispute_id, filename, content_type, size, sha256, storage, content, created_at)
         values ('file_x', $1, $2, 'a.pdf', 'application/pdf', 5, $3, 'postgres', '\\x255044462d'::bytea, now())`,
        [mine, theirDispute, sha256(Buffer.from('%PDF-'))],
      )
      .then(
        () => undefined,
        (e: { code?: string; constraint?: string }) => e,
      );
    expect(error).toMatchObject({ code: '23503', constraint: 'dispute_file_dispute' });
  });

  it('S3: the SDK signs every request (SigV4 with our access key id) and sends path-style requests', async () => {
    const record = await services.s3.upload({ merchantId: mine, disputeId: await newDispute(), filename: 'signed.pdf', bytes: fileOf(PDF_HEAD, 100) });
    await services.s3.get(mine, record.id);
    const path = `/${s3.bucket}/dispute-files/${mine}/${record.id}`;
    const mineRequests = s3.requests.filter((r) => r.path.startsWith(path));
    expect(mineRequests.map((r) => r.method)).toEqual(['PUT', 'GET']);
    // HeadObject, as the SDK asks it: the object's length and type, and S3's 404 for a key that is not there.
    const client = new S3Client({
      endpoint: s3.url,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: 'fake-secret-access-key' },
    });
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: `dispute-files/${mine}/${record.id}` }));
      expect(head).toMatchObject({ ContentLength: 100, ContentType: 'application/pdf' });
      const missing = await client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: 'dispute-files/none' })).then(
        () => undefined,
        (e: { name?: string; $metadata?: { httpStatusCode?: number } }) => e,
      );
      expect(missing).toMatchObject({ name: 'NotFound', $metadata: { httpStatusCode: 404 } });
    } finally {
      client.destroy();
    }
    for (const r of mineRequests)
      expect(r.headers.authorization).toMatch(new RegExp(`^AWS4-HMAC-SHA256 Credential=${s3.accessKeyId}/\\d{8}/us-east-1/s3/aws4_request, `));
  });

  it('S3: a store that refuses the upload (a wrong access key) leaves no row behind', async () => {
    const wrongKey = filesService({ ...s3Env(), S3_ACCESS_KEY_ID: 'NOTTHEFAKESKEY000000' });
    const before = await fileCount();
    const error = await wrongKey.upload({ merchantId: mine, disputeId: await newDispute(), filename: 'x.pdf', bytes: fileOf(PDF_HEAD, 100) }).then(
      () => undefined,
      (e: { name?: string }) => e,
    );
    expect(error?.name).toBe('InvalidAccessKeyId');
    expect(await fileCount()).toBe(before);
  });

  it('a file stays readable where it was written after the storage changes (PostgreSQL files under S3_*); S3 files without S3_* are a server error', async () => {
    const disputeId = await newDispute();
    const inRow = await services.postgres.upload({ merchantId: mine, disputeId, filename: 'old.pdf', bytes: fileOf(PDF_HEAD, 700) });
    expect((await services.s3.get(mine, inRow.id)).record.storage).toBe('postgres');
    const inBucket = await services.s3.upload({ merchantId: mine, disputeId, filename: 'new.pdf', bytes: fileOf(PDF_HEAD, 700) });
    const error = await refusal(services.postgres.get(mine, inBucket.id));
    expect(error.code).toBe('SERVER_ERROR');
  });

  it('a stored file whose bytes changed is not served', async () => {
    const record = await services.s3.upload({ merchantId: mine, disputeId: await newDispute(), filename: 'tampered.pdf', bytes: fileOf(PDF_HEAD, 300) });
    const object = s3.object(`dispute-files/${mine}/${record.id}`)!;
    object.bytes = fileOf(PDF_HEAD, 300);
    const error = await refusal(services.s3.get(mine, record.id));
    expect(error.code).toBe('SERVER_ERROR');
  });
});
