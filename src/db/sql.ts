import type { EntityManager } from '@mikro-orm/postgresql';
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Logger } from '../shared/logger';

/**
 * Direct statements for the hot paths, beside the ORM. A hot path that is one
 * insert or one read costs one statement here, not a unit of work: no identity
 * map, no change sets, no query builder.
 *
 * `name` makes a statement a prepared one (parsed and planned once per
 * connection). PGlite serves every socket connection from one backend session,
 * where two connections preparing one name would collide, so statements are not
 * named there.
 */
/** Statement shapes remembered at most (the hot paths have a few dozen). */
const MAX_SHAPES = 500;

export class Sql {
  readonly pool: pg.Pool;
  private readonly shapes = new Map<string, string>();
  private readonly prepare: boolean;

  /** `connectTimeoutMs`: how long a new connection may take (default: no limit, as pg's). */
  constructor({ url, max, embedded, logger, connectTimeoutMs }: { url: string; max: number; embedded: boolean; logger: Logger; connectTimeoutMs?: number }) {
    this.pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000, connectionTimeoutMillis: connectTimeoutMs });
    this.prepare = !embedded;
    const onError = (err: Error) => logger.warn({ err: err.message }, 'database connection failed');
    this.pool.on('error', onError);
    // A client that fails while checked out must not crash the process either.
    this.pool.on('connect', (client) => client.on('error', onError));
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- pg's own default row type (QueryResultRow); a caller names R to type its rows
  async query<R = Record<string, any>>(text: string, values: unknown[] = [], name?: string): Promise<R[]> {
    const result = await this.pool.query({ text, values, ...(name && this.prepare ? { name } : {}) });
    return result.rows as R[];
  }

  /**
   * A statement whose text a hot path builds from a few shapes (how many entries, jobs, an event):
   * prepared under a name derived from its text, so each shape is planned once per connection.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as query()
  async queryShaped<R = Record<string, any>>(text: string, values: unknown[] = []): Promise<R[]> {
    let name = this.shapes.get(text);
    if (name === undefined) {
      name = `shape_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
      if (this.shapes.size >= MAX_SHAPES) this.shapes.clear();
      this.shapes.set(text, name);
    }
    return this.query<R>(text, values, name);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/** Builds one statement's parameter list: `p(value)` returns its `$n`. */
export class Params {
  readonly values: unknown[] = [];

  p(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** PostgreSQL's unique_violation, with the constraint that was hit. */
export function uniqueViolation(err: unknown): string | undefined {
  const e = err as { code?: string; constraint?: string };
  return e?.code === '23505' ? (e.constraint ?? '') : undefined;
}

/**
 * Runs a `$n`-numbered statement through an ORM EntityManager (inside its
 * transaction), whose raw queries take `?` placeholders in order of appearance.
 */
export async function executeOnOrm(em: EntityManager, text: string, values: unknown[]): Promise<void> {
  const bindings: unknown[] = [];
  const sql = text.replace(/\$(\d+)/g, (_m, n: string) => {
    bindings.push(values[Number(n) - 1]);
    return '?';
  });
  await em.execute(sql, bindings as never[]);
}
