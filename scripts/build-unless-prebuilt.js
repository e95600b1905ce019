#!/usr/bin/env node
// The CLIs' build step. In a checkout (with src/ and tsconfig.json) it compiles with tsc, so a
// CLI always runs the current source. The production image holds only the dist/ compiled when
// the image was built (no sources, no dev dependencies): there it uses that build rather than
// failing on a missing compiler or type packages.
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const root = path.resolve(__dirname, '..');
const checkout = fs.existsSync(path.join(root, 'tsconfig.json')) && fs.existsSync(path.join(root, 'src'));
if (checkout) {
  const tsc = require.resolve('typescript/bin/tsc', { paths: [root] });
  const result = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.json')], { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}
if (fs.existsSync(path.join(root, 'dist', 'src', 'main.js'))) process.exit(0);
process.stderr.write('dist/ is missing: build the image again, or run `npm ci && npm run build` in a checkout\n');
process.exit(1);
