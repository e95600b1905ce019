import { defineModule, type ModuleInfra } from '../../module';
import { DisputeFileStore } from './dispute-file.store';
import { DisputeFiles } from './dispute-files.service';
import { PostgresFileStorage, S3FileStorage } from './file-storage';

type DisputeFilesInfra = Pick<ModuleInfra, 'config' | 'sql' | 'clock' | 'logger'>;

/**
 * Dispute evidence files (issue 39, point 4; docs/operations.md, *Dispute evidence files*): new files go to
 * S3-compatible storage when S3_* is configured, else into their rows in PostgreSQL; either is read back.
 */
export const disputeFilesModule = defineModule({
  name: 'dispute-files',
  create: ({ config, sql, clock, logger }: DisputeFilesInfra) => {
    const postgres = new PostgresFileStorage();
    const s3 = config.s3 === null ? undefined : new S3FileStorage(config.s3);
    const disputeFiles = new DisputeFiles({
      store: new DisputeFileStore(sql),
      storage: s3 ?? postgres,
      readers: { postgres, s3 },
      clock,
      logger,
    });
    return { services: { disputeFiles }, stop: async () => s3?.close() };
  },
});
