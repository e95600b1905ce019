import type { MerchantCredentials } from '../../../src/modules/merchants/merchant.service';
// Helper A's test helper (issue 36): a merchant owner's email and password, the owner made if need be.
import { signInDashboardUser } from '../../helpers/accounts';
import type { TestApp } from '../../helpers/test-app';
import type { DashboardLogin } from './sign-in';

const logins = new Map<string, Promise<DashboardLogin>>();

/** The merchant owner's email and password, asked for once per merchant (the tests sign in with it again and again). */
export function ownerLogin(app: TestApp, merchant: MerchantCredentials): Promise<DashboardLogin> {
  const known = logins.get(merchant.merchant.id);
  if (known) return known;
  const login: Promise<DashboardLogin> = signInDashboardUser(app, merchant).then((user: DashboardLogin) => ({ email: user.email, password: user.password }));
  logins.set(merchant.merchant.id, login);
  return login;
}
