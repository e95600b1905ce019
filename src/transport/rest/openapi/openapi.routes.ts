import type { FastifyInstance } from 'fastify';
import type { Config } from '../../../config';
import { AppError } from '../../../shared/errors';
import { buildOpenApiDocument } from './document';
import { DOCS_CSP, docsAsset, docsPage } from './docs-page';

/**
 * Public: GET /v1/openapi.json (the document of this environment) and GET
 * /v1/docs (Swagger UI over it, with its assets under /v1/docs/assets/). The
 * document and the page are built once, here, at start.
 */
export async function openApiRoutes(app: FastifyInstance, { config }: { config: Pick<Config, 'env' | 'adminApiKey'> }) {
  const document = buildOpenApiDocument(config);
  const json = JSON.stringify(document);
  const page = docsPage(document);

  app.get('/openapi.json', async (_request, reply) => {
    return reply.header('content-type', 'application/json; charset=utf-8').header('cache-control', 'public, max-age=300').send(json);
  });

  app.get('/docs', async (_request, reply) => {
    return reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .header('content-security-policy', DOCS_CSP)
      .header('x-content-type-options', 'nosniff')
      .header('x-frame-options', 'DENY')
      .header('referrer-policy', 'no-referrer')
      .send(page);
  });

  app.get<{ Params: { file: string } }>('/docs/assets/:file', async (request, reply) => {
    const asset = await docsAsset(request.params.file);
    if (!asset) throw AppError.notFound('Asset');
    const gzipped = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
    if (gzipped) reply.header('content-encoding', 'gzip');
    return reply
      .header('content-type', asset.type)
      .header('cache-control', 'public, max-age=86400')
      .header('vary', 'accept-encoding')
      .header('x-content-type-options', 'nosniff')
      .send(gzipped ? asset.gzipped : asset.body);
  });
}
