import fs from 'node:fs';
import path from 'node:path';
import { buildGraphQLSchema, printSchemaSdl } from '../src/transport/graphql/schema';

const SCHEMA_FILE = path.resolve(__dirname, '..', 'schema.graphql');

describe('schema.graphql', () => {
  it('is committed at the repository root and matches the code-first schema', async () => {
    expect(fs.existsSync(SCHEMA_FILE)).toBe(true);
    const committed = fs.readFileSync(SCHEMA_FILE, 'utf8');
    const generated = printSchemaSdl(await buildGraphQLSchema());
    if (committed !== generated) {
      const a = committed.split('\n');
      const b = generated.split('\n');
      const line = a.findIndex((text, i) => text !== b[i]);
      const at = line === -1 ? a.length : line;
      throw new Error(
        'schema.graphql is out of date with the code-first schema: run `npm run schema` and commit the result.\n' +
          `First difference at line ${at + 1}:\n- committed: ${a[at] ?? '<end of file>'}\n+ generated: ${b[at] ?? '<end of file>'}`,
      );
    }
    expect(committed).toBe(generated);
  });

  it('exposes the merchant query with DateTime timestamps', async () => {
    const sdl = printSchemaSdl(await buildGraphQLSchema());
    expect(sdl).toMatch(/type Query \{[\s\S]*merchant: Merchant!/);
    expect(sdl).toMatch(/scalar DateTime/);
    expect(sdl).toMatch(/createdAt: DateTime!/);
  });
});
