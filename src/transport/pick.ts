/**
 * The named services and no others: what the door entries (rest/index.ts, graphql/schema.ts, app.ts)
 * hand each route module and resolver, so that a door holds the services it calls and not the bag.
 * Once per registration, at start.
 */
export function pick<S extends object, K extends keyof S>(services: S, ...names: K[]): Pick<S, K> {
  const picked = {} as Pick<S, K>;
  for (const name of names) picked[name] = services[name];
  return picked;
}
