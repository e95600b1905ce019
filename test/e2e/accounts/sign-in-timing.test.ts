import { performance } from 'node:perf_hooks';
import { DASHBOARD_HEADERS, signInDashboardUser } from '../../helpers/accounts';
import { request } from '../../helpers/http';
import { createTestApp, type TestApp } from '../../helpers/test-app';

/**
 * A known and an unknown email take indistinguishable times (issue 36): sign-in with a wrong password
 * (a known email verifies its argon2 hash, an unknown one a decoy of the same cost; both read with the
 * same statement and write one audit entry) and asking for a reset link (one read either way; a known
 * email's link is written and mailed after the answer).
 *
 * The method: the two kinds of request alternate, in pairs whose order is shuffled, after a warm-up,
 * so the machine's load falls on both alike (a pair's two requests run back to back); then (1) the
 * median of the pairs' differences is under a quarter of the median request (or 5 ms, for the fast
 * forgot route: the bound is wide because two cores shared by several suites make single requests vary
 * by tens of milliseconds), and (2) a sign test: in about half the pairs the known email was slower.
 * A real difference breaks both at once: a path that skipped the argon2 verification is faster in
 * every pair, by most of its time (the control below shows the method telling such a pair apart).
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
  const times = { known: [] as number[], unknown: [] as number[], differences: [] as number[] };
  let knownSlower = 0;
  for (let i = 0; i < PAIRS; i++) {
    const knownFirst = Math.random() < 0.5;
    const a = knownFirst ? await known() : await unknown();
    const b = knownFirst ? await unknown() : await known();
    const [k, u] = knownFirst ? [a, b] : [b, a];
    times.known.push(k);
    times.unknown.push(u);
    times.differences.push(k - u);
    if (k > u) knownSlower++;
  }
  return {
    known: median(times.known),
    unknown: median(times.unknown),
    medianDifference: median(times.differences),
    knownSlowerShare: knownSlower / PAIRS,
  };
}

function expectIndistinguishable(result: Awaited<ReturnType<typeof race>>, floorMs: number) {
  const bound = Math.max(Math.max(result.known, result.unknown) * 0.25, floorMs);
  // The medians with the check, so a failure shows them.
  expect({ ...result, differenceWithinBound: Math.abs(result.medianDifference) < bound }).toEqual({ ...result, differenceWithinBound: true });
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
    expectIndistinguishable(result, 5);
  }, 120_000);

  it('the control: the method tells apart a path without the argon2 verification (a refused body, answered before it)', async () => {
    const signIn = () =>
      timed(() => request(app.url, 'POST', '/dashboard/session', { headers: DASHBOARD_HEADERS, body: { email, password: 'a wrong password 000' } }), 401);
    const refused = () => timed(() => request(app.url, 'POST', '/dashboard/session', { headers: DASHBOARD_HEADERS, body: { email, password: '' } }), 400);
    const result = await race(signIn, refused);
    expect(() => expectIndistinguishable(result, 5)).toThrow();
  }, 120_000);

  it('forgot password: indistinguishable', async () => {
    const forgot = (address: string) => () =>
      timed(() => request(app.url, 'POST', '/dashboard/password/forgot', { headers: DASHBOARD_HEADERS, body: { email: address } }), 200);
    expectIndistinguishable(await race(forgot(email), forgot('nobody-at-all@shop.example')), 5);
  }, 120_000);
});
