import { randomBytes } from 'node:crypto';
import type { Sql } from '../../db/sql';
import { sha256Hex } from '../../shared/crypto';
import type { CardCharge } from '../connector';

/** Where the sandbox's 3-D Secure page for a handle is served. */
export const sandboxAuthenticationPath = (handle: string) => `/v1/sandbox/3ds/${handle}`;

/** A handle is 32 random bytes, base64url: 43 characters. */
const HANDLE = /^[A-Za-z0-9_-]{43}$/;

interface ChargeRow {
  provider_reference: string;
  outcome: CardCharge['outcome'];
  failure_reason: string | null;
  /** Its refunds fail (a test card's rule). */
  refunds_fail?: boolean;
  /** It is disputed after it succeeds (the always-disputed test card). */
  disputed?: boolean;
}

/**
 * The sandbox card processor's memory, one row per idempotency key: the outcome
 * of each charge (never the card), and for a 3-D Secure charge the SHA-256 of
 * the page's handle. The handle itself exists only in the URL handed out once
 * (and sealed in the transaction row while the payment waits).
 */
export class SandboxCardCharges {
  constructor(private readonly sql: Sql) {}

  /** Records a charge's outcome; a repeated key keeps the first one. Returns the handle of a new 3-D Secure charge. */
  async record(idempotencyKey: string, charge: ChargeRow): Promise<{ charge: CardCharge; handle: string | null }> {
    const handle = charge.outcome === 'requires_action' ? randomBytes(32).toString('base64url') : null;
    const inserted = await this.sql.query(
      `insert into sandbox_card_charge (idempotency_key, provider_reference, outcome, failure_reason, handle_hash, refunds_fail, disputed)
       values ($1, $2, $3, $4, $5, $6, $7) on conflict (idempotency_key) do nothing returning idempotency_key`,
      [
        idempotencyKey,
        charge.provider_reference,
        charge.outcome,
        charge.failure_reason,
        handle ? sha256Hex(handle) : null,
        charge.refunds_fail ?? false,
        charge.disputed ?? false,
      ],
      'sandbox_card_charge_insert',
    );
    if (inserted.length === 1) return { charge: toCharge(charge), handle };
    return { charge: (await this.find(idempotencyKey))!, handle: null };
  }

  private async find(idempotencyKey: string): Promise<CardCharge | null> {
    const [row] = await this.sql.query<ChargeRow>('select provider_reference, outcome, failure_reason from sandbox_card_charge where idempotency_key = $1', [
      idempotencyKey,
    ]);
    return row ? toCharge(row) : null;
  }

  /**
   * Reconciliation: the charge with this key, or, if none was received, a refusal
   * recorded under the key first, so a late charge with it keeps that refusal (the
   * first row wins). A 3-D Secure charge gets a new page handle: the first one
   * existed only in a response that the crash lost.
   */
  async conclude(idempotencyKey: string, providerReference: string): Promise<{ charge: CardCharge; handle: string | null }> {
    await this.sql.query(
      `insert into sandbox_card_charge (idempotency_key, provider_reference, outcome, failure_reason)
       values ($1, $2, 'failed', 'processing_error') on conflict (idempotency_key) do nothing`,
      [idempotencyKey, providerReference],
    );
    const charge = (await this.find(idempotencyKey))!;
    if (charge.outcome !== 'requires_action') return { charge, handle: null };
    const handle = randomBytes(32).toString('base64url');
    await this.sql.query('update sandbox_card_charge set handle_hash = $2 where idempotency_key = $1', [idempotencyKey, sha256Hex(handle)]);
    return { charge, handle };
  }

  /** Whether refunds of the charge made with this key fail (its test card's rule). */
  async refundsFail(idempotencyKey: string): Promise<boolean> {
    const [row] = await this.sql.query<{ refunds_fail: boolean }>('select refunds_fail from sandbox_card_charge where idempotency_key = $1', [idempotencyKey]);
    return row?.refunds_fail ?? false;
  }

  /** The idempotency key (the transaction's id) a 3-D Secure handle belongs to, or null for a handle never issued. */
  async keyOfHandle(handle: string): Promise<string | null> {
    if (!HANDLE.test(handle)) return null;
    const [row] = await this.sql.query<{ idempotency_key: string }>(
      'select idempotency_key from sandbox_card_charge where handle_hash = $1',
      [sha256Hex(handle)],
      'sandbox_card_charge_by_handle',
    );
    return row?.idempotency_key ?? null;
  }
}

/** The charge as the processor reports it; a 3-D Secure page's address is added only where the handle is at hand. */
function toCharge(row: ChargeRow): CardCharge {
  if (row.outcome === 'failed') return { outcome: 'failed', providerReference: row.provider_reference, reason: row.failure_reason ?? 'declined' };
  if (row.outcome === 'requires_action') return { outcome: 'requires_action', providerReference: row.provider_reference, authenticationUrl: null };
  return { outcome: 'successful', providerReference: row.provider_reference };
}
