import banksFile from '../../src/modules/reference/data/banks.json';
import { readBanks } from '../../src/modules/reference/banks.data';
import { readReferenceData } from '../../src/modules/reference/reference.data';

/** banks.json (CONTRACT §6b): local codes as data, with their sources, checked at start. */
describe('bank data', () => {
  const data = readReferenceData();
  const countryOf = new Map(data.networks.map((n) => [n.id, n.countryCode]));
  const banks = readBanks((id) => countryOf.get(id));
  const nigeria = banks.filter((b) => b.countryCode === 'NG');

  it('gives every Nigerian bank a CBN/NIP code of 3 digits (banks) or 5–6 (microfinance banks, PSBs, wallets), once', () => {
    expect(nigeria.length).toBeGreaterThanOrEqual(30);
    for (const bank of nigeria) expect(bank.code).toMatch(/^(\d{3}|\d{5,6})$/);
    expect(new Set(nigeria.map((b) => b.code)).size).toBe(nigeria.length);
  });

  it('carries the codes every Nigerian developer uses', () => {
    const code = (name: string) => nigeria.find((b) => b.name === name)?.code;
    expect(code('Guaranty Trust Bank')).toBe('058');
    expect(code('Access Bank')).toBe('044');
    expect(code('Zenith Bank')).toBe('057');
    expect(code('First Bank of Nigeria')).toBe('011');
    expect(code('United Bank for Africa')).toBe('033');
    expect(code('OPay')).toBe('999992');
    expect(code('PalmPay')).toBe('999991');
    expect(code('Moniepoint Microfinance Bank')).toBe('50515');
    expect(code('Kuda Bank')).toBe('50211');
  });

  it('has a source for every country, and codes unique within each', () => {
    for (const country of banksFile.countries) {
      expect(country.source.length).toBeGreaterThan(20);
      const codes = country.banks.map((b) => b.code);
      expect(new Set(codes).size).toBe(codes.length);
    }
    for (const bank of banks) expect(bank.source).toBeTruthy();
    expect(banks.filter((b) => b.countryCode === 'KE').every((b) => /^\d{2}$/.test(b.code))).toBe(true);
    expect(banks.filter((b) => b.countryCode === 'ZA').every((b) => /^\d{6}$/.test(b.code))).toBe(true);
  });

  it('links networks of the same country, each once, so a network shows its local code', () => {
    const linked = banks.filter((b) => b.networkId);
    expect(new Set(linked.map((b) => b.networkId)).size).toBe(linked.length);
    for (const bank of linked) expect(countryOf.get(bank.networkId!)).toBe(bank.countryCode);
    expect(linked.find((b) => b.networkId === 'ng_gtbank')?.code).toBe('058');
  });

  it('is checked: a malformed code, a duplicate, a network of another country, a missing source are refused', () => {
    const ng = banksFile.countries[0]!;
    const withBanks = (extra: object[], over: object = {}) => ({ ...banksFile, countries: [{ ...ng, ...over, banks: [...ng.banks, ...extra] }] });
    const lookup = (id: string) => countryOf.get(id);
    expect(() => readBanks(lookup, withBanks([{ code: '0580', name: 'Four digits', type: 'bank' }]))).toThrow(/not a CBN\/NIP/);
    expect(() => readBanks(lookup, withBanks([{ code: '058', name: 'Twice', type: 'bank' }]))).toThrow(/listed twice/);
    expect(() => readBanks(lookup, withBanks([{ code: '999', name: 'Kenyan', type: 'bank', network_id: 'ke_kcb' }]))).toThrow(/not a network of the country/);
    expect(() => readBanks(lookup, withBanks([], { source: '' }))).toThrow(/invalid/);
  });
});
