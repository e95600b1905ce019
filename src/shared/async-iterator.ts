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
