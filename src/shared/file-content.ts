/**
 * What a file a client sends is, decided by its content, never by a name or a declared type: a dispute's evidence
 * (PDF, PNG or JPEG) and a checkout page's logo (PNG or JPEG) are checked here.
 */

export type SniffedContentType = 'application/pdf' | 'image/png' | 'image/jpeg';

const PDF_MAGIC = Buffer.from('%PDF-', 'latin1');
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff]);

/** The type the content's first bytes (its magic number) say, or null for anything else. */
export function sniffContentType(bytes: Buffer): SniffedContentType | null {
  const startsWith = (magic: Buffer) => bytes.length >= magic.length && bytes.subarray(0, magic.length).equals(magic);
  if (startsWith(PDF_MAGIC)) return 'application/pdf';
  if (startsWith(PNG_MAGIC)) return 'image/png';
  if (startsWith(JPEG_MAGIC)) return 'image/jpeg';
  return null;
}

/** The longest base64 text that can hold `maxBytes` (padded, 4 characters per 3 bytes). */
export const base64Length = (maxBytes: number): number => Math.ceil(maxBytes / 3) * 4;

/**
 * A file sent as base64 text, decoded strictly: standard or URL-safe alphabet, padding optional, no spaces or other
 * characters (Node's own decoder skips what it does not know, which would store something else than was sent). Null
 * when the text is not base64. The size limit is the caller's: check base64Length(limit) before decoding, or the
 * decoded length after.
 */
export function decodeBase64File(text: string): Buffer | null {
  if (!/^(?:[A-Za-z0-9+/]|[A-Za-z0-9_-])*={0,2}$/.test(text) || (/[+/]/.test(text) && /[-_]/.test(text))) return null;
  const unpadded = text.replace(/=+$/, '');
  if (unpadded.length % 4 === 1) return null;
  if (text.length !== unpadded.length && text.length % 4 !== 0) return null;
  return Buffer.from(unpadded, /[-_]/.test(unpadded) ? 'base64url' : 'base64');
}
