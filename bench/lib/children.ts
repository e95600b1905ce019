/** Child processes the harness starts: tracked, so every one of them is stopped, even on failure. */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import readline from 'node:readline';

const children = new Set<ChildProcess>();

export function spawnTracked(command: string, args: string[], opts: SpawnOptions): ChildProcess {
  const child = spawn(command, args, opts);
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once it has exited. */
export function stopChild(child: ChildProcess, graceMs = 15_000): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export async function stopAll(graceMs = 15_000): Promise<void> {
  await Promise.all([...children].map((c) => stopChild(c, graceMs)));
}

/** Last resort (process exit, watchdog): SIGKILL whatever is still running. */
export function killAllNow(): void {
  for (const child of children) {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** Calls `onEvent` for each JSON line the child prints on stdout (other lines are kept as text). */
export function jsonLines(child: ChildProcess, onEvent: (event: any) => void): { text: () => string } {
  let text = '';
  const rl = readline.createInterface({ input: child.stdout! });
  rl.on('line', (line) => {
    let parsed: any;
    try {
      parsed = JSON.parse(line);
    } catch {
      text += `${line}\n`;
      return;
    }
    onEvent(parsed);
  });
  return { text: () => text };
}

/** Collects (the end of) a child's stderr. */
export function tail(child: ChildProcess, max = 4000): () => string {
  let text = '';
  child.stderr?.on('data', (d: Buffer) => {
    text = (text + d.toString()).slice(-max);
  });
  return () => text;
}
