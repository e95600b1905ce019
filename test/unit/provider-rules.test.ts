import { readFileSync } from 'node:fs';
import { GuardedConnector } from '../../src/providers/breaker';
import type { Connector, Route, RouteLeg } from '../../src/providers/connector';
import { MpesaConnector } from '../../src/providers/mpesa/client';
import { PROVIDERS } from '../../src/providers/registry';
import { ConnectorRouter, parseRoutingRules, productionConnector } from '../../src/providers/routing';
import { applyRules, type ConnectorRule } from '../../src/providers/rules';
import { AppError } from '../../src/shared/errors';
import { createLogger } from '../../src/shared/logger';

/** Issue 41 part 5: each connector's rules, in one place each, applied by the connector and by the sandbox alike. */

const route = (text: string): Route => {
  const [countryCode, channelType, networkCode, direction] = text.split('/') as [string, Route['channelType'], string, Route['direction']];
  return { countryCode: countryCode === '*' ? null : countryCode, channelType, networkCode: networkCode === '*' ? null : networkCode, direction };
};
const leg = (r: string, amount: string, currency: string, accountNumber: string | null = '254712345678'): RouteLeg => ({
  route: route(r),
  amount,
  currency,
  accountNumber,
});
const CARD: Route = { channelType: 'card', countryCode: null, networkCode: null, direction: 'collection' };

/** The refusal a check throws (null: it passes), as the envelope shows it. */
function refusal(check: () => void): { code: string; message: string; details: unknown } | null {
  try {
    check();
    return null;
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return { code: err.code, message: err.message, details: err.details };
  }
}

const rulesOf = (name: string) => PROVIDERS.find((p) => p.name === name)!.rules;

describe('each connector’s rules (src/providers/<name>/rules.ts)', () => {
  it('M-Pesa: whole shillings only, and a phone number for a wallet', () => {
    const mpesa = rulesOf('mpesa');
    expect(refusal(() => applyRules(mpesa.rules, leg('KE/momo/MPESA/collection', '100.50', 'KES')))).toEqual({
      code: 'INVALID_REQUEST',
      message: 'amount must be a whole number of KES for M-Pesa',
      details: [{ field: 'amount', issue: 'must be a whole number of KES for M-Pesa' }],
    });
    expect(refusal(() => applyRules(mpesa.rules, leg('KE/momo/MPESA/transfer', '100.00', 'KES')))).toBeNull();
    expect(refusal(() => applyRules(mpesa.rules, leg('KE/momo/MPESA/transfer', '100', 'KES')))).toBeNull();
    expect(refusal(() => applyRules(mpesa.rules, leg('KE/momo/MPESA/transfer', '100', 'KES', '07I2 345 678')))?.details).toEqual([
      { field: 'accountNumber', issue: 'must be the wallet’s phone number, digits only' },
    ]);
    expect(refusal(() => applyRules(mpesa.rules, leg('KE/momo/MPESA/transfer', '100', 'KES', null)))?.details).toEqual([
      { field: 'accountNumber', issue: 'must be the wallet’s phone number, digits only' },
    ]);
    expect(mpesa.payoutDecimals?.(route('KE/momo/MPESA/transfer'))).toBe(0);
  });

  it('Flutterwave: its least and most per product and currency, and its card currencies; a card refund is held to neither', () => {
    const flw = rulesOf('flutterwave');
    expect(refusal(() => applyRules(flw.rules, leg('NG/bank/GTBINGLA/transfer', '99.99', 'NGN', '0123456789')))?.details).toEqual([
      { field: 'amount', issue: 'must be between 100 and 10000000 NGN for payouts through our provider on this route' },
    ]);
    expect(refusal(() => applyRules(flw.rules, leg('GH/momo/TELECEL/collection', '20000.01', 'GHS')))?.details).toEqual([
      { field: 'amount', issue: 'must be between 1 and 20000 GHS for mobile money collections through our provider on this route' },
    ]);
    expect(refusal(() => applyRules(flw.rules, leg('GH/momo/TELECEL/collection', '20000', 'GHS')))).toBeNull();
    expect(refusal(() => applyRules(flw.rules, { route: CARD, amount: '50', currency: 'NGN', accountNumber: null }))?.details).toEqual([
      { field: 'amount', issue: 'must be between 100 and 10000000 NGN for card payments through our provider on this route' },
    ]);
    expect(refusal(() => applyRules(flw.rules, { route: CARD, amount: '50', currency: 'JPY', accountNumber: null }))?.details).toEqual([
      { field: 'currency', issue: expect.stringMatching(/^is not one our card processor charges in; it takes NGN, GHS, /) },
    ]);
    expect(refusal(() => applyRules(flw.rules, { route: { ...CARD, direction: 'transfer' }, amount: '1', currency: 'JPY', accountNumber: null }))).toBeNull();
  });

  it('MTN MoMo: a wallet is a phone number', () => {
    expect(refusal(() => applyRules(rulesOf('mtn_momo').rules, leg('GH/momo/MTN/collection', '1', 'GHS', 'abc')))?.details).toEqual([
      { field: 'accountNumber', issue: 'must be the wallet’s phone number, digits only' },
    ]);
  });

  it('the connector’s own check is its rules: M-Pesa refuses 100.50 KES with the same answer', () => {
    const mpesa = new MpesaConnector({
      config: { baseUrl: 'http://127.0.0.1:1', consumerKey: 'k', consumerSecret: 's', stk: { shortcode: '174379', passkey: 'p' }, b2c: null },
      timeoutMs: 1000,
      now: () => new Date(),
    });
    const fractional = leg('KE/momo/MPESA/collection', '100.50', 'KES');
    expect(refusal(() => mpesa.check(fractional))).toEqual(refusal(() => applyRules(rulesOf('mpesa').rules, fractional)));
    expect(mpesa.serves(route('KE/momo/MPESA/collection'))).toBe(true);
    // Covered by its data, but B2C is not configured here.
    expect(rulesOf('mpesa').covers(route('KE/momo/MPESA/transfer'))).toBe(true);
    expect(mpesa.serves(route('KE/momo/MPESA/transfer'))).toBe(false);
  });

  it('docs/providers.md lists each rule once, as the code has it', () => {
    const rows = new Map<string, { rule: ConnectorRule; connectors: string[] }>();
    for (const provider of PROVIDERS) {
      for (const rule of provider.rules.rules) {
        const row = rows.get(rule.id) ?? { rule, connectors: [] };
        // One definition per id: two rules may not share one.
        expect(row.rule).toBe(rule);
        row.connectors.push(provider.name);
        rows.set(rule.id, row);
      }
    }
    const table = [
      '| rule | connectors | refuses | field |',
      '|---|---|---|---|',
      ...[...rows.values()].map(
        ({ rule, connectors }) =>
          `| \`${rule.id}\` | ${[...connectors]
            .sort()
            .map((c) => `\`${c}\``)
            .join(', ')} | ${rule.refuses} | \`${rule.field}\` |`,
      ),
    ].join('\n');
    const doc = readFileSync('docs/providers.md', 'utf8');
    const between = /<!-- rules:begin -->\n([\s\S]*?)\n<!-- rules:end -->/.exec(doc);
    expect(between?.[1]).toBe(table);
  });
});

describe('which connector would serve a route in production (config-free)', () => {
  it.each([
    ['KE/momo/MPESA/collection', 'mpesa'],
    ['KE/momo/MPESA/transfer', 'mpesa'],
    ['GH/momo/MTN/collection', 'mtn_momo'],
    ['RW/momo/MTN/transfer', 'mtn_momo'],
    ['GH/momo/TELECEL/transfer', 'flutterwave'],
    ['NG/bank/GTBINGLA/transfer', 'flutterwave'],
    ['GH/bank/GHCBGHAC/collection', 'flutterwave'],
    ['KE/bank/KCBLKENX/collection', null],
    ['TZ/momo/MPESA/collection', null],
    ['RW/momo/AIRTEL/transfer', null],
  ])('%s → %s', (r, name) => {
    expect(productionConnector(route(r), [])?.name ?? null).toBe(name);
  });

  it('cards: Flutterwave', () => {
    expect(productionConnector(CARD, [])?.name).toBe('flutterwave');
  });

  it('PROVIDER_ROUTES rules come first; a connector named there counts only where its data covers the route, and the sandbox never', () => {
    const own = parseRoutingRules('KE/momo/MPESA/*=sandbox,flutterwave;GH/momo/*/*=mpesa', 'PROVIDER_ROUTES');
    expect(productionConnector(route('KE/momo/MPESA/collection'), own)?.name).toBe('flutterwave');
    // M-Pesa does not cover Ghana: the reference table's MTN rule decides.
    expect(productionConnector(route('GH/momo/MTN/collection'), own)?.name).toBe('mtn_momo');
  });
});

describe('the sandbox connector applies the production connector’s rules (ConnectorRouter)', () => {
  const logger = createLogger('silent');
  const sandbox: Connector = {
    name: 'sandbox',
    serves: () => true,
    initiate: async () => ({ providerReference: 'p' }),
    decide: async () => ({ outcome: 'pending' }),
    parseNotification: () => ({ dedupeKey: 'k', providerReference: null, claimed: null }),
    acknowledgement: {},
    checkCredentials: async () => [],
  };
  let guarded: GuardedConnector;
  let router: ConnectorRouter;
  beforeAll(() => {
    guarded = new GuardedConnector({
      connector: sandbox,
      settings: { volumeThreshold: 1, errorThresholdPercentage: 50, resetTimeoutMs: 60_000, rollingWindowMs: 10_000 },
      observer: undefined,
      logger,
    });
    router = new ConnectorRouter({ connectors: new Map([['sandbox', guarded]]), routes: '', env: 'sandbox' });
  });
  afterAll(() => guarded.shutdown());

  it('the M-Pesa whole-KES rule in the sandbox: 100.50 KES refused as M-Pesa refuses it, 100 taken', () => {
    for (const direction of ['collection', 'transfer']) {
      const fractional = leg(`KE/momo/MPESA/${direction}`, '100.50', 'KES');
      expect(refusal(() => router.pick(fractional))).toEqual(refusal(() => applyRules(rulesOf('mpesa').rules, fractional)));
      expect(router.pick(leg(`KE/momo/MPESA/${direction}`, '100', 'KES')).name).toBe('sandbox');
    }
  });

  it('Flutterwave’s limits and card currencies in the sandbox', () => {
    expect(refusal(() => router.pick(leg('GH/momo/TELECEL/collection', '20000.01', 'GHS')))?.details).toEqual([
      { field: 'amount', issue: 'must be between 1 and 20000 GHS for mobile money collections through our provider on this route' },
    ]);
    expect(refusal(() => router.pick({ route: CARD, amount: '500', currency: 'JPY', accountNumber: null }))?.details).toEqual([
      { field: 'currency', issue: expect.stringMatching(/^is not one our card processor charges in/) },
    ]);
  });

  it('payouts are rounded as the production connector pays: whole shillings on M-Pesa, the currency’s elsewhere', () => {
    expect(router.payoutDecimals(route('KE/momo/MPESA/transfer'))).toBe(0);
    expect(router.payoutDecimals(route('GH/momo/MTN/transfer'))).toBeUndefined();
  });

  it('a route no real provider covers is still served, with the gateway’s own rules only (docs/contract.md §12)', () => {
    expect(router.pick(leg('KE/bank/KCBLKENX/collection', '100.50', 'KES', '0123456789')).name).toBe('sandbox');
  });
});
