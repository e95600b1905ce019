import type { FastifyInstance } from 'fastify';
import { AppError } from '../../../shared/errors';
import { DOCS_CSP, docsAsset, docsPage } from './docs-page';
import type { OpenApiDocument } from './document';
import { operation } from './operation';

const getOpenApiDocument = operation({
  operationId: 'getOpenApiDocument',
  tag: 'Reference',
  access: 'public',
  summary: 'This OpenAPI document',
  raw: {
    responses: { '200': { description: 'The OpenAPI 3.1 document of this environment', content: { 'application/json': { schema: { type: 'object' } } } } },
  },
});

const getApiDocs = operation({
  operationId: 'getApiDocs',
  tag: 'Reference',
  access: 'public',
  summary: 'This document, to read in a browser',
  raw: {
    responses: { '200': { description: 'An HTML page (Swagger UI) rendering /v1/openapi.json', content: { 'text/html': { schema: { type: 'string' } } } } },
  },
});

/**
 * Public: GET /v1/openapi.json (the document of this environment) and GET
 * /v1/docs (Swagger UI over it, with its assets under /v1/docs/assets/). The
 * document is generated once, when the service is ready, from the routes it
 * registered (@fastify/swagger, registered in index.ts; document.ts).
 */
export async function openApiRoutes(app: FastifyInstance) {
  let json = '';
  let page = '';
  app.addHook('onReady', async () => {
    const document = app.swagger() as unknown as OpenApiDocument;
    json = JSON.stringify(document);
    page = docsPage(document);
  });

  app.get('/openapi.json', getOpenApiDocument.route, async (_request, reply) => {
    return reply.header('content-type', 'application/json; charset=utf-8').header('cache-control', 'public, max-age=300').send(json);
  });

  app.get('/docs', getApiDocs.route, async (_request, reply) => {
    return reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .header('content-security-policy', DOCS_CSP)
      .header('x-content-type-options', 'nosniff')
      .header('x-frame-options', 'DENY')
      .header('referrer-policy', 'no-referrer')
      .send(page);
  });

  // The page's own files: not API, left out of the document.
  app.get<{ Params: { file: string } }>('/docs/assets/:file', { schema: { hide: true } }, async (request, reply) => {
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
