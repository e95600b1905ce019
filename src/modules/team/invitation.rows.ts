import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../shared/errors';
import type { Role } from '../access/permissions';
import { invitationStatus, type InvitationStatus } from './team.rules';

/** An invitation as the Team page lists it (never its token, which only the email holds). */
export interface Invitation {
  id: string;
  email: string;
  role: Role;
  status: InvitationStatus;
  createdAt: Date;
  expiresAt: Date;
}

/** An invitation's row, as the invitation service reads it. */
export interface InvitationRow {
  id: string;
  merchant_id: string;
  email: string;
  role: Role;
  created_at: Date;
  expires_at: Date;
  accepted_at: Date | null;
  revoked_at: Date | null;
}

export const COLUMNS = 'i.id, i.merchant_id, i.email, i.role, i.created_at, i.expires_at, i.accepted_at, i.revoked_at';

/** The merchant's invitation, locked for the caller's transaction; 404 when it has none of that id. */
export async function lockInvitation(em: EntityManager, merchantId: string, id: string): Promise<InvitationRow> {
  const [row]: InvitationRow[] = await em.execute(`select ${COLUMNS} from invitation i where i.id = ? and i.merchant_id = ? for update`, [id, merchantId]);
  if (!row) throw AppError.notFound('Invitation');
  // The ORM's raw queries answer timestamps as text.
  const at = (value: Date | string | null) => (value === null ? null : new Date(value));
  return { ...row, created_at: at(row.created_at)!, expires_at: at(row.expires_at)!, accepted_at: at(row.accepted_at), revoked_at: at(row.revoked_at) };
}

export function datesOf(row: InvitationRow) {
  return { acceptedAt: row.accepted_at, revokedAt: row.revoked_at, expiresAt: row.expires_at };
}

export function viewOf(row: InvitationRow, now: Date): Invitation {
  return { id: row.id, email: row.email, role: row.role, status: invitationStatus(datesOf(row), now), createdAt: row.created_at, expiresAt: row.expires_at };
}
