import {
  DISPUTE_FILE_MAX_BASE64_CHARS,
  DISPUTE_FILE_MAX_BYTES,
  allowedExtensions,
  extensionMatches,
  sanitizeFilename,
} from '../../src/modules/disputes/files/file-type';
import { decodeBase64File, sniffContentType } from '../../src/shared/file-content';

const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n%%EOF\n', 'latin1');
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('\0\0\0\rIHDR')]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46]);
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(64)]);

describe('sniffContentType', () => {
  it('knows PDF, PNG and JPEG by their magic bytes', () => {
    expect(sniffContentType(PDF)).toBe('application/pdf');
    expect(sniffContentType(PNG)).toBe('image/png');
    expect(sniffContentType(JPEG)).toBe('image/jpeg');
  });

  it('knows nothing else, nor a signature cut short or off by one byte', () => {
    expect(sniffContentType(EXE)).toBeNull();
    expect(sniffContentType(Buffer.from('GIF89a'))).toBeNull();
    expect(sniffContentType(Buffer.from('<html>%PDF-'))).toBeNull();
    expect(sniffContentType(Buffer.alloc(0))).toBeNull();
    expect(sniffContentType(PNG.subarray(0, 7))).toBeNull();
    expect(sniffContentType(Buffer.from('%PDF'))).toBeNull();
    expect(sniffContentType(Buffer.from([0xff, 0xd8]))).toBeNull();
    expect(sniffContentType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0b]))).toBeNull();
  });

  it('the limit is 5 MiB', () => {
    expect(DISPUTE_FILE_MAX_BYTES).toBe(5_242_880);
  });
});

describe('extensionMatches: the content decides, the name must agree', () => {
  it.each([
    ['receipt.pdf', 'application/pdf'],
    ['RECEIPT.PDF', 'application/pdf'],
    ['scan.png', 'image/png'],
    ['photo.jpg', 'image/jpeg'],
    ['photo.JPEG', 'image/jpeg'],
    ['my.receipt.v2.pdf', 'application/pdf'],
  ] as const)('%s is a name for %s', (name, type) => {
    expect(extensionMatches(name, type)).toBe(true);
  });

  it.each([
    // A lying extension: the content is not what the name says.
    ['image.pdf', 'image/png'],
    ['photo.pdf', 'image/jpeg'],
    ['receipt.png', 'application/pdf'],
    ['receipt.jpg', 'application/pdf'],
    ['scan.jpg', 'image/png'],
    // The right type somewhere in the name is not its extension.
    ['receipt.pdf.exe', 'application/pdf'],
    ['receipt', 'application/pdf'],
    ['receipt.', 'application/pdf'],
    ['.pdf', 'application/pdf'],
  ] as const)('%s is not a name for %s', (name, type) => {
    expect(extensionMatches(name, type)).toBe(false);
  });

  it('names what a type may end in', () => {
    expect(allowedExtensions('image/jpeg')).toBe('.jpg or .jpeg');
    expect(allowedExtensions('application/pdf')).toBe('.pdf');
  });
});

describe('sanitizeFilename', () => {
  it('keeps an ordinary name as it is', () => {
    expect(sanitizeFilename('Receipt 2026-11 (paid).pdf')).toBe('Receipt 2026-11 (paid).pdf');
    expect(sanitizeFilename('reçu de livraison.pdf')).toBe('reçu de livraison.pdf');
  });

  it('keeps only the last path part, of either kind of path', () => {
    expect(sanitizeFilename('../../etc/passwd.pdf')).toBe('passwd.pdf');
    expect(sanitizeFilename('C:\\Users\\ada\\scans\\receipt.pdf')).toBe('receipt.pdf');
    expect(sanitizeFilename('/tmp/receipt.png')).toBe('receipt.png');
  });

  it('removes control and bidirectional-override characters, and collapses spaces', () => {
    expect(sanitizeFilename('rece\u0000ipt\r\n.pdf')).toBe('receipt.pdf');
    expect(sanitizeFilename('in\u007fvoice\u0085.pdf')).toBe('invoice.pdf');
    // U+202E would show `invoice\u202Efdp.exe` as `invoiceexe.pdf`.
    expect(sanitizeFilename('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    expect(sanitizeFilename('  my \t  receipt .pdf ')).toBe('my receipt .pdf');
  });

  it('gives null when no name is left', () => {
    for (const raw of ['', '   ', '.', '..', '...', 'a/', 'dir\\', '\u0000\u0001', '../..']) expect(sanitizeFilename(raw)).toBeNull();
  });

  it('shortens a long name to 200 characters, keeping its extension', () => {
    const long = `${'a'.repeat(500)}.pdf`;
    const kept = sanitizeFilename(long)!;
    expect(kept).toHaveLength(200);
    expect(kept.endsWith('.pdf')).toBe(true);
    expect(extensionMatches(kept, 'application/pdf')).toBe(true);
    // Counted in characters, not UTF-16 units: an emoji is not cut in half.
    const emoji = sanitizeFilename(`${'😀'.repeat(300)}.png`)!;
    expect(Array.from(emoji)).toHaveLength(200);
    expect(emoji.endsWith('😀.png')).toBe(true);
  });
});

describe('decodeBase64File (GraphQL uploadDisputeFile)', () => {
  const bytes = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.from([0, 255, 254, 62, 63, 250])]);

  it('decodes standard and URL-safe base64, with or without padding', () => {
    for (const text of [bytes.toString('base64'), bytes.toString('base64url'), bytes.toString('base64').replace(/=+$/, '')]) {
      expect(decodeBase64File(text)!.equals(bytes)).toBe(true);
    }
    expect(decodeBase64File('')!.length).toBe(0);
  });

  it('refuses what Node would silently skip or misread: spaces, other characters, a mixed alphabet, bad padding', () => {
    const text = bytes.toString('base64');
    for (const bad of [`${text.slice(0, 4)} ${text.slice(4)}`, `${text}\n`, 'JVBERi0x*', 'ab+c-d__', 'A', 'QQ=', 'QQ===', 'Q=Q=']) {
      expect(decodeBase64File(bad)).toBeNull();
    }
  });

  it('the longest text that can hold 5 MB', () => {
    expect(DISPUTE_FILE_MAX_BASE64_CHARS).toBe(Buffer.alloc(DISPUTE_FILE_MAX_BYTES).toString('base64').length);
  });
});
