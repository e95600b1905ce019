import type { Sql } from '../../../db/sql';
import { AppError } from '../../../shared/errors';
import type { DisputeFileContentType } from './file-type';
import type { StorageName, StoredBytes } from './file-storage';

/** A dispute's evidence file, without its bytes. */
export interface DisputeFileRecord {
  /** `file_…`, the public id. */
  id: string;
  merchantId: string;
  disputeId: string;
  filename: string;
  contentType: DisputeFileContentType;
  /** In bytes. */
  size: number;
  /** Hex SHA-256 of the bytes. */
  sha256: string;
  storage: StorageName;
  createdAt: Date;
}

/** What a new row holds. */
export type NewDisputeFile = DisputeFileRecord & StoredBytes;

const COLUMNS = 'id, merchant_id, dispute_id, filename, content_type, size, sha256, storage, created_at';

/* eslint-disable @typescript-eslint/no-explicit-any -- rows as pg returns them, mapped once here */
function recordOf(r: any): DisputeFileRecord {
  return {
    id: r.id,
    merchantId: r.merchant_id,
    disputeId: r.dispute_id,
    filename: r.filename,
    contentType: r.content_type,
    size: r.size,
    sha256: r.sha256,
    storage: r.storage,
    createdAt: r.created_at,
  };
}
/* eslint-enable @typescript-eslint/no-explicit-any */

/** The dispute_file table's statements; every read is by merchant, so one merchant never reaches another's file. */
export class DisputeFileStore {
  constructor(private readonly sql: Sql) {}

  /** Writes the row; a dispute that is not the merchant's (or none) is NOT_FOUND (the pair's foreign key). */
  async insert(file: NewDisputeFile): Promise<void> {
    await this.sql
      .query(
        `insert into dispute_file (id, merchant_id, dispute_id, filename, content_type, size, sha256, storage, storage_key, content, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [
          file.id,
          file.merchantId,
          file.disputeId,
          file.filename,
          file.contentType,
          file.size,
          file.sha256,
          file.storage,
          file.storageKey,
          file.content,
          file.createdAt,
        ],
        'dispute_file_insert',
      )
      .catch((err: { code?: string; constraint?: string }) => {
        if (err?.code === '23503' && err.constraint === 'dispute_file_dispute') throw AppError.notFound('Dispute');
        throw err;
      });
  }

  /** Whether the dispute is the merchant's (read before any bytes are stored; the foreign key holds it in any case). */
  async disputeIsMerchants(merchantId: string, disputeId: string): Promise<boolean> {
    const rows = await this.sql.query('select 1 from dispute where id = $1 and merchant_id = $2', [disputeId, merchantId], 'dispute_file_dispute_check');
    return rows.length > 0;
  }

  /** One of the merchant's files with where its bytes are (the bytes themselves when they are in the row). */
  async findWithBytes(merchantId: string, id: string): Promise<(DisputeFileRecord & StoredBytes) | null> {
    const [row] = await this.sql.query(
      `select ${COLUMNS}, storage_key, content from dispute_file where id = $1 and merchant_id = $2`,
      [id, merchantId],
      'dispute_file_find',
    );
    return row ? { ...recordOf(row), storageKey: row.storage_key, content: row.content } : null;
  }

  /** A dispute's files, oldest first (files of one millisecond in no set order: the ids' text does not sort by time). */
  async listForDispute(merchantId: string, disputeId: string): Promise<DisputeFileRecord[]> {
    const rows = await this.sql.query(
      `select ${COLUMNS} from dispute_file where merchant_id = $1 and dispute_id = $2 order by created_at, id`,
      [merchantId, disputeId],
      'dispute_file_list',
    );
    return rows.map(recordOf);
  }

  /** The merchant's files among `ids` (those that exist; in no particular order). */
  async findMany(merchantId: string, ids: readonly string[]): Promise<DisputeFileRecord[]> {
    const rows = await this.sql.query(
      `select ${COLUMNS} from dispute_file where merchant_id = $1 and id = any($2::text[])`,
      [merchantId, ids],
      'dispute_file_many',
    );
    return rows.map(recordOf);
  }
}
