/**
 * Summarises a V8 CPU profile (`node --cpu-prof`, or `npm run bench -- --profile <dir>`):
 * self time by package (node_modules/<name>, our own src/, Node internals, GC, idle)
 * and the top functions by self time.
 * Usage: node dist/bench/profile-summary.js <file.cpuprofile> [top] [--window <run id>]
 * --window: only the samples of that run's measured window (the bench writes windows.json beside
 * the profile), so start-up, seeding and warm-up are left out.
 */
import path from 'node:path';
import fs from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  startTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives: a package, our own source, Node itself, or V8's pseudo-frames. */
export function categoryOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return 'node (internals)';
  const own = /\/dist\/(src\/[^/]+(?:\/[^/]+)?)/.exec(url);
  if (own) return own[1]!;
  return url;
}

function main() {
  const args = process.argv.slice(2);
  const at = args.indexOf('--window');
  const windowId = at >= 0 ? args.splice(at, 2)[1] : undefined;
  const [file, topArg] = args;
  if (!file) throw new Error('usage: profile-summary <file.cpuprofile> [top] [--window <run id>]');
  const top = Number(topArg ?? 15);
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  let inWindow = (_us: number) => true;
  if (windowId) {
    const windows = JSON.parse(fs.readFileSync(path.join(path.dirname(file), 'windows.json'), 'utf8')) as Record<string, [number, number]>;
    const w = windows[windowId];
    if (!w) throw new Error(`no window "${windowId}" in windows.json (${Object.keys(windows).join(', ')})`);
    inWindow = (us) => us >= w[0] && us <= w[1];
  }
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  let t = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    t += delta;
    if (inWindow(t)) selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
  });
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const idle = [...selfUs.entries()].filter(([id]) => byId.get(id)?.callFrame.functionName === '(idle)').reduce((a, [, v]) => a + v, 0);
  const busy = total - idle;

  const categories = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)') continue;
    const category = categoryOf(url, functionName);
    categories.set(category, (categories.get(category) ?? 0) + us);
    const name = `${functionName || '(anonymous)'} ${category}${url ? `:${lineNumber + 1}` : ''}`;
    functions.set(name, (functions.get(name) ?? 0) + us);
  }
  const pct = (us: number) => `${((100 * us) / busy).toFixed(1)} %`;
  const rows = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
  console.log(`${file}: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy (${((100 * busy) / total).toFixed(0)} %)\n`);
  console.log('| self time by package | share of busy time |\n| --- | ---: |');
  for (const [name, us] of rows(categories)) console.log(`| ${name} | ${pct(us)} |`);
  console.log('\n| top functions (self time) | share of busy time |\n| --- | ---: |');
  for (const [name, us] of rows(functions)) console.log(`| \`${name.replace(/\|/g, '\\|')}\` | ${pct(us)} |`);
}

if (require.main === module) main();
