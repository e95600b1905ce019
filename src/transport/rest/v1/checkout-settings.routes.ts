import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { checkoutSettingsSchema, type CheckoutSettings } from '../../../modules/merchants/checkout-settings';
import type { MerchantService } from '../../../modules/merchants/merchant.service';
import { AppError } from '../../../shared/errors';
import { record } from '../../../shared/records';
import { auditOf } from '../audit-context';
import { authOf } from '../auth';
import { fromRest } from '../field-names';
import { operation } from '../openapi/operation';

/** The services this file calls (the composition root passes them). */
type UsedServices = { merchants: MerchantService };

const CheckoutSettingsRecord = record(
  'CheckoutSettings',
  z.object({
    logo_url: z
      .string()
      .nullable()
      .describe('Where this service serves your logo (PUBLIC_BASE_URL/checkout/logos/{sha256}), shown on your hosted checkout page; null: your name only'),
    embed_origins: z.array(z.string()).describe('Origins allowed to frame your checkout page (its frame-ancestors); empty: none may'),
  }),
  'How your hosted checkout page looks, and where it may be framed.',
);

const serialize = (s: CheckoutSettings) => ({ logo_url: s.logoUrl, embed_origins: s.embedOrigins });

const getCheckoutSettings = operation({
  operationId: 'getCheckoutSettings',
  tag: 'Checkout',
  access: 'bearer',
  permission: 'transactions:read',
  summary: 'Your hosted checkout page’s settings',
  ok: { message: 'Checkout settings retrieved', data: CheckoutSettingsRecord },
});

const setCheckoutSettings = operation({
  operationId: 'setCheckoutSettings',
  tag: 'Checkout',
  access: 'bearer',
  permission: 'payments:create',
  summary: 'Change your hosted checkout page’s logo or embedding origins',
  description:
    "A field left out stays as it is; null clears it. `logo` is the image itself, base64: a PNG or JPEG (checked by its content) of at most 50 KB. This service keeps it and serves it from its own origin (`logo_url` in the answer), so the page makes no request anywhere else. `embed_origins` lists, exactly as browsers send them, the origins allowed to frame the page in an iframe; by default none may (frame-ancestors 'none').",
  body: {
    name: 'CheckoutSettingsRequest',
    schema: checkoutSettingsSchema,
    example: {
      logo: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      embed_origins: ['https://shop.example'],
    },
  },
  ok: { message: 'Checkout settings saved', data: CheckoutSettingsRecord },
});

/** The hosted checkout page's settings (issue 37); bearer-protected. */
export async function checkoutSettingsRoutes(app: FastifyInstance, { services }: { services: UsedServices }) {
  app.get('/checkout/settings', getCheckoutSettings.route, async (request, reply) => {
    return getCheckoutSettings.send(reply, serialize(await services.merchants.checkoutSettings(authOf(request).merchantId)));
  });

  app.put('/checkout/settings', setCheckoutSettings.route, async (request, reply) => {
    const body = request.body;
    // A PUT names what it changes: an empty object changes nothing, but no body at all is a mistake.
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw AppError.invalidRequest('The body must be a JSON object with logo or embed_origins');
    // The logo's address is ours now (the answer's logo_url): an address sent here would be silently ignored otherwise.
    if ('logo_url' in body)
      throw AppError.invalidField('logo_url', 'is read-only: send the image itself as logo (base64 of a PNG or JPEG); this service serves it');
    const saved = await services.merchants.setCheckoutSettings(authOf(request).merchantId, fromRest(body), auditOf(request));
    return setCheckoutSettings.send(reply, serialize(saved));
  });
}
