import { ROLES, roleNeedsTwoFactor } from '../../src/modules/access/permissions';
import { twoFactorRequired } from '../../src/modules/accounts/two-factor-policy';

describe('twoFactorRequired: who must have 2FA before anything else', () => {
  it.each(ROLES)('%s: in production as the role says (money, keys, team), everywhere once the merchant requires it', (role) => {
    expect(twoFactorRequired(role, false, 'production')).toBe(roleNeedsTwoFactor(role));
    expect(twoFactorRequired(role, true, 'production')).toBe(true);
    expect(twoFactorRequired(role, false, 'sandbox')).toBe(false);
    expect(twoFactorRequired(role, true, 'sandbox')).toBe(true);
  });

  it('in production the owner, admin, developer and finance must; support and viewer need not', () => {
    expect(ROLES.filter((r) => twoFactorRequired(r, false, 'production'))).toEqual(['owner', 'admin', 'developer', 'finance']);
  });
});
