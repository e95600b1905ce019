import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { buildGraphQLSchema, printSchemaSdl } from '../transport/graphql/schema';

/**
 * npm run schema: writes the code-first schema to schema.graphql at the repository root.
 * `npm run schema -- --stdout` prints it instead (inside the image, whose files are read-only).
 */
async function main() {
  const sdl = printSchemaSdl(await buildGraphQLSchema());
  if (process.argv.includes('--stdout')) {
    process.stdout.write(sdl);
    return;
  }
  const target = path.resolve(__dirname, '../../../schema.graphql');
  fs.writeFileSync(target, sdl);
  process.stdout.write(`wrote ${target}\n`);
}

main().catch((err) => {
  process.stderr.write(`schema failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
