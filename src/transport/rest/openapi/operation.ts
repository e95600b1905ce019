import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import type { ErrorCode } from '../../../shared/errors';
import type { Permission } from '../../../modules/access/permissions';
import { sendSuccess } from '../envelope';
import type { JsonSchema } from './json-schema';

/**
 * A /v1 route's description, attached to the route itself (`app.get(url, op.route, handler)`):
 * its summary, access, the service's request schemas, its answer (message and record) and the
 * errors it adds. The OpenAPI document is generated from the registered routes
 * (@fastify/swagger, document.ts); the handler answers with `op.send`, so the documented message
 * and record are the ones sent. Nothing here is compiled by Fastify: the services validate their
 * input (the same zod schemas serve GraphQL), and answers are written by the serializers.
 */
export interface OperationSpec<Data extends z.ZodType | undefined = z.ZodType | undefined> {
  operationId: string;
  tag: TagName;
  summary: string;
  description?: string;
  /**
   * public: no credentials; client: none either, but the OAuth client may authenticate (HTTP Basic or body);
   * bearer: a merchant's access token; admin: ADMIN_API_KEY as a bearer token (the route exists only when it is set).
   */
  access: 'public' | 'client' | 'bearer' | 'admin';
  /**
   * bearer routes: what the caller's role must allow (docs/access.md; `signed_in`: any role). The bearer
   * hook refuses a bearer route without it, so a new route cannot be open to every role by omission.
   */
  permission?: Permission | 'signed_in';
  /** Registered only when PAYMENTS_ENV=sandbox (documented so: `x-sandbox-only`). */
  sandboxOnly?: true;
  /** Path parameters: name → description. */
  params?: Record<string, string>;
  /** The service's schema of the query string. */
  query?: z.ZodType;
  /** The service's schema of the JSON body, its component name, and a valid example. `form`: also form-urlencoded. */
  body?: { name: string; schema: z.ZodType; example: Record<string, unknown>; form?: true };
  /** What a zod schema cannot say about a top-level query or body field. */
  fields?: Record<string, FieldDoc>;
  /**
   * The success answer: the envelope's message (sent as it is unless the handler says another), its
   * `data` (a record's schema, from its serializer's file; left out, just "an object"), and a list's `meta`.
   */
  ok?: { status?: 200 | 201; message: string; data?: Data; list?: 'count' | 'page'; noStore?: true };
  /** The errors this route answers beyond those its access and input imply, each with when. */
  errors?: Partial<Record<ErrorCode, string>>;
  /**
   * A route that is not JSON (an HTML page, a provider's notification, a CSV file): its request body and answers as
   * written; `withErrors`: the JSON error answers its access, input and `errors` imply are documented as usual.
   */
  raw?: { requestBody?: JsonSchema; responses: Record<string, JsonSchema>; withErrors?: true };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's description (operation(…).route): what the OpenAPI document says of it. */
    operation?: OperationSpec;
  }
}

interface FieldDoc {
  description?: string;
  /** Replaces the generated schema (for a field the service parses itself). */
  schema?: JsonSchema;
  required?: true;
}

export const TAGS = {
  OAuth: 'Access tokens (OAuth 2.0 client credentials, refresh with rotation, revocation). No bearer token needed.',
  Merchant: 'The merchant’s own profile.',
  Customers: 'Enrollment and KYC (spec call order, steps 1–3).',
  Lookups: 'Countries, channels and networks (steps 4–6): short reference lists, not paged.',
  Rates: 'FX quotes (step 7).',
  Transactions: 'Cross-border collections and transfers (steps 8–9) and the status of any transaction.',
  Payments: 'Domestic payments: card (with 3-D Secure), mobile money and bank transfer.',
  Checkout: 'Hosted checkout sessions, payment links and the checkout page’s settings (docs/checkout.md): take a payment without touching card data.',
  Webhooks: 'Where events are delivered, the signing secret, and the event log.',
  ApiKeys: 'Your API keys, each with a label and a role (docs/access.md). Managed by people: an API key never manages keys.',
  Balances: 'Your books: balances per currency, every movement of them, and statements (docs/ledger.md).',
  Payouts:
    'Your balance paid out to your own account (docs/payouts.md): payouts and their reports, the schedule (when), and the destinations (where: name-checked per currency, changed by maker-checker, people only).',
  Refunds: 'Refunds of card payments, full or partial.',
  Disputes:
    'Cardholders’ disputes of card payments (docs/disputes.md): inquiries and chargebacks, the money a chargeback holds, your evidence and its files, the deadline.',
  Audit: 'The audit log: every security-relevant action, who did it and from where. Owners and admins only.',
  Sandbox: 'Sandbox only: these routes do not exist in production.',
  Admin: 'Operator API. Exists only when the service has ADMIN_API_KEY set; authenticate with that key as a bearer token.',
  Reference: 'This document and its reader.',
  Providers: 'Where payment providers send their notifications (docs/providers.md). Not for merchants.',
} as const;
type TagName = keyof typeof TAGS;

/** What a route's handler sends as `data`: the record its description names (a list of them for a list). */
type DataOf<S extends OperationSpec> = S['ok'] extends { data: infer D extends z.ZodType }
  ? S['ok'] extends { list: string }
    ? Array<z.output<D>>
    : z.output<D>
  : unknown;

export interface Operation<S extends OperationSpec> {
  spec: S;
  /** The route options that attach this description to the route. */
  route: { config: { operation: OperationSpec } };
  /** The success envelope with the documented message and status, unless this answer has its own. */
  send(reply: FastifyReply, data: DataOf<S>, answer?: { message?: string; status?: number; meta?: unknown }): FastifyReply;
}

/** A route's description, and the answer it documents. */
export function operation<const S extends OperationSpec>(spec: S): Operation<S> {
  const message = spec.ok?.message ?? '';
  const status = spec.ok?.status ?? 200;
  return {
    spec,
    route: { config: { operation: spec } },
    send: (reply, data, answer) => {
      // A documented no-store answer (a secret shown once) is never cached, whoever sends it.
      if (spec.ok?.noStore) reply.header('cache-control', 'no-store');
      return sendSuccess(reply, answer?.message ?? message, data, answer?.status ?? status, answer?.meta);
    },
  };
}
