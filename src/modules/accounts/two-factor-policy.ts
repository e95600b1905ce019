import type { PaymentsEnv } from '../../config';
import { roleNeedsTwoFactor, type Role } from '../access/permissions';

/**
 * Whether a person in this role must have 2FA before anything else: in production every role that can
 * move money or manage keys or the team (roleNeedsTwoFactor); everywhere, once the merchant requires it.
 * A person who must and has not enrolled gets an enrolment-only session (sign-in and every refresh).
 */
export function twoFactorRequired(role: Role, merchantRequires: boolean, environment: PaymentsEnv): boolean {
  return merchantRequires || (environment === 'production' && roleNeedsTwoFactor(role));
}
