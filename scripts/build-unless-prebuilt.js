#!/usr/bin/env node
// The build step of `npm start` and the CLIs. In a checkout (with src/ and tsconfig.json) it compiles
// with tsc, incrementally (a second run with nothing changed takes a few seconds), so a CLI always
// runs the current source. `--with-dashboard` (npm start) also builds the dashboard, but only when a
// file under dashboard/ is newer than its last build. The production image holds only the dist/
// compiled when the image was built (no sources, no dev dependencies): there it uses that build
// rather than failing on a missing compiler or type packages.
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const root = path.resolve(__dirname, '..');
const checkout = fs.existsSync(path.join(root, 'tsconfig.json')) && fs.existsSync(path.join(root, 'src'));

/** The newest modification time of the files under dir (node_modules aside). */
function newest(dir) {
  let latest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : fs.statSync(full).mtimeMs);
  }
  return latest;
}

function run(args) {
  const result = spawnSync(process.execPath, args, { stdio: 'inherit', cwd: root });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (checkout) {
  run([require.resolve('typescript/bin/tsc', { paths: [root] }), '-p', path.join(root, 'tsconfig.json')]);
  if (process.argv.includes('--with-dashboard')) {
    const built = path.join(root, 'dist', 'dashboard', 'index.html');
    const dashboard = path.join(root, 'dashboard');
    if (!fs.existsSync(built) || newest(dashboard) > fs.statSync(built).mtimeMs) {
      run([require.resolve('typescript/bin/tsc', { paths: [root] }), '-p', path.join(dashboard, 'tsconfig.json')]);
      run([
        path.join(path.dirname(require.resolve('vite/package.json', { paths: [root] })), 'bin', 'vite.js'),
        'build',
        '--config',
        path.join(dashboard, 'vite.config.mts'),
        '--logLevel',
        'warn',
      ]);
    }
  }
  process.exit(0);
}
if (fs.existsSync(path.join(root, 'dist', 'src', 'main.js'))) process.exit(0);
process.stderr.write('dist/ is missing: build the image again, or run `npm ci && npm run build` in a checkout\n');
process.exit(1);
