import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiKeyRecord, NewApiKeyRecord, serializeApiKey, serializeNewApiKey } from '../../../modules/auth/api-key.serializer';
import { createApiKeySchema, type ApiKeys } from '../../../modules/auth/api-keys';
import type { RequestOrigin } from '../../../modules/audit/audit-log';
import { authOf } from '../auth';
import { fromRest } from '../field-names';
import { operation } from '../openapi/operation';

/** The services this file calls (the composition root passes them). */
type UsedServices = { apiKeys: ApiKeys };

const listApiKeys = operation({
  operationId: 'listApiKeys',
  tag: 'ApiKeys',
  access: 'bearer',
  permission: 'keys:manage',
  summary: 'Your API keys, live first, newest first',
  description: 'A person’s session only (an API key never manages keys). GraphQL: apiKeys.',
  ok: { message: 'API keys retrieved', data: ApiKeyRecord, list: 'count' },
});

const createApiKey = operation({
  operationId: 'createApiKey',
  tag: 'ApiKeys',
  access: 'bearer',
  permission: 'keys:manage',
  summary: 'Make an API key; its secret is shown in this answer only',
  description: '`role` defaults to developer (everything the payments API offers); viewer, finance and support keys are narrower. GraphQL: createApiKey.',
  body: { name: 'CreateApiKeyRequest', schema: createApiKeySchema, example: { label: 'Checkout server', role: 'developer' } },
  ok: { status: 201, message: 'API key created', data: NewApiKeyRecord, noStore: true },
  errors: { INVALID_STATE: 'the merchant has 50 live keys already' },
});

const rotateApiKey = operation({
  operationId: 'rotateApiKey',
  tag: 'ApiKeys',
  access: 'bearer',
  permission: 'keys:manage',
  summary: 'A new secret for a key (shown once); the old secret and every token issued with the key stop working now',
  params: { id: 'The key’s id' },
  ok: { message: 'API key rotated', data: NewApiKeyRecord, noStore: true },
  errors: { NOT_FOUND: 'no such key of yours', INVALID_STATE: 'the key is revoked' },
});

const revokeApiKey = operation({
  operationId: 'revokeApiKey',
  tag: 'ApiKeys',
  access: 'bearer',
  permission: 'keys:manage',
  summary: 'Revoke a key for good: its secret and its tokens stop working now, on every instance',
  params: { id: 'The key’s id' },
  ok: { message: 'API key revoked', data: ApiKeyRecord },
  errors: { NOT_FOUND: 'no such key of yours' },
});

type IdParams = { Params: { id: string } };

/** Where a request came from, for the audit log. */
export const originOf = (request: FastifyRequest): RequestOrigin => ({ ip: request.ip, userAgent: request.headers['user-agent'] ?? null });

/** API keys managed by people (docs/access.md); bearer-protected. */
export async function apiKeyRoutes(app: FastifyInstance, { services }: { services: UsedServices }) {
  app.get('/api-keys', listApiKeys.route, async (request, reply) => {
    const keys = await services.apiKeys.list(authOf(request).merchantId);
    return listApiKeys.send(reply, keys.map(serializeApiKey));
  });

  app.post('/api-keys', createApiKey.route, async (request, reply) => {
    const made = await services.apiKeys.create(authOf(request), fromRest(request.body), originOf(request));
    return createApiKey.send(reply, serializeNewApiKey(made));
  });

  app.post<IdParams>('/api-keys/:id/rotate', rotateApiKey.route, async (request, reply) => {
    return rotateApiKey.send(reply, serializeNewApiKey(await services.apiKeys.rotate(authOf(request), request.params.id, originOf(request))));
  });

  app.post<IdParams>('/api-keys/:id/revoke', revokeApiKey.route, async (request, reply) => {
    return revokeApiKey.send(reply, serializeApiKey(await services.apiKeys.revoke(authOf(request), request.params.id, originOf(request))));
  });
}
