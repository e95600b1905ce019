/**
 * What an evidence file is, decided by its content (issue 39, point 4): PDF, PNG or JPEG, at most 5 MB. The name a
 * client gives is only checked to agree with the content, so a file cannot pass for another type by its extension.
 */

import { base64Length, type SniffedContentType } from '../../../shared/file-content';

export type DisputeFileContentType = SniffedContentType;

/** The largest evidence file, in bytes (5 MiB). */
export const DISPUTE_FILE_MAX_BYTES = 5 * 1024 * 1024;

/** The longest stored filename, in characters. */
const FILENAME_MAX_CHARS = 200;

/** The extensions a name may end with for each type (lower case, with the dot). */
const EXTENSIONS: Readonly<Record<DisputeFileContentType, readonly string[]>> = {
  'application/pdf': ['.pdf'],
  'image/png': ['.png'],
  'image/jpeg': ['.jpg', '.jpeg'],
};

/** What a type is called in a message. */
export const TYPE_NAMES: Readonly<Record<DisputeFileContentType, string>> = {
  'application/pdf': 'PDF',
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
};

/**
 * The name kept and shown for a file: its last path part only (a client's `C:\\scans\\receipt.pdf` or
 * `../../receipt.pdf` is `receipt.pdf`), without control or bidirectional-override characters (which can make
 * `exe.pdf` read as something else), spaces collapsed, at most 200 characters with its extension kept. Null when
 * nothing usable is left (empty, `.`, `..`).
 */
export function sanitizeFilename(raw: string): string | null {
  const lastPart = raw.split(/[/\\]/).pop() ?? '';
  const cleaned = lastPart
    .normalize('NFC')
    // C0 and C1 controls, DEL, and the bidirectional embedding, override and isolate marks.
    // eslint-disable-next-line no-control-regex -- removing control characters is the point
    .replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200e\u200f]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (cleaned === '' || /^\.+$/.test(cleaned)) return null;
  const chars = Array.from(cleaned);
  if (chars.length <= FILENAME_MAX_CHARS) return cleaned;
  // Too long: shorten the stem, keep the extension (when it is a short one), so the name still agrees with the type.
  const extension = extensionOf(cleaned);
  const kept = extension !== null && extension.length <= 10 ? Array.from(extension) : [];
  return (
    chars
      .slice(0, FILENAME_MAX_CHARS - kept.length)
      .join('')
      .trimEnd() + kept.join('')
  );
}

/** The name's extension in lower case with its dot (`.pdf`), or null when it has none. */
function extensionOf(filename: string): string | null {
  const dot = filename.lastIndexOf('.');
  return dot <= 0 || dot === filename.length - 1 ? null : filename.slice(dot).toLowerCase();
}

/** Whether a name's extension agrees with the type its content has (`scan.JPG` and `scan.jpeg` are JPEG). */
export function extensionMatches(filename: string, contentType: DisputeFileContentType): boolean {
  const extension = extensionOf(filename);
  return extension !== null && EXTENSIONS[contentType].includes(extension);
}

/** The extensions a type's files may have, for a message: `.jpg or .jpeg`. */
export function allowedExtensions(contentType: DisputeFileContentType): string {
  return EXTENSIONS[contentType].join(' or ');
}

/** The longest base64 text that can hold a file within the limit. */
export const DISPUTE_FILE_MAX_BASE64_CHARS = base64Length(DISPUTE_FILE_MAX_BYTES);
