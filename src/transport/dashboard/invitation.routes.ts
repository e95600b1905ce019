import type { FastifyInstance } from 'fastify';
import type { InvitationService } from '../../modules/team/invitation.service';
import { AppError } from '../../shared/errors';
import type { PublicAddress } from '../../shared/public-address';
import type { RateLimits } from '../rate-limits';
import { sendSuccess } from '../rest/envelope';
import { limitRequest } from '../rest/rate-limit';
import { originOf } from '../rest/v1/api-key.routes';
import { DASHBOARD_SESSION_HEADER, fromThisOrigin } from './dashboard-scope';

/** The services this file calls (the composition root passes them). */
type UsedServices = { invitations: InvitationService; publicAddress: PublicAddress };

/**
 * The dashboard's accept-invitation page (unauthenticated; the link's token is the credential):
 * what the link is for, then joining. A new person sets their name and password here; an existing
 * one types their password. The page then signs in with the email and that password
 * (POST /dashboard/session). Dashboard-internal, under the session routes' rules: the
 * X-Requested-With header and a same-origin request, rate limited by address.
 */
export async function invitationRoutes(app: FastifyInstance, { services, rateLimits }: { services: UsedServices; rateLimits: RateLimits }) {
  app.addHook('onRequest', async (request, reply) => limitRequest(rateLimits, 'tokenIp', request.ip, reply));
  app.addHook('onRequest', async (request) => {
    if (!fromThisOrigin(request, services.publicAddress))
      throw AppError.invalidRequest('Cross-site request refused: invitations are for the dashboard’s own pages');
    if (!request.headers[DASHBOARD_SESSION_HEADER]) throw AppError.invalidRequest('The X-Requested-With header is required');
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  });

  app.get('/dashboard/invitations/preview', async (request, reply) => {
    const { token } = (request.query ?? {}) as Record<string, unknown>;
    const preview = await services.invitations.preview(token as string);
    return sendSuccess(reply, 'Invitation', {
      merchant_name: preview.merchantName,
      email: preview.email,
      role: preview.role,
      existing_user: preview.existingUser,
    });
  });

  app.post('/dashboard/invitations/accept', async (request, reply) => {
    const body = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw AppError.invalidRequest('The body must be a JSON object with token and password');
    const { token, name, password } = body as Record<string, unknown>;
    const accepted = await services.invitations.accept(
      { token: token as string, name: name as string | undefined, password: password as string },
      originOf(request),
    );
    return sendSuccess(reply, 'Invitation accepted: sign in', { merchant_id: accepted.merchantId, email: accepted.email, role: accepted.role });
  });
}
