import { deriveKey } from '../../shared/crypto';
import { defineModule, type ModuleInfra } from '../module';
import { IDEMPOTENCY_RETENTION_MS, IdempotencyStore, type IdempotencyStoreDeps } from './idempotency.store';

/** Idempotency-Key's claims and stored answers (REST POSTs that create something). */
export const idempotencyModule = defineModule({
  name: 'idempotency',
  create: (
    infra: Pick<ModuleInfra, 'config' | 'sql' | 'clock' | 'secretBox' | 'keys' | 'logger'> & { jobs?: IdempotencyStoreDeps['instances'] },
    _deps: object,
  ) => {
    const { config, sql, clock, secretBox, keys, logger, jobs } = infra;
    // A claim still in flight this long after it was made is taken to belong to a process that died. A live
    // request holds one while its handler runs (milliseconds; provider calls are the slow part), and nothing
    // else bounds a handler, so the margin is wide: REQUEST_TIMEOUT_MS + 30 s (60 s by default).
    const idempotency = new IdempotencyStore({
      sql,
      clock,
      box: secretBox,
      fingerprintKey: deriveKey(keys.encryptionKey, 'idempotency-fingerprint'),
      limits: { retentionMs: IDEMPOTENCY_RETENTION_MS, lockTimeoutMs: config.timeouts.requestMs + 30_000 },
      logger,
      // A claim held by an instance that stopped heartbeating (kill -9) is free at once, not after the lock timeout.
      instances: jobs,
    });
    return { services: { idempotency } };
  },
});
