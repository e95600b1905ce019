import type { Client } from 'pg';
import type { AutovacuumRun } from './autovacuum';

/** A vacuum, an analyze or a checkpoint, and when it ran (ms since the epoch): what explains a spike in the soak's minutes. */
export interface MaintenanceEvent {
  at: number;
  kind: 'vacuum' | 'analyze' | 'checkpoint';
  /** The table, for a vacuum or an analyze. */
  table?: string;
  /** How long it took, when known (the harness's stand-in times its own runs; the server's autovacuum says only when). */
  ms?: number;
}

/**
 * Follows the server's maintenance on the soak's database, sampled with the other database figures (every 15 s):
 * - checkpoints, from the server's counters (`pg_stat_checkpointer` from PostgreSQL 17, `pg_stat_bgwriter` before):
 *   an increase is a checkpoint that ended since the sample before (its time known to the sampling interval);
 * - autovacuum's and autoanalyze's runs when the server's autovacuum is on (`pg_stat_user_tables.last_auto*`, exact
 *   times); when it is off, the harness's stand-in runs them and they are taken from its own log (`standIn`).
 */
export class MaintenanceLog {
  readonly events: MaintenanceEvent[] = [];
  private checkpoints: number | undefined;
  private readonly lastRun = new Map<string, number>();
  private view: 'checkpointer' | 'bgwriter' | undefined;

  constructor(private readonly standIn?: { runs: AutovacuumRun[] }) {}

  async sample(db: Client): Promise<void> {
    const now = Date.now();
    const count = await this.checkpointCount(db);
    if (this.checkpoints !== undefined && count > this.checkpoints) {
      for (let i = this.checkpoints; i < count; i++) this.events.push({ at: now, kind: 'checkpoint' });
    }
    this.checkpoints = count;
    if (this.standIn) return;
    const rows = (
      await db.query<{ table: string; vacuum: Date | null; analyze: Date | null }>(
        `select format('%I.%I', schemaname, relname) as table, last_autovacuum as vacuum, last_autoanalyze as analyze from pg_stat_user_tables`,
      )
    ).rows;
    for (const r of rows) {
      for (const kind of ['vacuum', 'analyze'] as const) {
        const at = r[kind]?.getTime();
        if (at === undefined) continue;
        const key = `${kind}:${r.table}`;
        const seen = this.lastRun.get(key);
        // The first sample only learns where each table stood: runs before the soak are not its.
        if (seen !== undefined && at > seen) this.events.push({ at, kind, table: r.table });
        this.lastRun.set(key, at);
      }
    }
  }

  /** Every event, the stand-in's runs included, between `from` and `to` (ms), oldest first. */
  between(from: number, to: number): MaintenanceEvent[] {
    const standIn: MaintenanceEvent[] = (this.standIn?.runs ?? []).map((r) => ({ at: r.at, kind: r.vacuum ? 'vacuum' : 'analyze', table: r.table, ms: r.ms }));
    return [...this.events, ...standIn].filter((e) => e.at >= from && e.at < to).sort((a, b) => a.at - b.at);
  }

  private async checkpointCount(db: Client): Promise<number> {
    if (this.view !== 'bgwriter') {
      try {
        const r = await db.query<{ n: string }>('select num_timed + num_requested as n from pg_stat_checkpointer');
        this.view = 'checkpointer';
        return Number(r.rows[0]?.n ?? 0);
      } catch {
        this.view = 'bgwriter';
      }
    }
    const r = await db.query<{ n: string }>('select checkpoints_timed + checkpoints_req as n from pg_stat_bgwriter');
    return Number(r.rows[0]?.n ?? 0);
  }
}

/** A minute's maintenance in one cell: "2 ckpt; vacuum transaction 1.2 s, …" (vacuums and analyzes under 100 ms left out). */
export function maintenanceCell(events: MaintenanceEvent[]): string {
  const checkpoints = events.filter((e) => e.kind === 'checkpoint').length;
  const shown = events.filter((e) => e.kind !== 'checkpoint' && (e.ms === undefined || e.ms >= 100));
  const parts = shown.map((e) => `${e.kind} ${(e.table ?? '').replace(/^public\./, '')}${e.ms === undefined ? '' : ` ${(e.ms / 1000).toFixed(1)} s`}`);
  if (checkpoints > 0) parts.unshift(`${checkpoints} checkpoint${checkpoints > 1 ? 's' : ''}`);
  return parts.length ? parts.join('; ') : '—';
}
