/**
 * Which test file leaves a handle open (TEST_OPEN_HANDLES=<file>; jest.config.js adds this file to
 * setupFilesAfterEnv then). A jest worker runs many files in one process: a socket, server, child process or
 * timer that a file leaves referenced outlives it and keeps the worker from exiting ("A worker process has
 * failed to exit gracefully"). At the start of each file, and a moment after its end, this appends to the
 * given file one JSON line per worker with the referenced handles found, so the file after which one appears
 * is the one that left it (docs/operations.md, *Tests*).
 */
import { appendFileSync } from 'node:fs';

interface Handle {
  constructor?: { name?: string };
  hasRef?: () => boolean;
  remoteAddress?: string;
  remotePort?: number;
  localPort?: number;
  spawnfile?: string;
  pid?: number;
  address?: () => unknown;
  _onTimeout?: { name?: string; toString(): string };
}

const out = process.env.TEST_OPEN_HANDLES!;
const file = expect.getState().testPath?.replace(`${process.cwd()}/`, '') ?? '?';

function describeHandle(h: Handle): string {
  const kind = h.constructor?.name ?? typeof h;
  if (kind === 'Socket' || kind === 'TLSSocket') return `${kind} ${h.remoteAddress ?? ''}:${h.remotePort ?? ''} (local ${h.localPort ?? ''})`;
  if (kind === 'ChildProcess') return `ChildProcess ${h.spawnfile ?? ''} pid ${h.pid ?? ''}`;
  if (kind === 'Server') return `Server ${JSON.stringify(h.address?.() ?? null)}`;
  if (kind === 'Timeout') return `Timeout ${(h._onTimeout?.toString() ?? '').replace(/\s+/g, ' ').slice(0, 120)}`;
  return kind;
}

function record(when: 'start' | 'after'): void {
  const active = (process as unknown as { _getActiveHandles(): Handle[] })._getActiveHandles();
  const referenced = active.filter((h) => h.hasRef?.() !== false).map(describeHandle);
  appendFileSync(out, `${JSON.stringify({ pid: process.pid, file, when, at: new Date().toISOString(), handles: referenced })}\n`);
}

beforeAll(() => record('start'));
// Registered first, so it runs before the file's own afterAll hooks: the check waits for them (and for the
// sockets they close) by looking a second later, from a timer that itself does not hold the worker.
afterAll(() => {
  setTimeout(() => record('after'), 1000).unref();
});
