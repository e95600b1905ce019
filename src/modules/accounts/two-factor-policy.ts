import type { PaymentsEnv } from '../../config';
import type { Role } from '../access/permissions';
import { twoFactorRequiredFor } from '../team/team.rules';

/**
 * Whether a person in this role must have 2FA before anything else: in production every role that can
 * move money or manage keys or the team (roleNeedsTwoFactor); everywhere, once the merchant requires it.
 * A person who must and has not enrolled gets an enrolment-only session (sign-in and every refresh).
 * The rule itself is the team's (team.rules.ts, which the auth module hands OAuth's refresh): one rule.
 */
export function twoFactorRequired(role: Role, merchantRequires: boolean, environment: PaymentsEnv): boolean {
  return twoFactorRequiredFor(environment === 'production', role, merchantRequires);
}
