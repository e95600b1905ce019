/**
 * At most `limit` holders per key at once, first come first served; the others wait in memory.
 * For hot rows: a merchant's balance is one row, and statements that lock it wait on each other
 * anyway. Waiting here, rather than in PostgreSQL, keeps one merchant's burst from holding every
 * pooled connection (other merchants' requests would queue behind it) and spares the database
 * the lock queue. Per process: other instances still meet at the row lock, which stays the
 * guarantee; this only shapes the traffic.
 */
export class KeyedSemaphore {
  private readonly queues = new Map<string, { holders: number; waiting: Array<() => void> }>();

  constructor(private readonly limit: number) {}

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    let queue = this.queues.get(key);
    if (!queue) this.queues.set(key, (queue = { holders: 0, waiting: [] }));
    if (queue.holders >= this.limit) await new Promise<void>((resolve) => queue!.waiting.push(resolve));
    else queue.holders++;
    try {
      return await work();
    } finally {
      const next = queue.waiting.shift();
      if (next) next();
      else if (--queue.holders === 0) this.queues.delete(key);
    }
  }
}
