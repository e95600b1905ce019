import type { Config } from '../config';
import type { Orm } from '../db/orm';
import type { Sql } from '../db/sql';
import type { PubSub, Topic } from '../events/pubsub';
import type { JobDefinition } from '../jobs/define-job';
import type { Metrics } from '../observability/metrics';
import type { Clock } from '../shared/clock';
import type { SecretBox } from '../shared/crypto';
import type { Faults } from '../shared/faults';
import type { KeyMaterial } from '../shared/keys';
import type { Logger } from '../shared/logger';
import type { EventFollowUpsSql } from './outbox/outbox';

/*
 * How a module wires itself (docs/architecture.md, "How a module wires itself"): its folder exports
 * one `<area>.module.ts` whose `define…Module` names what it declares statically (its jobs, its
 * pub/sub topics, what it adds to an event's outbox statement) and whose `create` builds its
 * services from the infrastructure and the services of the modules it depends on. The composition
 * root (src/container.ts) lists the modules and calls each `create` in dependency order, passing
 * services, never closures over services not yet made.
 */

/** What every module may use of the outside world (the composition root's Infrastructure, less the job runner). */
export interface ModuleInfra {
  config: Config;
  logger: Logger;
  clock: Clock;
  orm: Orm;
  /** Direct statements for the hot paths (the ORM's unit of work serves the rest). */
  sql: Sql;
  pubsub: PubSub;
  keys: KeyMaterial;
  /** Seals secrets at rest with ENCRYPTION_KEY: one for every module. */
  secretBox: SecretBox;
  faults: Faults;
  /** This instance's Prometheus registry and observers (the service's; CLIs have none). */
  metrics?: Metrics;
}

/** What a module's `create` returns. */
export interface ModuleParts<S> {
  /** What it offers the other modules and the doors. */
  services: S;
  /** Before the doors open (reference data read, caches that listen to pub/sub subscribed); in the modules' order. */
  start?(): Promise<void>;
  /** At close, after the doors: in the reverse order. */
  stop?(): Promise<void>;
}

/**
 * A module. The static parts exist before any service: the job runner's catalogue is built from the
 * jobs (src/job-catalogue.ts) before the services that add jobs through it, and an event's statement
 * carries every module's follow-ups from the first event on.
 */
export interface ModuleDefinition<I, D, S> {
  name: string;
  /** Its `<area>.jobs.ts` list (src/job-catalogue.ts concatenates them; src/workers.ts gives each `run` the services it names). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any job, whatever its payload and dependencies
  jobs?: readonly JobDefinition<string, any, any>[];
  /** The pub/sub topics it publishes (the root refuses two modules declaring one name). */
  topics?: readonly Topic<unknown>[];
  /** What it adds to every event's outbox statement (webhooks: the delivery row). */
  outboxFollowUps?: (infra: I) => EventFollowUpsSql;
  create(infra: I, deps: D): ModuleParts<S>;
}

/** Declares a module (only typing: the definition is the object itself). */
export function defineModule<I, D, S>(definition: ModuleDefinition<I, D, S>): ModuleDefinition<I, D, S> {
  return definition;
}
