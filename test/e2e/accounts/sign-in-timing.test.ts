import { performance } from 'node:perf_hooks';
import { DASHBOARD_HEADERS, signInDashboardUser } from '../../helpers/accounts';
import { request } from '../../helpers/http';
import { createTestApp, type TestApp } from '../../helpers/test-app';

/**
 * A known and an unknown email take indistinguishable times (issue 36): sign-in with a wrong password
 * (a known email verifies its argon2 hash, an unknown one a decoy of the same cost; both read with the
 * same statement and write one audit entry) and asking for a reset link (one statement either way, the
 * mail sent after the answer).
 *
 * The method: the two kinds of request alternate, in pairs whose order is shuffled, after a warm-up,
 * so the machine's load falls on both alike; then (1) their medians differ by less than a tenth of
 * the slower one (or 3 ms, for the fast forgot route), and (2) a sign test: in about half the pairs
 * the known email was slower, within bounds a real difference breaks at once (a path that skipped the
 * argon2 verification would be slower in every pair).
 */

const PAIRS = 40;
const WARM_UP = 5;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timed(send: () => Promise<{ status: number }>, status: number): Promise<number> {
  const start = performance.now();
  const res = await send();
  const ms = performance.now() - start;
  expect(res.status).toBe(status);
  return ms;
}

/** Times of `known` and `unknown`, alternated in shuffled pairs after a warm-up. */
async function race(known: () => Promise<number>, unknown: () => Promise<number>) {
  for (let i = 0; i < WARM_UP; i++) await Promise.all([known(), unknown()].map((p) => p.catch(() => 0)));
  const times = { known: [] as number[], unknown: [] as number[] };
  let knownSlower = 0;
  for (let i = 0; i < PAIRS; i++) {
    const knownFirst = Math.random() < 0.5;
    const a = knownFirst ? await known() : await unknown();
    const b = knownFirst ? await unknown() : await known();
    const [k, u] = knownFirst ? [a, b] : [b, a];
    times.known.push(k);
    times.unknown.push(u);
    if (k > u) knownSlower++;
  }
  return { known: median(times.known), unknown: median(times.unknown), knownSlowerShare: knownSlower / PAIRS };
}

function expectIndistinguishable(result: { known: number; unknown: number; knownSlowerShare: number }, floorMs: number) {
  const slower = Math.max(result.known, result.unknown);
  expect({ ...result, close: Math.abs(result.known - result.unknown) < Math.max(slower * 0.1, floorMs) }).toMatchObject({ close: true });
  // 40 fair coin flips land in [0.2, 0.8] but for about 1 run in 10⁴; a systematic difference lands at 0 or 1.
  expect(result.knownSlowerShare).toBeGreaterThanOrEqual(0.2);
  expect(result.knownSlowerShare).toBeLessThanOrEqual(0.8);
}

describe('accounts: timing of a known and an unknown email', () => {
  let app: TestApp;
  let email: string;

  beforeAll(async () => {
    app = await createTestApp();
    ({ email } = await signInDashboardUser(app));
  });
  afterAll(() => app?.close());

  it('sign-in with a wrong password: indistinguishable', async () => {
    const signIn = (address: string) => () =>
      timed(
        () => request(app.url, 'POST', '/dashboard/session', { headers: DASHBOARD_HEADERS, body: { email: address, password: 'a wrong password 000' } }),
        401,
      );
    const result = await race(signIn(email), signIn('nobody-at-all@shop.example'));
    // The argon2 verification dominates both (tens of milliseconds): the floor is for a very fast machine.
    expect(result.known).toBeGreaterThan(5);
    expectIndistinguishable(result, 3);
  }, 120_000);

  it('forgot password: indistinguishable', async () => {
    const forgot = (address: string) => () =>
      timed(() => request(app.url, 'POST', '/dashboard/password/forgot', { headers: DASHBOARD_HEADERS, body: { email: address } }), 200);
    expectIndistinguishable(await race(forgot(email), forgot('nobody-at-all@shop.example')), 3);
  }, 120_000);
});
