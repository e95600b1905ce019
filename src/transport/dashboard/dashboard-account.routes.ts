import type { FastifyInstance } from 'fastify';
import type { AccountService, AccountUser } from '../../modules/accounts/account.service';
import type { PasswordService } from '../../modules/accounts/password.service';
import type { OAuthService } from '../../modules/auth/oauth.service';
import { AppError } from '../../shared/errors';
import type { PublicAddress } from '../../shared/public-address';
import type { RateLimits } from '../rate-limits';
import { sendSuccess } from '../rest/envelope';
import { fromRest } from '../rest/field-names';
import { dashboardScope, originOf } from './dashboard-scope';
import { jsonObject, sessionAnswer } from './dashboard-session.routes';

/** The services this file calls (the composition root passes them). */
type UsedServices = { accounts: AccountService; passwords: PasswordService; oauth: OAuthService; publicAddress: PublicAddress };

const userAnswer = (user: AccountUser) => ({
  id: user.id,
  email: user.email,
  name: user.name,
  email_verified: user.emailVerified,
  two_factor_enabled: user.twoFactorEnabled,
});

/** What /dashboard/password/forgot answers, whether or not the email has an account. */
const FORGOT_ANSWER = 'If an account has this email address, a link to reset its password is on its way; it works once, for 1 hour';

/**
 * The dashboard's account routes around a session (docs/access.md): sign-up (a sandbox merchant and
 * its owner, signed in at once), the emailed links (email verification; password reset, which ends
 * every session), asking for them again. Under the same rules as the session routes (dashboardScope:
 * exact paths, CSRF header and origin check, counted by address, never cached); dashboard-internal,
 * not in the OpenAPI document.
 */
export async function dashboardAccountRoutes(app: FastifyInstance, { services, rateLimits }: { services: UsedServices; rateLimits: RateLimits }) {
  const { setSession, readSession } = dashboardScope(app, services.publicAddress, rateLimits);

  // A taken email counts as a failure of the address, as a wrong password does: probing for accounts is as slow as guessing.
  app.post('/dashboard/sign-up', async (request, reply) => {
    readSession(request, reply);
    const body = jsonObject(request.body, 'email, password, business_name and country');
    await rateLimits.assertTokenAttemptAllowed(undefined, request.ip);
    let signedUp;
    try {
      signedUp = await services.accounts.signUp(fromRest(body), originOf(request));
    } catch (err) {
      if (err instanceof AppError && err.code === 'DUPLICATE_REQUEST') throw (await rateLimits.tokenAttemptFailed(undefined, request.ip)) ?? err;
      throw err;
    }
    const { credentials, user, session } = signedUp;
    setSession(request, reply, session.refreshToken);
    return sendSuccess(
      reply,
      'Signed up: the client secret and the webhook secret are shown only this once',
      {
        ...sessionAnswer(session),
        client_id: credentials.merchant.clientId,
        client_secret: credentials.clientSecret,
        webhook_secret: credentials.webhookSecret,
        user: userAnswer(user),
      },
      201,
    );
  });

  app.post('/dashboard/email/verify', async (request, reply) => {
    const { token } = jsonObject(request.body, 'token');
    const user = await services.accounts.verifyEmail(token as string, originOf(request));
    return sendSuccess(reply, 'Email address verified', { email: user.email, email_verified: true });
  });

  app.post('/dashboard/email/resend', async (request, reply) => {
    const auth = await services.oauth.authenticate(request.headers.authorization);
    const sent = await services.accounts.resendVerification(auth);
    return sendSuccess(reply, sent ? 'A new verification link is on its way' : 'Your email address is verified already', { sent });
  });

  app.post('/dashboard/password/forgot', async (request, reply) => {
    const { email } = jsonObject(request.body, 'email');
    await services.passwords.forgotPassword(email as string);
    return sendSuccess(reply, FORGOT_ANSWER, {});
  });

  app.post('/dashboard/password/reset', async (request, reply) => {
    const body = jsonObject(request.body, 'token and password');
    await services.passwords.resetPassword(fromRest(body), originOf(request));
    return sendSuccess(reply, 'Password reset: every session was signed out; sign in with the new password', {});
  });
}
