import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { OpenApiDocument } from './document';

/**
 * The docs page: Swagger UI (swagger-ui-dist, Apache-2.0), served by this
 * service from node_modules, so the page fetches nothing from anywhere else and
 * its Content-Security-Policy allows only 'self' (and data: images, which
 * Swagger UI's stylesheet uses for its icons).
 */
const SWAGGER_UI_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const SWAGGER_UI_VERSION = (require('swagger-ui-dist/package.json') as { version: string }).version;

export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Swagger UI's start: our own file, since the CSP allows no inline script. Paths are relative to /v1/docs. */
const START_SCRIPT = `'use strict';
window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: 'openapi.json',
    dom_id: '#swagger-ui',
    presets: [SwaggerUIBundle.presets.apis],
    deepLinking: true,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    displayOperationId: false,
    validatorUrl: null,
    responseInterceptor: unwrapTokenAnswer
  });
});

// Authorize (client credentials): our token endpoint answers in the API's envelope,
// {status, message, data: {access_token, ...}}, and Swagger UI's OAuth login reads access_token at
// the top level (RFC 6749 §5.1), so it would send "Bearer undefined". Its answer is unwrapped here.
function unwrapTokenAnswer(res) {
  try {
    if (res.ok && new URL(res.url, window.location.href).pathname.endsWith('/v1/oauth/token')) {
      var body = JSON.parse(res.data);
      if (body && body.data && typeof body.data.access_token === 'string') {
        res.data = res.text = JSON.stringify(body.data);
        res.body = res.obj = body.data;
      }
    }
  } catch (e) {
    // Not JSON, or not the token endpoint: Swagger UI shows the answer as it came.
  }
  return res;
}
`;

interface Asset {
  type: string;
  load: () => Promise<Buffer>;
}

/** The only files /v1/docs/assets/ serves. */
const ASSETS: Record<string, Asset> = {
  'swagger-ui-bundle.js': { type: 'application/javascript; charset=utf-8', load: () => readFile(path.join(SWAGGER_UI_DIR, 'swagger-ui-bundle.js')) },
  'swagger-ui.css': { type: 'text/css; charset=utf-8', load: () => readFile(path.join(SWAGGER_UI_DIR, 'swagger-ui.css')) },
  'favicon-32x32.png': { type: 'image/png', load: () => readFile(path.join(SWAGGER_UI_DIR, 'favicon-32x32.png')) },
  'docs.js': { type: 'application/javascript; charset=utf-8', load: async () => Buffer.from(START_SCRIPT) },
};

export interface LoadedAsset {
  type: string;
  body: Buffer;
  gzipped: Buffer;
}

const loaded = new Map<string, Promise<LoadedAsset>>();

/** An asset, read and compressed on first use and kept (the bundle is 1.7 MB, 0.5 MB gzipped). */
export function docsAsset(name: string): Promise<LoadedAsset> | undefined {
  const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name]! : undefined;
  if (!asset) return undefined;
  let entry = loaded.get(name);
  if (!entry) {
    entry = asset.load().then(async (body) => ({ type: asset.type, body, gzipped: await promisify(gzip)(body) }));
    entry.catch(() => loaded.delete(name)); // a failed read is tried again next time
    loaded.set(name, entry);
  }
  return entry;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Every operation as a plain list, for a reader without JavaScript (and a check that the page names them all). */
function operationIndex(document: OpenApiDocument): string {
  const lines: string[] = [];
  for (const [route, item] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(item)) {
      lines.push(`<li><code>${method.toUpperCase()} ${escapeHtml(route)}</code> ${escapeHtml(String(op.summary ?? ''))}</li>`);
    }
  }
  return `<ul>${lines.join('')}</ul>`;
}

/** The page at /v1/docs, rendered once from the document. */
export function docsPage(document: OpenApiDocument): string {
  const info = document.info as { title: string; version: string };
  const v = `?v=${encodeURIComponent(`${SWAGGER_UI_VERSION}-${info.version}`)}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(info.title)} ${escapeHtml(info.version)}</title>
<link rel="icon" type="image/png" href="docs/assets/favicon-32x32.png${v}">
<link rel="stylesheet" href="docs/assets/swagger-ui.css${v}">
</head>
<body>
<div id="swagger-ui"></div>
<noscript>
<h1>${escapeHtml(info.title)} ${escapeHtml(info.version)}</h1>
<p>This page needs JavaScript. The document itself is at <a href="openapi.json">/v1/openapi.json</a>.</p>
${operationIndex(document)}
</noscript>
<script src="docs/assets/swagger-ui-bundle.js${v}"></script>
<script src="docs/assets/docs.js${v}"></script>
</body>
</html>
`;
}
