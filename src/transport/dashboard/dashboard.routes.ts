import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../shared/errors';

/** Where `npm run build` puts the dashboard (Vite, dashboard/vite.config.mts): dist/dashboard, beside dist/src (this file's compiled home) or below the sources' root (tests run the sources). */
export const DASHBOARD_DIST = __dirname.includes(`${path.sep}dist${path.sep}src${path.sep}`)
  ? path.resolve(__dirname, '../../../dashboard')
  : path.resolve(__dirname, '../../../dist/dashboard');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

interface Asset {
  type: string;
  body: Buffer;
  gzipped: Buffer;
}

/**
 * The page's policy: scripts, styles and requests only to this origin (the API it signs in
 * to, and its WebSocket), nothing framed, nothing inline. `ws` is the socket's origin, from
 * the request's Host (checked: a Host that is not a plain host[:port] gets 'self' alone).
 */
const csp = (ws: string | null) =>
  [
    "default-src 'self'",
    `connect-src 'self'${ws ? ` ${ws}` : ''}`,
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');

const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

async function gzipped(body: Buffer): Promise<Buffer> {
  return promisify(gzip)(body);
}

const acceptsGzip = (request: FastifyRequest) => /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));

function sendAsset(request: FastifyRequest, reply: FastifyReply, asset: Asset, cacheControl: string) {
  const zipped = acceptsGzip(request);
  if (zipped) reply.header('content-encoding', 'gzip');
  return reply
    .header('content-type', asset.type)
    .header('cache-control', cacheControl)
    .header('vary', 'accept-encoding')
    .header('x-content-type-options', 'nosniff')
    .send(zipped ? asset.gzipped : asset.body);
}

interface DashboardFiles {
  page: Asset;
  assets: Map<string, Asset>;
}

/** The built files, read and gzipped once per process (several instances in one process, as the tests start, share them); null without a build. */
let files: Promise<DashboardFiles | null> | undefined;

async function readDashboardFiles(): Promise<DashboardFiles | null> {
  const html = await readFile(path.join(DASHBOARD_DIST, 'index.html')).catch(() => null);
  if (!html) return null;
  const page: Asset = { type: 'text/html; charset=utf-8', body: html, gzipped: await gzipped(html) };
  const assets = new Map<string, Asset>();
  const assetDir = path.join(DASHBOARD_DIST, 'assets');
  for (const name of await readdir(assetDir).catch(() => [] as string[])) {
    const type = TYPES[path.extname(name)];
    if (!type) continue;
    const body = await readFile(path.join(assetDir, name));
    assets.set(name, { type, body, gzipped: await gzipped(body) });
  }
  return { page, assets };
}

/**
 * GET /dashboard: the merchant dashboard, a single-page app on the public GraphQL API.
 * Its files are read (and gzipped) once per process, at the first start, and served from memory: the page
 * itself is never cached (`no-cache`: a new build is picked up at the next start), its hashed assets are
 * cached for a year. Any other path under /dashboard is a client route: the page again.
 * Nothing here touches the API's routes or hooks. Without a build, /dashboard says so (404).
 */
export async function dashboardRoutes(app: FastifyInstance) {
  files ??= readDashboardFiles().catch((error: unknown) => {
    files = undefined;
    throw error;
  });
  const built = await files;
  if (!built) {
    // Not kept: a build made after this start is found by the next one.
    files = undefined;
    const missing = async () => {
      throw AppError.notFound('The dashboard is not built: run `npm run build`; it');
    };
    app.get('/dashboard', missing);
    app.get('/dashboard/*', missing);
    return;
  }
  const { page, assets } = built;

  const sendPage = (request: FastifyRequest, reply: FastifyReply) => {
    const host = request.headers.host;
    const ws = host && HOST.test(host) ? `${request.protocol === 'https' ? 'wss' : 'ws'}://${host}` : null;
    return sendAsset(request, reply, page, 'no-cache')
      .header('content-security-policy', csp(ws))
      .header('x-frame-options', 'DENY')
      .header('referrer-policy', 'no-referrer');
  };

  app.get<{ Params: { file: string } }>('/dashboard/assets/:file', async (request, reply) => {
    const asset = assets.get(request.params.file);
    if (!asset) throw AppError.notFound('Asset');
    return sendAsset(request, reply, asset, 'public, max-age=31536000, immutable');
  });
  app.get('/dashboard', async (request, reply) => sendPage(request, reply));
  app.get('/dashboard/*', async (request, reply) => sendPage(request, reply));
}
