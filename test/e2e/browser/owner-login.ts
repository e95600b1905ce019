import type { MerchantCredentials } from '../../../src/modules/merchants/merchant.service';
import { personOf } from '../../helpers/people';
import type { TestApp } from '../../helpers/test-app';
import type { DashboardLogin } from './sign-in';

const logins = new Map<string, Promise<DashboardLogin>>();

/**
 * An owner of the merchant (a verified email and a password), made once per merchant: the browser
 * tests sign in with it again and again. The dashboard signs in people only since issue 36.
 */
export function ownerLogin(app: TestApp, merchant: MerchantCredentials): Promise<DashboardLogin> {
  const known = logins.get(merchant.merchant.id);
  if (known) return known;
  const login = personOf(app, merchant.merchant.id, 'owner', { withPassword: true }).then((p) => ({ email: p.email, password: p.password }));
  logins.set(merchant.merchant.id, login);
  return login;
}
