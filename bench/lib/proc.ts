/**
 * Linux /proc accounting: CPU time (utime + stime) and resident memory of the
 * processes under test, and of PostgreSQL's processes serving the bench database.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

let ticksPerSecond: number | undefined;

/** USER_HZ, the unit of utime/stime in /proc/<pid>/stat. */
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** utime + stime of one process, in clock ticks; undefined when it is gone. */
function cpuTicks(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state); utime and stime are fields 14 and 15.
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

/** VmRSS of one process, in kB; undefined when it is gone. */
export function rssKb(pid: number): number | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * CPU ticks of every process named `postgres`, by pid, except client backends
 * connected to another database (other work on a shared machine). The postmaster
 * and the shared auxiliary processes (WAL writer, checkpointer, …) are included.
 */
function postgresTicks(database: string): Map<number, number> {
  const out = new Map<number, number>();
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return out;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    try {
      const comm = fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
      if (comm !== 'postgres') continue;
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      // A client backend's title: "postgres: <cluster>: <user> <database> <host>(<port>) <state>"
      const backend = /^postgres: (?:[^:]+: )?(\S+) (\S+) (\S+\(\d+\)|\[local\])/.exec(cmdline);
      if (backend && backend[2] !== database) continue;
      const ticks = cpuTicks(pid);
      if (ticks !== undefined) out.set(pid, ticks);
    } catch {
      // the process ended meanwhile
    }
  }
  return out;
}

export interface Usage {
  wallMs: number;
  /** CPU milliseconds of each watched process over the window. */
  cpuMs: Record<string, number | null>;
  /** Peak VmRSS of each watched process over the window, in MB. */
  rssPeakMb: Record<string, number | null>;
  /** CPU milliseconds of PostgreSQL's processes serving the bench database (see postgresTicks). */
  postgresCpuMs: number;
}

/**
 * Watches a set of named processes over one window: CPU from /proc/<pid>/stat at
 * the start and end, RSS sampled every `everyMs`.
 */
export class UsageWindow {
  private readonly startTicks = new Map<string, number | undefined>();
  private readonly peakKb = new Map<string, number>();
  private readonly pgStart: Map<number, number>;
  private readonly startedAt = performance.now();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pids: Record<string, number | undefined>,
    private readonly database: string,
    everyMs = 200,
  ) {
    for (const [name, pid] of Object.entries(pids)) this.startTicks.set(name, pid ? cpuTicks(pid) : undefined);
    this.pgStart = postgresTicks(database);
    this.sample();
    this.timer = setInterval(() => this.sample(), everyMs);
    this.timer.unref();
  }

  private sample() {
    for (const [name, pid] of Object.entries(this.pids)) {
      if (!pid) continue;
      const kb = rssKb(pid);
      if (kb !== undefined && kb > (this.peakKb.get(name) ?? 0)) this.peakKb.set(name, kb);
    }
  }

  stop(): Usage {
    this.sample();
    clearInterval(this.timer);
    const hz = clockTicks();
    const cpuMs: Record<string, number | null> = {};
    const rssPeakMb: Record<string, number | null> = {};
    for (const [name, pid] of Object.entries(this.pids)) {
      const start = this.startTicks.get(name);
      const end = pid ? cpuTicks(pid) : undefined;
      cpuMs[name] = start === undefined || end === undefined ? null : ((end - start) * 1000) / hz;
      const kb = this.peakKb.get(name);
      rssPeakMb[name] = kb === undefined ? null : Math.round(kb / 102.4) / 10;
    }
    let pgTicks = 0;
    for (const [pid, ticks] of postgresTicks(this.database)) pgTicks += ticks - (this.pgStart.get(pid) ?? 0);
    return { wallMs: performance.now() - this.startedAt, cpuMs, rssPeakMb, postgresCpuMs: (pgTicks * 1000) / hz };
  }
}
