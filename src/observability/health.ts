import type { Logger } from '../shared/logger';

/** How long one dependency may take to answer a readiness check. */
const READINESS_CHECK_TIMEOUT_MS = 1000;

export type CheckStatus = 'ok' | 'failed' | 'not_configured';

export interface ReadinessReport {
  ready: boolean;
  /** Set once the instance is shutting down: it answers not ready without running the checks (`checks` is empty). */
  draining: boolean;
  checks: Record<string, CheckStatus>;
  /** The dependencies that failed, by name. */
  failed: string[];
}

/** A dependency's check: resolves when it answers, throws (or hangs) when it does not. Null: not configured. */
export type DependencyCheck = (() => Promise<unknown>) | null;

/**
 * Whether this instance should receive traffic: each dependency answers within a
 * second, and the instance is not shutting down. The checks run together. A failure's
 * cause is logged when a dependency goes down (and when it comes back), not on every
 * probe, and never shown to the caller: the probe is unauthenticated.
 */
export class Readiness {
  private draining = false;
  private readonly down = new Set<string>();

  private readonly checks: Record<string, DependencyCheck>;
  private readonly logger: Logger;
  private readonly timeoutMs: number;

  /** `timeoutMs`: how long one check may take before it counts as down. */
  constructor({ checks, logger, timeoutMs = READINESS_CHECK_TIMEOUT_MS }: { checks: Record<string, DependencyCheck>; logger: Logger; timeoutMs?: number }) {
    this.checks = checks;
    this.logger = logger;
    this.timeoutMs = timeoutMs;
  }

  /** From now on answer not ready (shutdown: the load balancer stops sending before the server stops). */
  markNotReady(): void {
    this.draining = true;
  }

  async report(): Promise<ReadinessReport> {
    if (this.draining) return { ready: false, draining: true, checks: {}, failed: [] };
    const names = Object.keys(this.checks);
    const results = await Promise.all(names.map((name) => this.run(name, this.checks[name]!)));
    const checks = Object.fromEntries(names.map((name, i) => [name, results[i]!] as const));
    const failed = names.filter((name) => checks[name] === 'failed');
    return { ready: failed.length === 0, draining: false, checks, failed };
  }

  private async run(name: string, check: DependencyCheck): Promise<CheckStatus> {
    if (!check) return 'not_configured';
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        check(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
        }),
      ]);
      if (this.down.delete(name)) this.logger.info({ dependency: name }, 'readiness: dependency answers again');
      return 'ok';
    } catch (err) {
      if (!this.down.has(name)) this.logger.warn({ dependency: name, err: (err as Error).message }, 'readiness: dependency is not answering');
      this.down.add(name);
      return 'failed';
    } finally {
      clearTimeout(timer);
    }
  }
}
