import Fastify from 'fastify';
import type { Config } from '../../../config';
import type { RateLimits } from '../../rate-limits';
import { restV1 } from '../index';
import type { OpenApiDocument } from './document';

/**
 * The OpenAPI document a service with this configuration serves at /v1/openapi.json, without
 * starting one: the /v1 routes are registered on a bare Fastify instance (handlers and hooks
 * never run, so no services are needed) and the document is generated from them, as at start.
 */
export async function buildOpenApiDocument(config: Pick<Config, 'env' | 'adminApiKey'>): Promise<OpenApiDocument> {
  const app = Fastify();
  let document: OpenApiDocument | undefined;
  await app.register(
    async (v1) => {
      await restV1(v1, { services: {} as Parameters<typeof restV1>[1]['services'], config: config as Config, rateLimits: {} as RateLimits });
      v1.addHook('onReady', async () => {
        document = v1.swagger() as unknown as OpenApiDocument;
      });
    },
    { prefix: '/v1' },
  );
  await app.ready();
  await app.close();
  return document!;
}
