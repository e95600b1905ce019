import { accessToken, adopt, ApiError, dashboardCall } from './session';

/**
 * The dashboard's own account routes (src/transport/dashboard/): sign-up, the emailed links (verify
 * an email, reset a password), invitations. None takes a bearer token but the resend; each answers
 * in the API's envelope, its errors as ApiError. Those that sign in answer an access token (the
 * refresh cookie is set with it); the page adopts it when it is ready to show the dashboard.
 */

export interface SignUpAnswer {
  merchantId: string;
  clientId: string;
  clientSecret: string;
  webhookSecret: string;
  /** The session the sign-up started: adopted once the secrets are stored ("I have saved them"). */
  session: Record<string, unknown>;
}

export async function signUp(input: { email: string; password: string; name: string; businessName: string; country: string }): Promise<SignUpAnswer> {
  const data = await dashboardCall('/dashboard/sign-up', {
    body: {
      email: input.email,
      password: input.password,
      ...(input.name ? { name: input.name } : {}),
      business_name: input.businessName,
      country: input.country,
    },
  });
  return {
    merchantId: String(data.merchant_id),
    clientId: String(data.client_id),
    clientSecret: String(data.client_secret),
    webhookSecret: String(data.webhook_secret),
    session: data,
  };
}

/** Always the same answer, whether or not the email has an account. */
export async function forgotPassword(email: string): Promise<void> {
  await dashboardCall('/dashboard/password/forgot', { body: { email } });
}

/** Single use; ends every session of the account. */
export async function resetPassword(token: string, password: string): Promise<void> {
  await dashboardCall('/dashboard/password/reset', { body: { token, password } });
}

export async function verifyEmail(token: string): Promise<void> {
  await dashboardCall('/dashboard/email/verify', { body: { token } });
}

/** Another verification email to the signed-in member. */
export async function resendVerification(): Promise<void> {
  const token = accessToken();
  if (!token) throw new ApiError('You are signed out', 'INVALID_TOKEN');
  await dashboardCall('/dashboard/email/resend', { token });
}

export interface InvitationPreview {
  merchantName: string;
  email: string;
  role: string;
  /** The email already has an account: accepting takes its password, not a new one. */
  existingUser: boolean;
}

export async function previewInvitation(token: string): Promise<InvitationPreview> {
  const data = await dashboardCall(`/dashboard/invitations/preview?${new URLSearchParams({ token })}`, { method: 'GET' });
  return { merchantName: String(data.merchant_name), email: String(data.email), role: String(data.role), existingUser: data.existing_user === true };
}

/**
 * Joins the merchant (creating the account, or with the existing account's password). When the
 * service answers a session, it is adopted; otherwise the page signs in with the email and password
 * at that merchant (`signedIn: false`), which asks a member with 2FA for a code.
 */
export async function acceptInvitation(token: string, password: string, name?: string): Promise<{ email: string; merchantId: string; signedIn: boolean }> {
  const data = await dashboardCall('/dashboard/invitations/accept', { body: { token, password, ...(name ? { name } : {}) } });
  if (typeof data.access_token === 'string') adopt(data);
  return { email: String(data.email ?? ''), merchantId: String(data.merchant_id ?? ''), signedIn: typeof data.access_token === 'string' };
}

/** The token of an emailed link (`?token=`, or `#token=`), read once; the address bar loses it (history keeps no token). */
export function takeLinkToken(): string {
  const token = new URLSearchParams(location.search).get('token') ?? new URLSearchParams(location.hash.slice(1)).get('token') ?? '';
  if (token) history.replaceState(null, '', location.pathname);
  return token;
}
