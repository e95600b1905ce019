import { Client } from 'pg';

/**
 * Autovacuum's decisions, taken by the harness on its own database when the server's
 * autovacuum is off (the CI machine's PostgreSQL runs with `autovacuum = off`).
 *
 * Without vacuum, a queue table that is written and deleted all the time keeps every dead
 * row: in a 60-minute soak graphile-worker's `_private_jobs` held 80 live rows and grew by
 * about 25,000 dead ones a minute, and each worker's fetch read all of its pages. The
 * service's latency then grows with the age of the database, which a production server
 * (autovacuum on, the default) never shows. This stand-in applies autovacuum's own rules,
 * with the server's own settings, every `autovacuum_naptime`:
 * - vacuum when dead rows > `autovacuum_vacuum_threshold` + `autovacuum_vacuum_scale_factor` × rows,
 *   or rows inserted since the last vacuum > the insert threshold + insert scale factor × rows;
 * - analyze when rows changed since the last analyze > `autovacuum_analyze_threshold` +
 *   `autovacuum_analyze_scale_factor` × rows;
 * - throttled as autovacuum is (`autovacuum_vacuum_cost_delay` and `_cost_limit`).
 * - a table's own storage options (`alter table … set (autovacuum_…)`, the product's migrations set them
 *   on its hot tables) take the place of the server's settings, as they do for autovacuum.
 */
export interface AutovacuumRun {
  at: number;
  table: string;
  vacuum: boolean;
  ms: number;
}

export interface AutovacuumStandIn {
  runs: AutovacuumRun[];
  stop(): Promise<void>;
}

/** The server's autovacuum setting ('on' or 'off'). */
async function serverAutovacuum(db: Client): Promise<string> {
  return (await db.query<{ autovacuum: string }>('show autovacuum')).rows[0].autovacuum;
}

/** Starts the stand-in when the server's autovacuum is off; undefined when it is on. */
export async function startAutovacuumStandIn(
  dbUrl: string,
  log: (msg: string) => void,
  onError: (msg: string) => void,
): Promise<AutovacuumStandIn | undefined> {
  const db = new Client({ connectionString: dbUrl });
  await db.connect();
  if ((await serverAutovacuum(db)) === 'on') {
    await db.end();
    return undefined;
  }
  const settings = (
    await db.query<Record<string, string>>(`
      select current_setting('autovacuum_naptime') as naptime,
             current_setting('autovacuum_vacuum_threshold') as vt, current_setting('autovacuum_vacuum_scale_factor') as vs,
             current_setting('autovacuum_vacuum_insert_threshold') as it, current_setting('autovacuum_vacuum_insert_scale_factor') as "is",
             current_setting('autovacuum_analyze_threshold') as at, current_setting('autovacuum_analyze_scale_factor') as "as",
             current_setting('autovacuum_vacuum_cost_delay') as delay, current_setting('autovacuum_vacuum_cost_limit') as "limit",
             current_setting('vacuum_cost_limit') as "vacuumLimit"`)
  ).rows[0];
  const naptimeMs = parseNaptime(settings.naptime);
  await db.query(`set vacuum_cost_delay = '${settings.delay}'`);
  await db.query(`set vacuum_cost_limit = ${Number(settings.limit) > 0 ? Number(settings.limit) : Number(settings.vacuumLimit)}`);
  log(`the server's autovacuum is off: the harness takes its decisions on this database every ${naptimeMs / 1000} s`);

  const runs: AutovacuumRun[] = [];
  let stopped = false;
  let cycle: Promise<void> = Promise.resolve();
  const once = async () => {
    const due = await db.query<{ name: string; vacuum: boolean; analyze: boolean }>(
      `with t as (
         select s.*, greatest(c.reltuples, 0) as rows,
                (select jsonb_object_agg(split_part(o, '=', 1), split_part(o, '=', 2)) from unnest(c.reloptions) o) as o
         from pg_stat_user_tables s join pg_class c on c.oid = s.relid)
       select format('%I.%I', schemaname, relname) as name,
              (n_dead_tup > coalesce((o->>'autovacuum_vacuum_threshold')::float8, $1)
                            + coalesce((o->>'autovacuum_vacuum_scale_factor')::float8, $2) * rows
                or n_ins_since_vacuum > coalesce((o->>'autovacuum_vacuum_insert_threshold')::float8, $3)
                                        + coalesce((o->>'autovacuum_vacuum_insert_scale_factor')::float8, $4) * rows) as vacuum,
              n_mod_since_analyze > coalesce((o->>'autovacuum_analyze_threshold')::float8, $5)
                                    + coalesce((o->>'autovacuum_analyze_scale_factor')::float8, $6) * rows as analyze
         from t`,
      [settings.vt, settings.vs, settings.it, settings.is, settings.at, settings.as].map(Number),
    );
    for (const t of due.rows) {
      if (stopped) return;
      if (!t.vacuum && !t.analyze) continue;
      const started = Date.now();
      await db.query(t.vacuum ? `vacuum (analyze ${t.analyze}) ${t.name}` : `analyze ${t.name}`);
      runs.push({ at: started, table: t.name, vacuum: t.vacuum, ms: Date.now() - started });
    }
  };
  const timer = setInterval(() => {
    cycle = cycle.then(once).catch((err) => onError(`autovacuum stand-in: ${(err as Error).message}`));
  }, naptimeMs);
  return {
    runs,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await cycle;
      await db.end();
    },
  };
}

/** One line: how many vacuums and analyzes ran, and how long the longest took. */
export function autovacuumSummary(runs: AutovacuumRun[]): string {
  const vacuums = runs.filter((r) => r.vacuum).length;
  const longest = runs.reduce((a, r) => (r.ms > a.ms ? r : a), { ms: 0, table: '' });
  return `${vacuums} vacuums and ${runs.length - vacuums} analyzes${runs.length ? `; the longest ${longest.ms} ms on ${longest.table}` : ''}`;
}

function parseNaptime(value: string): number {
  const m = /^(\d+)\s*(ms|s|min)?$/.exec(value.trim());
  if (!m) return 60_000;
  const n = Number(m[1]);
  return m[2] === 'ms' ? n : m[2] === 'min' ? n * 60_000 : n * 1000;
}
