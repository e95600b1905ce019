import { batchedPerOperation } from '../../src/transport/graphql/batch';
import type { GraphQLContext } from '../../src/transport/graphql/context';

const contextOf = (merchantId: string) => ({ auth: { merchantId } }) as unknown as GraphQLContext;

describe('batchedPerOperation (a field resolver’s reads, one per operation and tick)', () => {
  it('answers every key asked in one turn with one load, each key once', async () => {
    const calls: string[][] = [];
    const load = batchedPerOperation(async (_ctx, keys: string[]) => {
      calls.push(keys);
      return new Map(keys.map((k) => [k, k.toUpperCase()]));
    });
    const ctx = contextOf('m1');
    const answers = await Promise.all(['a', 'b', 'a', 'c', 'b'].map((k) => load(ctx, k)));
    expect(answers).toEqual(['A', 'B', 'A', 'C', 'B']);
    expect(calls).toEqual([['a', 'b', 'c']]);
  });

  it('keeps operations apart, keeps nothing after a batch, and gives a missing key undefined', async () => {
    const calls: Array<[string, string[]]> = [];
    let version = 1;
    const load = batchedPerOperation(async (ctx, keys: string[]) => {
      calls.push([ctx.auth.merchantId, keys]);
      return new Map(keys.filter((k) => k !== 'gone').map((k) => [k, `${k}${version}`]));
    });
    const [one, two] = [contextOf('m1'), contextOf('m2')];
    expect(await Promise.all([load(one, 'x'), load(two, 'x'), load(one, 'gone')])).toEqual(['x1', 'x1', undefined]);
    expect(calls).toEqual([
      ['m1', ['x', 'gone']],
      ['m2', ['x']],
    ]);
    version = 2;
    expect(await load(one, 'x')).toBe('x2');
  });

  it('a failed load rejects every key of its batch', async () => {
    const load = batchedPerOperation<string, string>(async () => {
      throw new Error('database down');
    });
    const ctx = contextOf('m1');
    await expect(Promise.all([load(ctx, 'a'), load(ctx, 'b')])).rejects.toThrow('database down');
  });
});
