import { z } from 'zod';
import { record, type RecordOf } from '../../shared/records';
import type { TokenGrant } from './oauth.service';

export const TokenGrantRecord = record(
  'TokenGrant',
  z.object({
    access_token: z.string().describe('An HS256 JWT; send it as `Authorization: Bearer …`'),
    token_type: z.literal('Bearer'),
    expires_in: z.int().meta({ description: 'Seconds', examples: [3600] }),
    refresh_token: z.string().describe('Single use: each refresh returns a new one'),
  }),
);

/** An access token grant as POST /v1/oauth/token answers it. */
export function serializeTokenGrant(grant: TokenGrant): RecordOf<typeof TokenGrantRecord> {
  return {
    access_token: grant.accessToken,
    token_type: grant.tokenType,
    expires_in: grant.expiresIn,
    refresh_token: grant.refreshToken,
  };
}
