import 'reflect-metadata';
import { buildOpenApiDocument } from '../transport/rest/openapi/build-document';

/**
 * npm run openapi: prints the sandbox's OpenAPI document (what GET /v1/openapi.json answers in a
 * sandbox without ADMIN_API_KEY: the merchant's API, sandbox operations included, no admin routes),
 * without a server or a database: it is generated from the registered /v1 routes alone. The output
 * is deterministic (the same code prints the same bytes); the SDK's types are generated from it
 * (`npm run sdk:generate`).
 */
async function main() {
  const document = await buildOpenApiDocument({ env: 'sandbox', adminApiKey: undefined });
  process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
}

main().catch((err) => {
  process.stderr.write(`openapi failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
