import { referenceIdOf } from '../../../src/providers/mtn-momo/mapping';
import { FlutterwaveFake } from '../../fakes/flutterwave.fake';
import { MpesaFake } from '../../fakes/mpesa.fake';
import { MtnMomoFake } from '../../fakes/mtn-momo.fake';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import {
  adminMerchant,
  approvedCustomerAt,
  attempt,
  clientToken,
  hasExited,
  historyOf,
  ledgerVerify,
  runCli,
  stopIfRunning,
  transactionRowsByExternal,
  type AdminMerchant,
} from '../../helpers/engine';
import { assertBuilt, serviceEnv, startServiceProcess, type ServiceProcess } from '../../helpers/process';
import { newReference } from '../../helpers/transactions';
import { ghMtnCollection } from '../../helpers/rails';
import { eventually } from '../../helpers/wait';

/**
 * A crash between MTN's 202 and our commit (FAULT_INJECT kills the process right after the
 * provider answered): the row is left `initiating`; a fresh process reconciles it by asking MTN
 * (GET by the X-Reference-Id), finds the request, and never sends it again. The sandbox routes
 * Ghana's MTN route to MTN's fake (PROVIDER_ROUTES): FAULT_INJECT is for the sandbox only.
 */
describe('rails: a crash between the provider’s 202 and the commit', () => {
  let db: TestDatabase;
  let fake: MtnMomoFake;
  let merchant: AdminMerchant;
  let token: string;
  let customerUuid: string;
  const running: ServiceProcess[] = [];
  let common: Record<string, string>;

  const start = async (extra: Record<string, string>) => {
    const proc = await startServiceProcess(serviceEnv(db.url, { ...common, ...extra }));
    running.push(proc);
    return proc;
  };

  beforeAll(async () => {
    assertBuilt();
    db = await createTestDatabase();
    fake = await MtnMomoFake.start({ decisionDelayMs: 30 });
    common = {
      PAYMENTS_ENV: 'sandbox',
      SANDBOX_KYC_DELAY_MS: '100',
      JOB_POLL_INTERVAL_MS: '200',
      PROVIDER_ROUTES: 'GH/momo/MTN/*=mtn_momo',
      PROVIDER_POLL_SCHEDULE: '200ms,300ms',
      PROVIDER_TIMEOUT_MS: '2000',
      RECONCILE_AFTER_MS: '2500',
      ...fake.env(),
    };
    const setup = await start({});
    merchant = await adminMerchant(setup.url, 'Rails Crash');
    token = await clientToken(setup.url, merchant);
    customerUuid = await approvedCustomerAt(setup.url, token);
    await setup.stop('SIGTERM');
  }, 60_000);

  afterAll(async () => {
    for (const proc of running) await stopIfRunning(proc);
    await fake?.close();
    await db?.drop();
  });

  it('reconciliation asks MTN, finds the request, settles it, and sends nothing twice', async () => {
    const faulty = await start({ FAULT_INJECT: 'crash-after-provider-call' });
    const reference = newReference('crash-mtn');
    const body = ghMtnCollection(customerUuid, { amount: '30', reason: 'Crash test', reference });
    expect(await attempt(faulty.url, 'POST', '/v1/crossborder/global-collection', { token, body })).toEqual({ error: expect.any(String) });
    expect(await eventually(async () => hasExited(faulty), { attempts: 100, everyMs: 50 })).toBe(true);
    const [row] = await transactionRowsByExternal(db.url, merchant.merchantId, reference);
    expect(row?.status).toBe('initiating');
    // MTN got it (202) before the process died.
    expect(fake.resources.get(referenceIdOf(row!.id))).toBeDefined();

    await start({});
    expect(
      await eventually(async () => (await transactionRowsByExternal(db.url, merchant.merchantId, reference))[0]?.status === 'successful', {
        attempts: 300,
        everyMs: 100,
      }),
    ).toBe(true);
    const posts = fake.requests.filter((r) => r.method === 'POST' && r.headers['x-reference-id'] === referenceIdOf(row!.id));
    expect(posts).toHaveLength(1);
    const history = await historyOf(db.url, row!.id);
    expect(history.map((h) => h.to_status)).toEqual(['processing', 'successful']);
    expect(history[0]).toMatchObject({ reason: 'reconciled' });
    expect((await ledgerVerify(db.url)).ok).toBe(true);
  });

  it('npm run provider:check makes a token call to each configured connector and reports it', async () => {
    const mpesa = await MpesaFake.start();
    const flw = await FlutterwaveFake.start();
    try {
      const before = { mtn: fake.tokensIssued.collection, mpesa: mpesa.tokensIssued };
      const ok = await runCli(db.url, 'provider-check', [], { ...fake.env(), ...mpesa.env(), ...flw.env() });
      expect(ok.exitCode).toBe(0);
      expect(ok.output).toMatchObject({
        ok: true,
        connectors: {
          mtn_momo: {
            ok: true,
            base_url: fake.url,
            lines: [expect.stringContaining('collection: token issued'), expect.stringContaining('disbursement: token issued')],
          },
          mpesa: { ok: true, base_url: mpesa.url, lines: [expect.stringContaining('oauth: token issued')] },
          flutterwave: { ok: true, base_url: flw.url, lines: ['secret key accepted (balances read)'] },
        },
      });
      expect(fake.tokensIssued.collection).toBe(before.mtn + 1);
      expect(mpesa.tokensIssued).toBe(before.mpesa + 1);

      const refused = await runCli(db.url, 'provider-check', [], { ...fake.env(), MTN_MOMO_COLLECTION_API_KEY: 'wrong-key' });
      expect(refused.exitCode).toBe(1);
      expect(refused.output).toMatchObject({
        ok: false,
        connectors: { mtn_momo: { ok: false, error: expect.stringContaining('refused our collection credentials') } },
      });

      const none = await runCli(db.url, 'provider-check', []);
      expect(none.exitCode).toBe(1);
      expect(none.output).toMatchObject({ ok: false, note: expect.stringContaining('no provider connector is configured') });
    } finally {
      await mpesa.close();
      await flw.close();
    }
  });
});
