import { createHash } from 'node:crypto';
import { AppError } from '../../../shared/errors';
import type { Clock } from '../../../shared/clock';
import { timeOrderedBytes } from '../../../shared/crypto';
import type { Logger } from '../../../shared/logger';
import type { DisputeFileRecord, DisputeFileStore } from './dispute-file.store';
import type { FileStorage, StorageName } from './file-storage';
import { sniffContentType } from '../../../shared/file-content';
import { DISPUTE_FILE_MAX_BYTES, TYPE_NAMES, allowedExtensions, extensionMatches, sanitizeFilename } from './file-type';

export type { DisputeFileRecord } from './dispute-file.store';

/** A new file's public id: `file_` and 22 base64url characters, time-ordered as the other prefixed ids. */
const newFileId = () => `file_${timeOrderedBytes(16).toString('base64url')}`;

/** The most files one evidence update may name. */
const MAX_FILES_PER_LIST = 50;

export interface UploadDisputeFile {
  merchantId: string;
  /** The dispute's id: another merchant's dispute, or none, is NOT_FOUND. */
  disputeId: string;
  /** As the client gave it; sanitised here. */
  filename: string;
  bytes: Buffer;
}

export interface DisputeFilesDeps {
  store: DisputeFileStore;
  /** Where new files go: S3 when configured, else PostgreSQL. */
  storage: FileStorage;
  /** Every storage a row may name (a file stays where it was written when the configuration changes). */
  readers: Partial<Record<StorageName, FileStorage>>;
  clock: Clock;
  logger: Logger;
}

/**
 * A dispute's evidence files (issue 39, point 4): PDF, PNG or JPEG by content, at most 5 MB, kept in PostgreSQL or in
 * S3-compatible storage. Every read is by merchant: another merchant's file is NOT_FOUND, as an unknown one.
 */
export class DisputeFiles {
  constructor(private readonly deps: DisputeFilesDeps) {}

  /** Checks and stores one file; the bytes are stored before the row, so a row always has its bytes. */
  async upload({ merchantId, disputeId, filename, bytes }: UploadDisputeFile): Promise<DisputeFileRecord> {
    if (bytes.length === 0) throw AppError.invalidField('file', 'is empty');
    if (bytes.length > DISPUTE_FILE_MAX_BYTES) {
      throw AppError.invalidField('file', `is too large: at most ${DISPUTE_FILE_MAX_BYTES} bytes (5 MB), this one has ${bytes.length}`);
    }
    const name = sanitizeFilename(filename);
    if (name === null) throw AppError.invalidField('filename', 'must name a file, e.g. receipt.pdf');
    const contentType = sniffContentType(bytes);
    if (contentType === null) throw AppError.invalidField('file', 'must be a PDF, PNG or JPEG file (its content is none of these)');
    if (!extensionMatches(name, contentType)) {
      throw AppError.invalidField('filename', `must end in ${allowedExtensions(contentType)}: the content is a ${TYPE_NAMES[contentType]} file`);
    }
    // The checks above need no database; then the dispute, before any bytes are stored (the rows' key holds it anyway).
    const { storage, store, clock } = this.deps;
    if (!(await store.disputeIsMerchants(merchantId, disputeId))) throw AppError.notFound('Dispute');

    const id = newFileId();
    // The object's key names no client text: the merchant (a prefix to find or delete one merchant's files) and the id.
    const stored = await storage.put(`dispute-files/${merchantId}/${id}`, bytes, contentType);
    const record: DisputeFileRecord = {
      id,
      merchantId,
      disputeId,
      filename: name,
      contentType,
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      storage: storage.name,
      createdAt: clock.now(),
    };
    await store.insert({ ...record, ...stored });
    return record;
  }

  /** One of the merchant's files and its bytes, checked against the digest taken at upload. */
  async get(merchantId: string, fileId: string): Promise<{ record: DisputeFileRecord; bytes: Buffer }> {
    const found = await this.deps.store.findWithBytes(merchantId, fileId);
    if (found === null) throw AppError.notFound('File');
    const { storageKey, content, ...record } = found;
    const reader = this.deps.readers[record.storage];
    if (reader === undefined) {
      // Written to S3, read by a deployment whose S3_* is gone: an operator's problem, not the client's.
      this.deps.logger.error({ fileId, storage: record.storage }, 'dispute file is in a storage this instance is not configured for');
      throw new AppError('SERVER_ERROR', 'The file cannot be read right now');
    }
    const bytes = await reader.get({ storageKey, content });
    if (createHash('sha256').update(bytes).digest('hex') !== record.sha256) {
      this.deps.logger.error({ fileId, storage: record.storage }, 'dispute file bytes do not match their SHA-256');
      throw new AppError('SERVER_ERROR', 'The file cannot be read right now');
    }
    return { record, bytes };
  }

  /** A dispute's files, oldest first (the merchant's only). */
  list(merchantId: string, disputeId: string): Promise<DisputeFileRecord[]> {
    return this.deps.store.listForDispute(merchantId, disputeId);
  }

  /**
   * The records of the files an evidence update names, in its order, duplicates once. Each must be one of the
   * merchant's files uploaded for this dispute; any other (unknown, another merchant's, another dispute's) is refused
   * by name, as unknown.
   */
  async records(merchantId: string, disputeId: string, ids: readonly string[]): Promise<DisputeFileRecord[]> {
    const wanted = [...new Set(ids)];
    if (wanted.length > MAX_FILES_PER_LIST) throw AppError.invalidField('files', `must name at most ${MAX_FILES_PER_LIST} files`);
    if (wanted.length === 0) return [];
    const found = new Map((await this.deps.store.findMany(merchantId, wanted)).filter((f) => f.disputeId === disputeId).map((f) => [f.id, f]));
    const unknown = wanted.filter((id) => !found.has(id));
    if (unknown.length > 0) throw AppError.invalidField('files', `names files this dispute does not have: ${unknown.join(', ')}`);
    return wanted.map((id) => found.get(id)!);
  }
}
