/**
 * Summarises a V8 CPU profile (`node --cpu-prof`, or `npm run bench -- --profile <dir>`):
 * self time by package (node_modules/<name>, our own src/, Node internals, GC, idle)
 * and the top functions by self time. Usage: node dist/bench/profile-summary.js <file.cpuprofile> [top]
 */
import fs from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
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
  const [file, topArg] = process.argv.slice(2);
  if (!file) throw new Error('usage: profile-summary <file.cpuprofile> [top]');
  const top = Number(topArg ?? 15);
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
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
