import { KeyedSemaphore } from '../../src/shared/keyed-semaphore';

/** A task the test finishes by hand, recording when it ran. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}

describe('KeyedSemaphore', () => {
  it('lets `limit` holders of one key run at once, the rest in arrival order; other keys are not held up', async () => {
    const sem = new KeyedSemaphore(2);
    const started: string[] = [];
    const gates = Object.fromEntries(['a1', 'a2', 'a3', 'a4', 'b1'].map((n) => [n, gate()]));
    const run = (key: string, name: string) =>
      sem.run(key, async () => {
        started.push(name);
        await gates[name]!.opened;
        return name;
      });
    const all = [run('a', 'a1'), run('a', 'a2'), run('a', 'a3'), run('a', 'a4'), run('b', 'b1')];
    await Promise.resolve();
    expect(started).toEqual(['a1', 'a2', 'b1']);
    gates.a2!.open();
    await all[1];
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual(['a1', 'a2', 'b1', 'a3']);
    for (const g of Object.values(gates)) g.open();
    expect(await Promise.all(all)).toEqual(['a1', 'a2', 'a3', 'a4', 'b1']);
    expect(started).toEqual(['a1', 'a2', 'b1', 'a3', 'a4']);
  });

  it('a failing holder releases its place', async () => {
    const sem = new KeyedSemaphore(1);
    await expect(sem.run('k', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await sem.run('k', async () => 'next')).toBe('next');
  });
});
