import { z } from 'zod';
import { nullableTimestamp, record, timestamp, type RecordOf } from '../../shared/records';
import { KEY_ROLES } from '../access/permissions';
import type { ApiKey, NewApiKey } from './api-keys';

export const ApiKeyRecord = record(
  'ApiKey',
  z.object({
    id: z.uuid(),
    label: z.string(),
    role: z.enum(KEY_ROLES).describe('What the key may do (docs/access.md); a key never manages keys, the team or payouts, nor reads the audit log'),
    client_id: z.string(),
    created_at: timestamp,
    created_by: z.string().nullable().describe('Who made it: a person’s email, or the client_id or `operator` that did'),
    last_used_at: nullableTimestamp.describe('When it was last exchanged for a token'),
    revoked_at: nullableTimestamp,
  }),
  'An API key: a client credential with a label and a role. Never its secret.',
);

export const NewApiKeyRecord = record(
  'NewApiKey',
  ApiKeyRecord.extend({ client_secret: z.string().describe('Shown in this answer only: store it now') }),
  'A key made or rotated now, with its secret: the only time it is shown.',
);

export function serializeApiKey(key: ApiKey): RecordOf<typeof ApiKeyRecord> {
  return {
    id: key.id,
    label: key.label,
    role: key.role,
    client_id: key.clientId,
    created_at: key.createdAt.toISOString(),
    created_by: key.createdBy,
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
    revoked_at: key.revokedAt?.toISOString() ?? null,
  };
}

export function serializeNewApiKey(made: NewApiKey): RecordOf<typeof NewApiKeyRecord> {
  return { ...serializeApiKey(made.apiKey), client_secret: made.clientSecret };
}
