/** Maps each item of an async iterator (in order), passing completion through to the source. */
export function mapAsyncIterator<A, B>(source: AsyncIterator<A>, fn: (a: A) => Promise<B>): AsyncIterableIterator<B> {
  const iterator: AsyncIterableIterator<B> = {
    next: async () => {
      const item = await source.next();
      return item.done ? { value: undefined, done: true } : { value: await fn(item.value), done: false };
    },
    return: async () => {
      await source.return?.();
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}

/**
 * An async iterator from its `next` and its `finish` (what stopping it does: `return`, and `throw` after it), for a
 * stream that ends when its reader stops: the socket closed or the operation completed.
 */
export function stoppableIterator<T>(next: () => Promise<IteratorResult<T>>, finish: () => Promise<void>): AsyncIterableIterator<T> {
  const iterator: AsyncIterableIterator<T> = {
    next,
    return: async () => {
      await finish();
      return { value: undefined, done: true };
    },
    throw: async (err) => {
      await finish();
      throw err;
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}
