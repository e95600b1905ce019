import { DueLoop } from '../../src/shared/due-loop';

/** Lets every callback queued for this turn and the next run (setImmediate), so a woken loop's round has started. */
const turn = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

/** A promise with its resolver outside. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/**
 * The loop both queues of their own rows run on (issue 40: WebhookPump, SettlementPump): rounds never overlap, wakes
 * asked for during a round make exactly one more, the work a round starts is counted until it ends, and a stop
 * waits for it (at most its drain).
 */
describe('DueLoop', () => {
  const loops: DueLoop[] = [];
  afterEach(async () => {
    await Promise.all(loops.splice(0).map((l) => l.stop(0)));
  });

  it('never runs two rounds at once; wakes during a round make one more round, not one each', async () => {
    let running = 0;
    let most = 0;
    const rounds: ReturnType<typeof gate>[] = [];
    const loop = new DueLoop({
      pollMs: 60_000,
      round: async () => {
        running++;
        most = Math.max(most, running);
        const g = gate();
        rounds.push(g);
        await g.promise;
        running--;
      },
    });
    loops.push(loop);
    loop.start();
    await turn();
    expect(rounds).toHaveLength(1);
    loop.wake();
    loop.wake();
    loop.wake();
    await turn();
    expect(rounds).toHaveLength(1); // still the first round
    rounds[0]!.open();
    await turn();
    expect(rounds).toHaveLength(2); // the three wakes: one round
    rounds[1]!.open();
    await turn();
    expect(rounds).toHaveLength(2);
    expect(most).toBe(1);
  });

  it('counts tracked work until it ends, and each end wakes a round (a worker is free)', async () => {
    let rounds = 0;
    const loop = new DueLoop({ pollMs: 60_000, round: async () => void rounds++ });
    loops.push(loop);
    loop.start();
    await turn();
    const work = gate();
    loop.track(work.promise);
    expect(loop.active).toBe(1);
    const before = rounds;
    work.open();
    await turn();
    expect(loop.active).toBe(0);
    expect(rounds).toBe(before + 1);
  });

  it('wakeAt: a time already past runs a round at once; one beyond the poll is left to the poll', async () => {
    let rounds = 0;
    const loop = new DueLoop({ pollMs: 60_000, round: async () => void rounds++ });
    loops.push(loop);
    loop.start();
    await turn();
    const started = rounds;
    loop.wakeAt(0);
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    await turn();
    expect(rounds).toBe(started + 1);
    loop.wakeAt(Number.MAX_SAFE_INTEGER);
    await turn();
    expect(rounds).toBe(started + 1);
  });

  it('stop: no round after it; waits for the work in flight, at most the drain', async () => {
    let rounds = 0;
    const loop = new DueLoop({ pollMs: 60_000, round: async () => void rounds++ });
    loop.start();
    await turn();
    const work = gate();
    loop.track(work.promise);
    let stopped = false;
    const stopping = loop.stop(60_000).then(() => (stopped = true));
    await turn();
    expect(stopped).toBe(false); // the work is still in flight
    const after = rounds;
    work.open();
    await stopping;
    expect(stopped).toBe(true);
    loop.wake();
    await turn();
    expect(rounds).toBe(after); // stopped: the end of the work woke nothing
    // Work that never ends holds a stop only for its drain.
    const stuck = new DueLoop({ pollMs: 60_000, round: async () => undefined });
    stuck.start();
    stuck.track(new Promise(() => undefined));
    await stuck.stop(10);
    expect(stuck.active).toBe(1);
  });
});
