import type { GraphQLContext } from './context';

interface Pending<K, V> {
  keys: Map<K, Array<{ resolve: (v: V | undefined) => void; reject: (err: unknown) => void }>>;
}

/**
 * A field resolver's reads gathered into one call per operation and turn of the event loop: the
 * rows of a list ask together, so a page of 20 transactions reads its customers with one query, not
 * 20 (the N+1 a per-row read would make). Nothing is kept after the batch is answered, so a
 * subscription that lives for hours never serves an old value.
 */
export function batchedPerOperation<K, V>(load: (ctx: GraphQLContext, keys: K[]) => Promise<Map<K, V>>) {
  const pending = new WeakMap<GraphQLContext, Pending<K, V>>();
  return (ctx: GraphQLContext, key: K): Promise<V | undefined> =>
    new Promise<V | undefined>((resolve, reject) => {
      let batch = pending.get(ctx);
      if (!batch) {
        const started: Pending<K, V> = { keys: new Map() };
        batch = started;
        pending.set(ctx, started);
        setImmediate(() => {
          pending.delete(ctx);
          load(ctx, [...started.keys.keys()]).then(
            (found) => started.keys.forEach((waiting, k) => waiting.forEach((w) => w.resolve(found.get(k)))),
            (err: unknown) => started.keys.forEach((waiting) => waiting.forEach((w) => w.reject(err))),
          );
        });
      }
      const waiting = batch.keys.get(key) ?? [];
      waiting.push({ resolve, reject });
      batch.keys.set(key, waiting);
    });
}
