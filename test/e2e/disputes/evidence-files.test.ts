import { graphql, request } from '../../helpers/http';
import { cardPaymentBody, initiatePayment } from '../../helpers/payments';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { sql } from '../../helpers/transactions';

/**
 * Issue 39, point 4: evidence files through the doors (REST multipart, GraphQL base64): stored, named in the evidence,
 * downloaded as sent; over 5 MB, of another type, or with a lying extension refused; refused once submitted; audited;
 * another merchant's dispute and file not found.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ env: { DISPUTE_SWEEP_INTERVAL_S: '0' } });
}, 60_000);
afterAll(() => app?.close());

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR-test-image')]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');

function upload(token: string, id: string, filename: string, bytes: Buffer, field = 'file') {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(bytes)]), filename);
  return fetch(`${app.url}/v1/disputes/${id}/files`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form }).then(async (r) => ({
    status: r.status,
    body: (await r.json()) as Record<string, any>,
  }));
}

async function openDispute(token: string): Promise<string> {
  const reference = (await initiatePayment(app, token, cardPaymentBody({ amount: '700.00' }))).body.data.reference;
  const res = await request(app.url, 'POST', '/v1/sandbox/disputes', { token, body: { payment_reference: reference, reason: 'product_unacceptable' } });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
}

test('a PDF and a PNG uploaded, named in the evidence, downloaded byte for byte; refused after submission', async () => {
  const m = await app.createMerchant('Files');
  const token = (await app.token(m)).accessToken;
  const id = await openDispute(token);

  const pdf = await upload(token, id, 'receipt.pdf', PDF);
  expect(pdf.status).toBe(201);
  expect(pdf.body.data).toMatchObject({ filename: 'receipt.pdf', content_type: 'application/pdf', size: PDF.length });
  const png = await graphql(
    app.url,
    `
      mutation ($d: ID!, $c: String!) {
        uploadDisputeFile(disputeId: $d, filename: "photo.png", contentBase64: $c) {
          id
          contentType
          size
        }
      }
    `,
    {
      token,
      variables: { d: id, c: PNG.toString('base64') },
    },
  );
  expect(png.body.data!.uploadDisputeFile).toMatchObject({ contentType: 'image/png', size: PNG.length });

  const evidence = await request(app.url, 'POST', `/v1/disputes/${id}/evidence`, {
    token,
    body: { product_description: 'A lamp', files: [pdf.body.data.id, png.body.data!.uploadDisputeFile.id] },
  });
  expect(evidence.status).toBe(200);
  expect(evidence.body.data.evidence.files.map((f: { filename: string }) => f.filename)).toEqual(['receipt.pdf', 'photo.png']);

  const download = await fetch(`${app.url}/v1/disputes/${id}/files/${pdf.body.data.id}`, { headers: { authorization: `Bearer ${token}` } });
  expect(download.status).toBe(200);
  expect(download.headers.get('content-type')).toBe('application/pdf');
  expect(download.headers.get('x-content-type-options')).toBe('nosniff');
  expect(Buffer.from(await download.arrayBuffer()).equals(PDF)).toBe(true);

  const [audited] = await sql<{ n: string }>(app, `select count(*)::text as n from audit_log where action = 'dispute.file_uploaded' and target_id = ?`, [id]);
  expect(audited!.n).toBe('2');

  await request(app.url, 'POST', `/v1/disputes/${id}/submit`, { token });
  const late = await upload(token, id, 'late.pdf', PDF);
  expect(late.status).toBe(409);
  expect(late.body.code).toBe('INVALID_STATE');
});

test('refused: over 5 MB, not a PDF, PNG or JPEG, a lying extension, no file part, not multipart; nothing stored', async () => {
  const m = await app.createMerchant('Bad files');
  const token = (await app.token(m)).accessToken;
  const id = await openDispute(token);
  const tooLarge = Buffer.concat([PDF, Buffer.alloc(5 * 1024 * 1024, 0x20)]);
  const cases = [
    await upload(token, id, 'big.pdf', tooLarge),
    await upload(token, id, 'virus.pdf', Buffer.from('MZ\x90\x00 an executable')),
    await upload(token, id, 'photo.pdf', PNG),
    await upload(token, id, 'receipt.pdf.exe', PDF),
    await upload(token, id, 'receipt.pdf', PDF, 'document'),
  ];
  for (const c of cases) {
    expect(c.status).toBe(400);
    expect(c.body.code).toBe('INVALID_REQUEST');
  }
  const json = await request(app.url, 'POST', `/v1/disputes/${id}/files`, { token, body: { file: 'x' } });
  expect(json.status).toBe(400);
  const badBase64 = await graphql(
    app.url,
    `
      mutation ($d: ID!) {
        uploadDisputeFile(disputeId: $d, filename: "a.pdf", contentBase64: "%%%") {
          id
        }
      }
    `,
    {
      token,
      variables: { d: id },
    },
  );
  expect(badBase64.body.errors?.[0]?.extensions?.code).toBe('INVALID_REQUEST');
  const [stored] = await sql<{ n: string }>(app, `select count(*)::text as n from dispute_file where dispute_id = ?`, [id]);
  expect(stored!.n).toBe('0');
});

test('another merchant can neither upload to, read, nor name the files of a dispute that is not theirs', async () => {
  const a = await app.createMerchant('A');
  const b = await app.createMerchant('B');
  const tokenA = (await app.token(a)).accessToken;
  const tokenB = (await app.token(b)).accessToken;
  const id = await openDispute(tokenA);
  const file = (await upload(tokenA, id, 'receipt.pdf', PDF)).body.data;
  expect((await upload(tokenB, id, 'receipt.pdf', PDF)).status).toBe(404);
  expect((await fetch(`${app.url}/v1/disputes/${id}/files/${file.id}`, { headers: { authorization: `Bearer ${tokenB}` } })).status).toBe(404);
  const other = await openDispute(tokenB);
  expect((await fetch(`${app.url}/v1/disputes/${other}/files/${file.id}`, { headers: { authorization: `Bearer ${tokenB}` } })).status).toBe(404);
  const named = await request(app.url, 'POST', `/v1/disputes/${other}/evidence`, { token: tokenB, body: { files: [file.id] } });
  expect(named.status).toBe(400);
  expect(named.body.details?.[0]?.field).toBe('files');
});
