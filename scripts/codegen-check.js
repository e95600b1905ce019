/**
 * npm run codegen:check (run by `npm run lint`): fails when dashboard/src/generated/ is not what
 * `npm run codegen` would write now, i.e. a dashboard query or schema.graphql changed without
 * regenerating. It generates in memory from dashboard/codegen.yml (the same config and code as
 * `npm run codegen`) and compares, file by file, with what is committed; it writes nothing.
 * A query that does not match the schema fails here too (codegen validates every document).
 */
const fs = require('node:fs');
const path = require('node:path');
const { generate, loadCodegenConfig } = require('@graphql-codegen/cli');

const root = path.resolve(__dirname, '..');
const GENERATED = 'dashboard/src/generated';

async function main() {
  process.chdir(root);
  const { config } = await loadCodegenConfig({ configFilePath: path.join(root, 'dashboard/codegen.yml') });
  const outputs = await generate({ ...config, silent: true, verbose: false, errorsOnly: true }, false);
  const expected = new Map(outputs.map((o) => [path.relative(root, path.resolve(root, o.filename)).split(path.sep).join('/'), o.content]));
  const onDisk = fs.existsSync(GENERATED) ? fs.readdirSync(GENERATED).map((f) => `${GENERATED}/${f}`) : [];
  const problems = [];
  for (const [file, content] of expected) {
    if (!fs.existsSync(file)) problems.push(`${file} is missing`);
    else if (fs.readFileSync(file, 'utf8') !== content) problems.push(`${file} differs from what codegen generates now`);
  }
  for (const file of onDisk) if (!expected.has(file)) problems.push(`${file} is no longer generated`);
  if (problems.length > 0) {
    process.stderr.write(
      `codegen:check: the dashboard's generated GraphQL code is stale: run \`npm run codegen\` and commit the result.\n  ${problems.join('\n  ')}\n`,
    );
    process.exit(1);
  }
  process.stdout.write(`codegen:check: ${expected.size} generated files are current\n`);
}

main().catch((err) => {
  process.stderr.write(`codegen:check failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
