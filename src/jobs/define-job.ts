import type { z } from 'zod';
import type { JobCatalogue, JobHandlers } from './job-queue';

/*
 * A job, declared once where it belongs (its module's `<area>.jobs.ts`): its name, its payload's
 * schema, its options and what runs it. The composition root only concatenates the modules' lists
 * (src/job-catalogue.ts) and hands the runner the services each list's `run` calls (src/workers.ts).
 */

/**
 * One kind of durable work. `D`: what `run` calls (the module's services), given when the workers
 * start; the definition itself is a constant, so the catalogue (names, priorities) exists
 * before any service does (the services add jobs through the runner built from it).
 */
export interface JobDefinition<N extends string = string, P = unknown, D = never> {
  /**
   * A graphile-worker task identifier, stored with every queued job: a renamed one would leave a
   * running deployment's queued jobs without a task. Never rename one.
   */
  readonly name: N;
  /**
   * The payload's shape, stored as JSON with every queued job, so it outlives a deployment: only
   * ever add optional fields. It types `run` and the jobs a module adds; payloads are written only by
   * the module's own typed code, so it is not parsed again when a job runs (a delivery is a hot path).
   */
  readonly payload: z.ZodType<P>;
  /** Lower runs first among due jobs. */
  readonly priority: number;
  /**
   * False: `run` is not given a database context of its own (it touches no ORM, only statements).
   * Otherwise each job runs in its own context, like a request (`JobContext`).
   */
  readonly inContext?: boolean;
  readonly run: (payload: P, deps: D) => Promise<unknown>;
}

/** Declares a job; the payload type is the schema's, so a job's name, shape and work are written once. */
export function defineJob<N extends string, P, D>(definition: JobDefinition<N, P, D>): JobDefinition<N, P, D> {
  return definition;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any definition, whatever its payload and dependencies
type AnyJob = JobDefinition<string, any, any>;

/** A list of definitions' names → payloads (what a `JobQueue` of them takes). */
export type JobPayloadsOf<J extends readonly AnyJob[]> = { [K in J[number] as K['name']]: K extends JobDefinition<string, infer P, infer _D> ? P : never };

/** What each list's `run` needs, merged: the services the workers are given. */
export type JobDepsOf<J extends readonly AnyJob[]> = UnionToIntersection<J[number] extends JobDefinition<string, unknown, infer D> ? D : never>;
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The runner's catalogue (each name with its options), from the definitions. */
export function catalogueOf<J extends readonly AnyJob[]>(jobs: J): JobCatalogue<JobPayloadsOf<J>> {
  return Object.fromEntries(jobs.map((j) => [j.name, { priority: j.priority }])) as JobCatalogue<JobPayloadsOf<J>>;
}

/** Runs `fn` in a database context of its own (the root passes MikroORM's RequestContext). */
export type JobContext = <T>(fn: () => Promise<T>) => Promise<T>;

/** Each definition's `run`, given its dependencies, in its own database context unless it says otherwise. */
export function handlersOf<J extends readonly AnyJob[]>(jobs: J, deps: JobDepsOf<J>, inContext: JobContext): JobHandlers<JobPayloadsOf<J>> {
  return Object.fromEntries(
    jobs.map((j) => {
      const run = j.run;
      return [
        j.name,
        j.inContext === false
          ? async (payload: unknown) => void (await run(payload, deps))
          : (payload: unknown) => inContext(async () => void (await run(payload, deps))),
      ];
    }),
  ) as JobHandlers<JobPayloadsOf<J>>;
}
